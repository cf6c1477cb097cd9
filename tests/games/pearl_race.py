"""Pearl Race: the smallest game that uses the whole rule interface, for CONTRIBUTING.md's
walkthrough and the test that adds a game end to end (tests/games/test_adding_a_game.py).

Kind of game: 2 players taking turns; chance (how many pearls lie in the clam bed, 6 to 9,
drawn once at the start); perfect information.

Rulings
-------
- The chance player first fills the bed with 6, 7, 8 or 9 pearls, each equally likely.
- Seat 0 moves first; on a turn a diver takes 1 or 2 pearls (never more than are left).
- Whoever takes the last pearl wins: a score of 1, the other diver 0. (The pearls each took
  are in the view, but a score must never rank a diver below one who scored less.)

Bots
----
No evaluator (games/bots/evaluation/ has none for it): the greedy bot values only a finished
game (a win 1, a loss -1), so it takes the last pearls when it can and otherwise picks at
random, and MCTS plays its rollouts to the end.
"""

from __future__ import annotations

import sys
from typing import Any

from games.rules import base
from games.rules.base import CHANCE, TERMINAL, Action, GameSpec

BED_SIZES = (6, 7, 8, 9)

spec = GameSpec(
    slug="pearl-race",
    name="Pearl Race",
    min_players=2,
    max_players=2,
    version=1,
    chance=True,
    hidden_information=False,
    description="Take one or two pearls a turn; whoever takes the last one wins.",
)


def new_game(
    num_players: int = 2, options: dict | None = None, version: int | None = None
) -> State:
    return State(num_players, spec.validate(num_players, options), spec.check_version(version))


class State(base.State):
    def __init__(self, num_players: int, options: dict[str, Any], rules_version: int = 1):
        super().__init__(num_players, options, rules_version)
        self._left: int | None = None  # None until the chance player fills the bed
        self._taken = [0] * num_players
        self._turn = 0
        self._last_taker: int | None = None

    def _current_player(self) -> int:
        if self._left is None:
            return CHANCE
        return TERMINAL if self._left == 0 else self._turn

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        return [({"type": "fill", "pearls": n}, 1 / len(BED_SIZES)) for n in BED_SIZES]

    def _legal_actions(self) -> list[Action]:
        assert self._left is not None
        return [{"type": "take", "pearls": n} for n in (1, 2) if n <= self._left]

    def _apply(self, action: Action) -> None:
        if action["type"] == "fill":
            self._left = action["pearls"]
            return
        assert self._left is not None
        self._left -= action["pearls"]
        self._taken[self._turn] += action["pearls"]
        self._last_taker = self._turn
        self._turn = 1 - self._turn

    def view(self, seat: int | None) -> dict[str, Any]:
        return {"pearls_left": self._left, "taken": list(self._taken), "to_move": self._turn}

    def _scores(self) -> list[float]:
        return [1.0 if seat == self._last_taker else 0.0 for seat in range(self.num_players)]


module = sys.modules[__name__]
