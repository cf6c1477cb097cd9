"""Abyss's data tables indexed as the state holds them, and the cards as ints.

An Exploration card is an int: race * 5 + value - 1 for an Ally (0..24), 25 for a Monster. A
Lord or a Location is its index in :mod:`games.rules.abyss.data`'s table.
"""

from __future__ import annotations

from typing import Any, Final

from games.rules.abyss import data

RACES: Final = data.RACES
RACE_INDEX: Final = {race: i for i, race in enumerate(RACES)}
ALLIES: Final = 25
MONSTER: Final = 25
CARDS: Final = 26
RACE: Final = tuple(c // 5 for c in range(ALLIES))
VALUE: Final = tuple(c % 5 + 1 for c in range(ALLIES))
FULL_DECK: Final = tuple(
    [data.ALLY_COPIES[v] for _ in RACES for v in range(1, 6)] + [data.MONSTERS]
)
TOKEN_VALUES: Final = tuple(sorted(data.MONSTER_TOKENS))
POPCOUNT: Final = tuple(bin(mask).count("1") for mask in range(32))

LORDS: Final = data.LORDS
LORD_INDEX: Final = {lord.name: i for i, lord in enumerate(LORDS)}
L_NAME: Final = tuple(lord.name for lord in LORDS)
L_GUILD: Final = tuple(lord.guild for lord in LORDS)
L_COST: Final = tuple(lord.cost for lord in LORDS)
L_RACES: Final = tuple(lord.races for lord in LORDS)
L_REQUIRED: Final = tuple(
    -1 if lord.required is None else RACE_INDEX[lord.required] for lord in LORDS
)
L_IP: Final = tuple(lord.ip for lord in LORDS)
L_KEYS: Final = tuple(lord.keys for lord in LORDS)
L_POWER: Final = tuple(lord.power for lord in LORDS)
LOCATIONS: Final = data.LOCATIONS
LOCATION_INDEX: Final = {location.name: i for i, location in enumerate(LOCATIONS)}
LOCATION_NAME: Final = tuple(location.name for location in LOCATIONS)

# A Lord in front of a seat: [lord, where, assassinated]; where is a Location index, FREE, or
# COMMITTED while its keys are being spent and the Location is not yet chosen.
FREE: Final = -1
COMMITTED: Final = -2

HAND_LIMIT: Final = 6  # Commander


def card_view(c: int) -> dict[str, Any]:
    if c == MONSTER:
        return {"monster": True}
    return {"race": RACES[RACE[c]], "value": VALUE[c]}


CARD_VIEWS: Final = tuple(card_view(c) for c in range(CARDS))


def cards_view(counts: list[int]) -> list[dict[str, Any]]:
    return [card_view(c) for c in range(ALLIES) for _ in range(counts[c])]


def card_in(card: dict[str, Any]) -> int | None:
    """The card an action names by exactly race and value, or ``{"monster": true}``; None
    for anything else."""
    if len(card) == 1:
        return MONSTER if card.get("monster") is True else None
    race, value = card.get("race"), card.get("value")
    if len(card) != 2 or type(race) is not str or type(value) is not int or not 1 <= value <= 5:
        return None
    r = RACE_INDEX.get(race)
    return None if r is None else r * 5 + value - 1


def card_of(card: dict[str, Any]) -> int:
    """The card a legal action or outcome names (by race and value, or a Monster)."""
    if "monster" in card:
        return MONSTER
    return RACE_INDEX[card["race"]] * 5 + card["value"] - 1
