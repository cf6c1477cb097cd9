"""Ventlife: the field scored now, a seat's total against the best other seat's.

The field is public (only the tiles in hand are hidden, and they do not score), so every state
``resample_hidden(seat)`` could give has the same value.
"""

from __future__ import annotations

from games.bots.evaluation.registry import evaluator
from games.rules import ventlife


@evaluator(ventlife.spec.slug)
def evaluate(state: ventlife.State, seat: int) -> float:
    """``seat``'s score if the game ended now, minus the best other seat's."""
    totals = state._scores()
    return totals[seat] - max(t for s, t in enumerate(totals) if s != seat)
