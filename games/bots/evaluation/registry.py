"""The evaluators by game, and the default for a game that has none."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar, cast

from games.bots.rewards import rank_rewards
from games.rules import registered
from games.rules.base import State

Evaluator = Callable[[State, int], float]
GameState = TypeVar("GameState", bound=State)

_EVALUATORS: dict[str, Evaluator] = {}
_SLUGS: dict[type, str] = {}  # State class -> game slug, filled as states come up


def evaluator(
    slug: str,
) -> Callable[[Callable[[GameState, int], float]], Callable[[GameState, int], float]]:
    """Register the decorated function as the evaluator of game ``slug``, whose states are
    the ones it takes."""

    def register(function: Callable[[GameState, int], float]) -> Callable[[GameState, int], float]:
        if slug in _EVALUATORS and _EVALUATORS[slug] is not function:
            raise ValueError(f"game {slug!r} has an evaluator already")
        # Only ever called on a state of game ``slug`` (evaluator_for looks it up by the
        # state's class), so only on the states the function takes.
        _EVALUATORS[slug] = cast(Evaluator, function)
        return function

    return register


def evaluator_for(state: State) -> Evaluator | None:
    """The evaluator of ``state``'s game, or None if it has none."""
    slug = _slug_of(state)
    return None if slug is None else _EVALUATORS.get(slug)


def evaluate(state: State, seat: int) -> float:
    """How well ``seat`` is doing: the game's evaluator, or :func:`by_result` without one."""
    judge = evaluator_for(state)
    if judge is None:
        return by_result(state, seat)
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < state.num_players:
        raise ValueError(f"an evaluation is for a seat, 0 to {state.num_players - 1}: not {seat!r}")
    return judge(state, seat)


def by_result(state: State, seat: int) -> float:
    """The default: a finished game by place (a win 1, last place -1, linear between, ties
    shared); any position before the end 0, since nothing is known of it."""
    if state.is_terminal():
        return 2 * rank_rewards(state)[seat] - 1
    return 0.0


def _slug_of(state: State) -> str | None:
    kind = type(state)
    slug = _SLUGS.get(kind)
    if slug is None:
        for candidate, rules in registered().items():
            if rules.State is kind:
                slug = _SLUGS[kind] = candidate
                break
    return slug
