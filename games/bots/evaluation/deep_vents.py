"""Deep Vents: a seat's projected score against the best other projection.

The game has no hidden information, so the state is read as it is.
"""

from __future__ import annotations

from games.bots.evaluation.registry import evaluator
from games.rules import deep_vents
from games.rules import deep_vents_data as data

# Hexes whose trigger banks their archaea into the supply: what lies on them is as good as won.
_BANKS = [any(step[0] == "collect" for step in h.trigger) for h in data.HEXES]


@evaluator(deep_vents.spec.slug)
def evaluate(state: deep_vents.State, seat: int) -> float:
    """How well ``seat`` is doing: its projected score minus the best other projection.

    A projection counts the points it has now, archaea on hexes that collect at full value
    (a trigger can bank them), and half an archaeon per face-up hex per round to come.
    """
    mine = _projection(state, seat)
    others = [
        _projection(state, s) for s in range(state.num_players) if s != seat and not state._out[s]
    ]
    return mine - max(others) if others else mine


def _projection(state: deep_vents.State, seat: int) -> float:
    value = (
        state._supply[seat] + state._shells[seat] / 2 + data.SHORTFALL_POINTS * state._tokens[seat]
    )
    if state._out[seat]:
        return value
    rounds_left = data.ROUNDS - state._round if state._phase != "over" else 0
    for h in state._ecosystems[seat]:
        banks = not h["decimated"] and _BANKS[h["kind"]]
        value += h["archaea"] if banks else h["archaea"] / 2
        if not h["decimated"]:
            value += rounds_left / 2
    return value
