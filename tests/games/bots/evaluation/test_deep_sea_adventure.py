"""Deep Sea Adventure's evaluator: only what the seat sees, and the right direction."""

from __future__ import annotations

import random

import pytest

from games.bots.evaluation import evaluate
from games.bots.rewards import sample_outcome
from games.rules import deep_sea_adventure as dsa
from games.rules import get_rules
from tests.games.bots.helpers import diver_to_act, dsa_with_secrets, poisoned


@pytest.mark.parametrize("seed", range(6))
def test_evaluate_is_the_same_on_every_resampling_of_what_the_seat_cannot_see(seed):
    rng = random.Random(seed)
    state = get_rules("deep-sea-adventure").new_game(3)
    checked = 0
    while not state.is_terminal():
        if rng.random() < 0.2:
            for seat in range(3):
                value = evaluate(state, seat)
                for _ in range(3):
                    assert evaluate(state.resample_hidden(seat, rng), seat) == pytest.approx(value)
            checked += 1
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
    assert checked > 5


def test_evaluate_ignores_other_seats_true_values():
    state = dsa_with_secrets(11)
    assert evaluate(poisoned(state, 0, random.Random(1)), 0) == pytest.approx(evaluate(state, 0))


def test_evaluate_counts_own_values_and_level_means_for_the_rest():
    state = dsa.new_game(2)
    state._scored = [[(4, 15)], [(4, 12)]]
    for level, value in ((4, 15), (4, 12)):
        state._unrevealed[level].remove(value)
    # Seat 0 knows its 15; the other level-4 chip is one of the seven it has not seen.
    unseen = [12, 12, 13, 13, 14, 14, 15]
    assert evaluate(state, 0) == pytest.approx(15 - sum(unseen) / 7)
    assert evaluate(state, 1) == pytest.approx(12 - (12 + 13 + 13 + 14 + 14 + 15 + 15) / 7)


def test_a_chip_is_worth_less_the_harder_it_is_to_bring_home():
    near = diver_to_act(position=2, held=[3], air=20, phase="roll")
    far = diver_to_act(position=20, held=[3], air=20, phase="roll")
    short_of_air = diver_to_act(position=10, held=[3, 3, 3], air=5, phase="roll")
    assert evaluate(near, 0) > evaluate(far, 0) > evaluate(short_of_air, 0)
    assert evaluate(near, 0) == pytest.approx(-evaluate(near, 1))


def test_a_diver_safely_back_keeps_the_full_expected_value_of_its_chips():
    state = diver_to_act(position=0, held=[2], air=20, phase="roll")
    state._back = [True, True]  # the other diver too, so it has no option left to dive
    assert evaluate(state, 0) == pytest.approx(5.5)


def test_evaluate_needs_a_seat():
    with pytest.raises(ValueError):
        evaluate(dsa.new_game(2), None)
