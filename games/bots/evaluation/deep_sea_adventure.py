"""Deep Sea Adventure: a seat's projected score against the best other seat's.

Everything in it is public: scored chips lie face up, so every seat's score is known, and a
chip not yet revealed is valued at the mean of the values of its level still unrevealed.
"""

from __future__ import annotations

import math

from games.bots.evaluation.registry import evaluator
from games.rules import deep_sea_adventure as dsa

# Expected spaces moved on a roll, by items held: two dice of 1-3 less the items, at least 0.
_EXPECTED_STEP = tuple(
    sum(max(0, a + b - items) for a in dsa._DIE_FACES for b in dsa._DIE_FACES)
    / len(dsa._DIE_FACES) ** 2
    for items in range(7)
)


@evaluator(dsa.spec.slug)
def evaluate(state: dsa.State, seat: int) -> float:
    """How well ``seat`` is doing: its projected score minus the best other seat's.

    - every seat's scored chips at their values (face up); chips waiting to be revealed at the
      mean of the values of their level still unrevealed;
    - while the round is on, each held chip (every chip of a stack) at that same mean,
      times the chance of the holder getting back (1 once back, else :func:`_chance_back`);
    - a diver still going down also has the option of the next item deeper
      (:func:`_option_to_dive`), so turning back is not free;
    - a diver that has turned back holding nothing (on its way or back) has wasted its
      dive: one point less, so a bot does not turn round empty-handed for no reason.

    Chips held when the round has ended are in the reveals pending or lost, never both.
    """
    means = _unrevealed_means(state)
    projected = [_projection(state, s, means) for s in range(state.num_players)]
    mine = projected[seat]
    return mine - max(p for s, p in enumerate(projected) if s != seat)


def _unrevealed_means(state: dsa.State) -> list[float]:
    """Per level, the mean value of its chips not yet revealed (what a chip drawn next is worth
    on average)."""
    means = [0.0]
    for level in dsa._LEVELS:
        pool = state._unrevealed[level]
        means.append(sum(pool) / len(pool) if pool else 0.0)
    return means


def _projection(state: dsa.State, s: int, means: list[float]) -> float:
    value = float(sum(v for _, v in state._scored[s]))
    value += sum(means[level] for who, level in state._reveals if who == s)
    if state._phase in ("decide", "roll", "act"):
        held = state._held[s]
        held_value = sum(means[level] for item in held for level in dsa._levels_of(item))
        if state._back[s]:
            value += held_value
        elif held or not state._turned_back[s]:
            safe = _chance_back(state, s, state._positions[s], len(held))
            value += held_value * safe
            if not state._turned_back[s]:
                value += _option_to_dive(state, s, held_value, safe, means)
        if state._turned_back[s] and not held:
            value -= 1.0
    return value


def _option_to_dive(
    state: dsa.State, s: int, held_value: float, safe: float, means: list[float]
) -> float:
    """What a diver still going down gains by taking the next item deeper, if anything.

    Taking it adds its expected value but one more item to carry from farther down: the
    gain is the haul's value with it, at the lower chance of getting back, less its value
    without. Never negative: the diver may always pass or turn back instead.
    """
    position = state._positions[s]
    for space in range(position + 1, len(state._trail) + 1):
        item = state._trail[space - 1]
        if item is not dsa._BLANK:
            chance = _chance_back(state, s, space, len(state._held[s]) + 1)
            more = sum(means[level] for level in dsa._levels_of(item))
            return max(0.0, (held_value + more) * chance - held_value * safe)
    return 0.0


def _chance_back(state: dsa.State, s: int, position: int, items: int) -> float:
    """A rough chance that diver ``s`` gets back from ``position`` holding ``items``.

    It needs its distance over its expected step (two dice less its items, at least 0) as
    if it turned back now; the air lasts ``air`` over the items all divers in the water
    hold, in rounds of turns. The margin goes through a logistic whose width grows with
    the turns needed, because the dice spread more over more turns.
    """
    if state._air <= 0:
        return 0.0
    step = _EXPECTED_STEP[min(items, len(_EXPECTED_STEP) - 1)]
    if step <= 0:
        return 0.0
    turns_needed = position / step
    in_water = items + sum(
        len(state._held[d]) for d in range(state.num_players) if d != s and not state._back[d]
    )
    turns_of_air = state._air / max(1, in_water)
    width = 0.5 + 0.3 * math.sqrt(turns_needed)
    return 1.0 / (1.0 + math.exp(-(turns_of_air - turns_needed) / width))
