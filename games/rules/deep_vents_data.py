"""Deep Vents: the twenty hexes as one table, apart from the logic that reads it.

The rulebook's icons did not survive into text, so the passive traits are the project's table
(deep-vents-data.md in the shared rules), chosen to fit the rulebook's Grow Examples and its
Trigger Examples 1-5 and 7. It cannot also fit Trigger Example 6: there the Lanternfish's
neighbours are exactly the Goblin Shark, White Smoker and Scaly-Foot Snail, which no table
can make agree with the layout of the Grow Examples, so that one example is not reproduced.
Correct a hex here and nowhere else.

Each row says, in the rulebook's order, what a hex is:

- ``traits``: the passive trait symbols on its front (a decimated hex shows :data:`BACK_TRAITS`);
- ``copies``: how many are in the box;
- ``grow``: a grow kind and its argument (see :data:`GROW_KINDS`);
- ``trigger``: the trigger's steps in the order the hex guide reads them (see
  :data:`TRIGGER_STEPS`); empty if the hex cannot be triggered;
- ``track``: the spaces of its track, marker on the first, or ``()``;
- ``passive``: a passive grow kind and its amount (see :data:`PASSIVE_KINDS`), or None.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

HEAT = "heat"
ROCK = "rock"
BIOLUMINESCENCE = "bioluminescence"
PREDATION = "predation"
TRAITS = (HEAT, ROCK, BIOLUMINESCENCE, PREDATION)

# "Flip the hex over in place. For the remainder of the game, only the passive trait on the
# back of the hex applies": every back shows one heat.
BACK_TRAITS = (HEAT,)

# Undersea Volcano: "Heat on this hex is equal to the number of archaea on it."
HEAT_PER_ARCHAEON = "heat per archaeon"

GROW_KINDS = {
    "add": "add the given number of archaea",
    "adjacent_traits": "add 1 per matching trait symbol on the adjacent hexes",
    "adjacent_holding": "add 1 per adjacent hex holding at least the given number of archaea",
    "drain_adjacent": "move 1 archaeon here from each adjacent hex with the given trait",
    "opponent_hexes_holding_players": (
        "add 1 per opponents' hex holding at least as many archaea as there are players"
    ),
    "swallow_adjacent": "move all archaea of one adjacent hex (the player's choice) here",
    "track": "add the number the track's marker is on",
    "none": "nothing happens",
}

TRIGGER_STEPS = {
    "spend": "spend the given number of archaea from this hex",
    "spend_per_adjacent": "spend 1 archaeon from this hex per adjacent hex",
    "spend_all_from": (
        "spend all archaea of this or an adjacent hex holding at least the given "
        "number (the player's choice)"
    ),
    "collect": "move all archaea left on this hex to the supply",
    "spread": "add 1 archaeon from the general supply to each adjacent hex",
    "shell": "gain the given number of shells, or the track's number for 'track'",
    "gain": "take the given number of archaea from the general supply into the supply",
    "advance": "move the track's marker one space up, not past the last",
    "strip_shell": "each opponent discards 1 shell if it has one",
    "attack": (
        "each opponent takes damage: ('flat', n); ('trait', t) = n per t in its "
        "ecosystem; ('hexes_holding', k) = its hexes holding k or more"
    ),
    "squid_hunt": (
        "each opponent decimates a Colossal Squid or Giant Squid of its choice; one "
        "without takes the given multiple of its predation as damage"
    ),
    "erupt": (
        "automatic when this hex holds the given number or more: decimate it, then each "
        "opponent decimates a hex of its choice"
    ),
}

PASSIVE_KINDS = {
    "opponent_decimates": "add the amount each time an opponent decimates a hex",
    "adjacent_triggered": "add the amount whenever its owner triggers an adjacent hex",
}


@dataclass(frozen=True)
class HexType:
    name: str
    traits: tuple[str, ...]
    copies: int
    grow: tuple[Any, ...]
    trigger: tuple[tuple[Any, ...], ...]
    track: tuple[int, ...] = ()
    passive: tuple[str, int] | None = None


HEXES: tuple[HexType, ...] = (
    HexType(
        "Anglerfish",
        (BIOLUMINESCENCE, PREDATION),
        2,
        ("adjacent_traits", (BIOLUMINESCENCE,)),
        (("spend", 3), ("attack", "trait", BIOLUMINESCENCE)),
    ),
    HexType("Black Smoker", (HEAT,), 2, ("add", 3), (("spend", 2), ("collect",), ("spread",))),
    HexType(
        "Bull Cachalot",
        (PREDATION,),
        2,
        ("adjacent_traits", (PREDATION,)),
        (("spend", 5), ("squid_hunt", 2)),
    ),
    HexType(
        "Colossal Squid",
        (PREDATION,),
        2,
        ("none",),
        (("spend_all_from", 4), ("attack", "trait", HEAT)),
    ),
    HexType("Deep Vent", (HEAT, ROCK), 4, ("add", 2), (("collect",),)),
    HexType(
        "Giant Oarfish",
        (BIOLUMINESCENCE,),
        2,
        ("adjacent_holding", 2),
        (("spend", 3), ("attack", "hexes_holding", 3)),
    ),
    HexType(
        "Giant Squid",
        (PREDATION,),
        2,
        ("drain_adjacent", BIOLUMINESCENCE),
        (("spend", 3), ("attack", "flat", 4)),
    ),
    HexType(
        "Giant Tube Worms",
        (ROCK,),
        2,
        ("adjacent_traits", (HEAT, ROCK)),
        (("spend", 5), ("spread",), ("shell", 1)),
    ),
    HexType(
        "Glowing Medusa",
        (BIOLUMINESCENCE,),
        2,
        ("opponent_hexes_holding_players",),
        (("spend", 2), ("collect",)),
    ),
    HexType(
        "Goblin Shark",
        (PREDATION,),
        2,
        ("adjacent_traits", (ROCK,)),
        (("spend", 3), ("strip_shell",), ("attack", "flat", 1)),
    ),
    HexType(
        "Gulper Eel", (PREDATION,), 2, ("swallow_adjacent",), (("spend", 3), ("attack", "flat", 2))
    ),
    HexType(
        "Isopod Swarm",
        (ROCK,),
        2,
        ("none",),
        (("spend", 1), ("shell", 1), ("collect",)),
        passive=("opponent_decimates", 5),
    ),
    HexType(
        "Lanternfish",
        (BIOLUMINESCENCE,),
        2,
        ("adjacent_traits", (PREDATION,)),
        (("spend_per_adjacent",), ("spread",)),
    ),
    HexType("Porous Rock", (ROCK,), 2, ("add", 1), (("spend", 1), ("shell", 1))),
    HexType(
        "Scaly-Foot Snail",
        (ROCK,),
        2,
        ("adjacent_traits", (HEAT, ROCK)),
        (("spend", 4), ("shell", "track"), ("advance",)),
        track=(1, 2, 3),
    ),
    HexType(
        "Towering Smoker",
        (HEAT,),
        2,
        ("track",),
        (("collect",), ("advance",)),
        track=(1, 2, 3, 4, 5),
    ),
    HexType("Undersea Volcano", (HEAT_PER_ARCHAEON,), 2, ("add", 1), (("erupt", 5),)),
    HexType(
        "Vampire Squid",
        (BIOLUMINESCENCE,),
        2,
        ("none",),
        (("spend", 2), ("attack", "flat", 1), ("gain", 1)),
        passive=("adjacent_triggered", 1),
    ),
    HexType("White Smoker", (HEAT,), 2, ("add", 2), (("collect",),)),
    HexType(
        "Yeti Crab",
        (ROCK,),
        2,
        ("adjacent_traits", (HEAT, ROCK)),
        (("spend", 3), ("shell", 1), ("attack", "flat", 1)),
    ),
)

STARTING_HEX = "Deep Vent"
# Bull Cachalot: "Each opponent must decimate 1 Colossal Squid or 1 Giant Squid."
SQUIDS = ("Colossal Squid", "Giant Squid")

HEX_CAP = 10  # "A single hex can't have more than 10 archaea on it."
ROUNDS = 8
ROW_LENGTH = 5  # face-up hexes in the row; the face-up top of the stack is a sixth choice
SHORTFALL_LOAN = 10  # "take a shortfall token and 10 archaea"; paying one off costs as much
SHORTFALL_POINTS = -10
ELIMINATING_SHORTFALLS = 2

# Starting archaea of the first player; each later player in turn order gets 1 more. In the
# starting-bid variant everyone starts with this and the bonus comes after the bid.
STARTING_ARCHAEA = {2: 10, 3: 15, 4: 20}
