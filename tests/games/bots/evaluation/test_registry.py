"""The evaluators' registry: one per registered game, by slug; a default for a game without."""

from __future__ import annotations

import pytest

from games.bots.evaluation import by_result, evaluate, evaluator_for
from games.rules import registered
from tests.games import pearl_race


@pytest.mark.parametrize("slug", ["abyss", "deep-sea-adventure", "deep-vents", "ventlife"])
def test_every_game_played_by_bots_has_an_evaluator(slug):
    state = registered()[slug].new_game(2)
    assert evaluator_for(state) is not None


@pytest.mark.parametrize("seat", [None, -1, 2, True, 1.0])
def test_an_evaluation_is_for_a_seat(seat):
    with pytest.raises(ValueError, match="an evaluation is for a seat"):
        evaluate(registered()["deep-vents"].new_game(2), seat)


def test_a_game_without_an_evaluator_gets_the_default():
    state = pearl_race.new_game(2)  # not registered: the test that adds it registers it
    assert evaluator_for(state) is None
    assert evaluate(state, 0) == by_result(state, 0) == 0.0
