"""Ventlife's evaluator: the field scored now, against the best other seat."""

from __future__ import annotations

from games.bots.evaluation import evaluate
from tests.games.rules.test_ventlife import game, put, small_floor, turn


def test_the_value_is_the_field_scored_now_against_the_best_other_seat():
    state = turn(small_floor(game(players=3)), 0, "creatures")
    put(state, "tube-worms", 0, (0, 0), (1, 1))
    put(state, "tube-worms", 1, (-1, -1))
    assert evaluate(state, 0) == 1 and evaluate(state, 1) == -1 and evaluate(state, 2) == -2
