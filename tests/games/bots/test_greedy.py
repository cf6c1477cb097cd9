"""The greedy bot prefers an obviously better move, and falls back sensibly without evaluation."""

from __future__ import annotations

import random

from games.bots import GreedyBot
from games.bots.evaluation import evaluate
from games.bots.rewards import sample_outcome
from games.rules import get_rules
from tests.games.bots.helpers import diver_to_act


def choices(state, seat=0, tries=10):
    return {GreedyBot().choose(state, seat, random.Random(seed))["type"] for seed in range(tries)}


def test_greedy_takes_a_deep_chip_it_can_bring_home():
    state = diver_to_act(position=3, held=[], air=24, phase="act", trail=[1, 1, 4] + [2] * 20)
    assert choices(state) == {"take"}


def test_greedy_turns_back_when_the_air_is_running_out():
    state = diver_to_act(position=8, held=[3, 3], air=12)
    assert choices(state) == {"turn_back"}


def test_greedy_keeps_diving_with_empty_hands_and_full_air():
    state = diver_to_act(position=2, held=[], air=25)
    assert choices(state) == {"continue"}


def test_greedy_pays_for_a_deep_vents_hex_loaded_with_archaea():
    rules = get_rules("deep-vents")
    state = rules.new_game(2)
    chance = random.Random(4)
    while state.is_chance_node():
        state.apply(sample_outcome(state.chance_outcomes(), chance))
    for slot in state._market:
        slot["archaea"] = 0
    state._market[2]["archaea"] = 10  # worth 5 points or more once placed, for 2 archaea
    assert all(
        GreedyBot().choose(state, 0, random.Random(seed)) == {"type": "take", "slot": 2}
        for seed in range(5)
    )


class _NoEvaluation:
    """A finished or unfinished game without an evaluator: the default applies."""

    def __init__(self, ranks=None):
        self.ranks = ranks

    def is_terminal(self):
        return self.ranks is not None

    def result(self):
        return [{"score": 0, "rank": r} for r in self.ranks]


def test_the_fallback_values_a_win_1_a_loss_minus_1_and_the_unknown_0():
    assert evaluate(_NoEvaluation([1, 2]), 0) == 1.0
    assert evaluate(_NoEvaluation([1, 2]), 1) == -1.0
    assert evaluate(_NoEvaluation([1, 1]), 1) == 0.0
    assert evaluate(_NoEvaluation(), 0) == 0.0
