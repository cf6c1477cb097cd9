"""Deep Vents' evaluator: the seat ahead on its projection is ahead."""

from __future__ import annotations

from games.bots.evaluation import evaluate
from tests.games.rules.test_deep_vents import table


def test_the_seat_ahead_is_valued_ahead_and_a_shortfall_costs_ten():
    state = table(2, supply={0: 20, 1: 10})
    assert evaluate(state, 0) > 0 > evaluate(state, 1)
    state._tokens[0] = 2
    assert evaluate(state, 0) < 0
