"""Abyss: a seat's projected points against the best other seat's.

Only what the seat may see goes in (its own Monster tokens' values, the sizes of the other
hands), so every ``resample_hidden(seat)`` of a state has the same value.
"""

from __future__ import annotations

from games.bots.evaluation.registry import evaluator
from games.rules import abyss
from games.rules.abyss import data

# What a pearl, a key and an Ally in hand (up to a hand's useful size) are worth in points,
# roughly: a Lord of ~6 points takes ~3 Allies; a Location of ~8 takes 3 keys.
_PEARL_WORTH = 0.5
_KEY_WORTH = 1.5
_ALLY_WORTH = 1.0
_USEFUL_HAND = 10

_TOKEN_VALUES = tuple(sorted(data.MONSTER_TOKENS))


@evaluator(abyss.spec.slug)
def evaluate(state: abyss.State, seat: int) -> float:
    """How well ``seat`` is doing: its projected points minus the best other seat's.

    A projection counts what scores now (Locations, Lords, the best affiliated Ally per
    race), Monster tokens (its own at their values, others' at the mean of the tokens
    ``seat`` has not seen), and part of what may still turn into points: pearls, keys and
    Allies in hand (by count: ``seat`` sees no other hand). A recruit under way counts its
    Lord already and its paid Allies as still in hand, so that starting one (a step of
    several) is worth what finishing it will be.
    """
    if state._over:
        scores = state._scores()
        return scores[seat] - max(v for s, v in enumerate(scores) if s != seat)
    unseen = [data.MONSTER_TOKENS[v] - state._tokens[seat][i] for i, v in enumerate(_TOKEN_VALUES)]
    mean = (
        sum(v * unseen[i] for i, v in enumerate(_TOKEN_VALUES)) / sum(unseen)
        if sum(unseen)
        else 0.0
    )
    payment = state._payment
    recruiting = state._turn if payment is not None else None
    projected = []
    for s in range(state.num_players):
        parts = state._score_parts(s)
        value = float(parts["total"] - parts["monsters"])
        value += parts["monsters"] if s == seat else mean * sum(state._tokens[s])
        allies = sum(state._hands[s])
        if payment is not None and s == recruiting:
            value += data.LORDS[payment[0]].ip
            allies += len(payment[4])
        value += (
            _PEARL_WORTH * state._pearls[s]
            + _KEY_WORTH * state._keys(s)
            + _ALLY_WORTH * min(allies, _USEFUL_HAND)
        )
        projected.append(value)
    return projected[seat] - max(v for s, v in enumerate(projected) if s != seat)
