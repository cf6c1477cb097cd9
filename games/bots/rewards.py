"""What the bots share: the seat's choices, rewards from a finished game, chance sampling,
action keys."""

from __future__ import annotations

import random
from typing import Any

from games.rules.base import Action, State


def choices(state: State, seat: int) -> list[Action]:
    """The legal actions of ``seat``, which must be the seat to act."""
    if state.current_player != seat:
        raise ValueError(f"seat {seat} is not to act")
    return state.legal_actions()


def rank_rewards(state: State) -> list[float]:
    """Per seat, 1 for first place and 0 for last, linear between; tied seats share the places.

    Two seats tied first of three hold places 1 and 2 between them, so each gets the mean of
    1 and 0.5. A game of one seat (never registered, but harmless) gives 1.
    """
    ranks = [entry["rank"] for entry in state.result()]
    n = len(ranks)
    if n == 1:
        return [1.0]
    rewards = []
    for rank in ranks:
        tied = ranks.count(rank)
        places = range(rank, rank + tied)
        rewards.append(sum((n - place) / (n - 1) for place in places) / tied)
    return rewards


def sample_outcome(outcomes: list[tuple[Action, float]], rng: random.Random) -> Action:
    """One chance outcome drawn by its probability."""
    r = rng.random()
    for outcome, probability in outcomes:
        r -= probability
        if r < 0:
            return outcome
    return outcomes[-1][0]  # what rounding leaves over goes to the last outcome


def action_key(action: Action) -> tuple:
    """A hashable stand-in for a JSON-able action dict, equal exactly when the actions are."""
    return _freeze(action)


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return ("__list__",) + tuple(_freeze(v) for v in value)
    return (type(value).__name__, value)
