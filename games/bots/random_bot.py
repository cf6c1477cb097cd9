"""The random bot: a uniformly random legal action. Also the stand-in for a resigned seat."""

from __future__ import annotations

import random

from games.bots.rewards import choices
from games.rules.base import Action, State


class RandomBot:
    name = "random"

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        return rng.choice(choices(state, seat))
