"""Abyss's evaluator: the margin over the best other seat, a recruit under way counted whole,
and only what the seat sees."""

from __future__ import annotations

import random

import pytest

from games.bots.evaluation import evaluate
from games.bots.rewards import sample_outcome
from games.rules import get_rules
from tests.games.rules.test_abyss import RULEBOOK_HAND, _ended, card, play, table


def test_a_recruit_under_way_counts_so_starting_one_is_no_loss():
    # A greedy look-ahead sees the recruit and one payment, not the Lord placed at the end.
    state = table(2, hands={0: RULEBOOK_HAND}, pearls={0: 2})
    before = evaluate(state, 0)
    play(state, {"type": "recruit", "lord": "Master of Magic"})
    started = evaluate(state, 0)
    play(state, {"type": "pay", **card("jellyfish", 3)})
    assert started == evaluate(state, 0) == before + 6  # the Master of Magic's 6 points
    assert evaluate(state, 1) == pytest.approx(-evaluate(state, 0))


def test_a_finished_game_is_the_margin_over_the_best_other_seat():
    state = _ended(table(3, lords={0: ["Keeper"], 1: ["Herdsman"], 2: ["Hunter"]}))
    assert [evaluate(state, s) for s in range(3)] == [6 - 10, 10 - 6, 3 - 10]
    with pytest.raises(ValueError):
        evaluate(state, None)


@pytest.mark.parametrize("seed", range(3))
def test_the_value_is_the_same_on_every_resampling_of_what_the_seat_cannot_see(seed):
    rng = random.Random(seed)
    state = get_rules("abyss").new_game(3)
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.05:
            for seat in range(3):
                value = evaluate(state, seat)
                world = state.resample_hidden(seat, rng)
                assert evaluate(world, seat) == pytest.approx(value)
            checked += 1
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 3
