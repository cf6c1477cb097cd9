"""Deep Sea Adventure's evaluator: everyone's face-up values, and the right direction."""

from __future__ import annotations

import pytest

from games.bots.evaluation import evaluate
from games.rules import deep_sea_adventure as dsa
from tests.games.bots.helpers import diver_to_act


def test_evaluate_counts_every_seats_face_up_values():
    # Scored chips lie face up: seat 0 knows both 15 and 12, so its lead is 3, seat 1's -3.
    state = dsa.new_game(2)
    state._scored = [[(4, 15)], [(4, 12)]]
    for level, value in ((4, 15), (4, 12)):
        state._unrevealed[level].remove(value)
    assert evaluate(state, 0) == pytest.approx(3)
    assert evaluate(state, 1) == pytest.approx(-3)


def test_a_chip_waiting_to_be_revealed_is_worth_the_mean_of_its_level_still_unrevealed():
    state = dsa.new_game(2)
    state._scored = [[(4, 15)], []]
    state._unrevealed[4].remove(15)
    state._reveals = [(1, 4)]
    left = [12, 12, 13, 13, 14, 14, 15]
    assert evaluate(state, 1) == pytest.approx(sum(left) / 7 - 15)


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
