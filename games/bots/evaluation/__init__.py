"""Evaluators: per game, how well a seat is doing in a position, as a number of points.

The greedy bot looks one move ahead on them and MCTS values its leaves with them. They live
here, not in the rule modules, as OpenSpiel keeps evaluators out of its games: the rules say
what may happen, and judging a position is the bots' business.

An evaluator is a function ``(state, seat) -> float``, registered for its game's slug with
``@evaluator(slug)``; one module per game, each reading that game's State as the game lays it
out. It reads only what ``seat`` may see, so every ``state.resample_hidden(seat)`` has the
same value. :func:`evaluate` calls the game's evaluator, or for a game without one the
default, :func:`by_result` (a finished game by place, anything before the end 0); MCTS plays
such a game's rollouts to the end instead (:func:`evaluator_for` is None).
"""

# Each module registers its game's evaluator on import.
from games.bots.evaluation import abyss, deep_sea_adventure, deep_vents, ventlife  # noqa: F401
from games.bots.evaluation.registry import (
    Evaluator,
    by_result,
    evaluate,
    evaluator,
    evaluator_for,
)

__all__ = ["Evaluator", "by_result", "evaluate", "evaluator", "evaluator_for"]
