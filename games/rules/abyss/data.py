"""Abyss: the cards and tokens as tables, apart from the logic that reads them.

The printed card list is not in the sources (../shared/rules/abyss-data.md), so each Lord and
Location carries where it comes from:

- ``source`` says where the card itself (its name and what it does) comes from: ``"rules"``
  when the Greek rules name it (in the scoring or recruiting example or the glossary),
  ``"public list"`` for the names, guilds and powers of the public list in abyss-data.md, and
  ``"project"`` for cards the project made up to complete the set in the printed pattern;
- ``chosen`` names the fields whose values the project chose; every other field is given by the
  source (for instance the Master of Magic's cost of 10 over 3 races with a Jellyfish, and its
  6 Influence Points, are in the rules' examples; only its keys are the project's).

Correct a card here and nowhere else. Powers are ids the rule package dispatches on; the texts
are the project's own wording.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# The five Ally races, in the order the rules introduce them, with their colours.
SQUID: Final = "squid"  # blue
SHELLFISH: Final = "shellfish"  # green
CRAB: Final = "crab"  # red
SEAHORSE: Final = "seahorse"  # yellow
JELLYFISH: Final = "jellyfish"  # purple
RACES: Final[tuple[str, ...]] = (SQUID, SHELLFISH, CRAB, SEAHORSE, JELLYFISH)

# "Each race has 13 cards: one worth 5, two worth 4, three worth 3, three worth 2, four worth 1."
ALLY_COPIES: Final[dict[int, int]] = {1: 4, 2: 3, 3: 3, 4: 2, 5: 1}
MONSTERS: Final = 6  # "71 Exploration cards (65 Allies & 6 Monsters)"

# "20 Monster tokens (2 worth 4, 9 worth 3 and 9 worth 2)", drawn face down.
MONSTER_TOKENS: Final[dict[int, int]] = {2: 9, 3: 9, 4: 2}

TRACK_SPACES: Final = 5  # the exploration track (the rules' example fills five)
ALLY_PRICES: Final = (1, 2, 3)  # the 1st, 2nd and 3rd Ally bought in one exploration
FULL_TRACK_PEARLS: Final = 1  # the forced take or fight on the last space
COURT_SLOTS: Final = 6
COURT_REFILL_AT: Final = 2  # "if only two Lords are left ... gain two Pearls and refill"
COURT_REFILL_PEARLS: Final = 2
KEYS_FOR_LOCATION: Final = 3
MAX_LOCATION_DRAW: Final = 4  # "draw 1, 2, 3 or 4 Locations"
LORDS_TO_END: Final = 7  # "any player recruits their 7th Lord"
STARTING_PEARLS: Final = 1
PLOT_COST: Final = 1  # pearls per Lord brought to the Court

# Threat track: the rewards on each of its six spaces, as (pearls, monster tokens, keys).
THREAT_SPACES: Final = 6
THREAT_REWARDS: Final[dict[int, tuple[tuple[int, int, int], ...]]] = {
    1: ((1, 0, 0), (0, 1, 0)),
    2: ((2, 0, 0), (1, 1, 0), (0, 2, 0)),
    3: ((0, 0, 1),),
    4: ((1, 0, 1), (0, 1, 1)),
    5: ((2, 0, 1), (1, 1, 1), (0, 2, 1)),
    6: ((0, 0, 2),),
}

SOLDIER: Final = "soldier"  # red
MERCHANT: Final = "merchant"  # green
POLITICIAN: Final = "politician"  # blue
MAGE: Final = "mage"  # purple
FARMER: Final = "farmer"  # yellow
AMBASSADOR: Final = "ambassador"  # several colours
GUILDS: Final = (SOLDIER, MERCHANT, POLITICIAN, MAGE, FARMER, AMBASSADOR)

# When a power acts: once on recruiting (the card's arrow), or for as long as the Lord is free
# and not assassinated, or both (the Commander).
ONCE: Final = "once"
WHILE_FREE: Final = "while free"
BOTH: Final = "once and while free"


@dataclass(frozen=True)
class Lord:
    name: str
    guild: str
    cost: int  # the least total value of Allies to pay (pearls may make it up)
    races: int  # the exact number of different races to pay with
    required: str | None  # the race that must be among them (the large bubble)
    ip: int  # Influence Points at the end
    keys: int
    power: str | None  # an id the rules dispatch on (powers.py); None for no power
    timing: str | None  # ONCE, WHILE_FREE, BOTH or None
    text: str
    source: str
    chosen: tuple[str, ...] = ()


_ALL: Final = ("cost", "races", "required", "ip", "keys")
_NUMBERS: Final = ("cost", "races", "ip", "keys")  # the guild's colour gives the required race

POWERS: Final = {
    # Politicians
    "corruptor": "You may at once recruit one more Lord from the Court, paying 5 pearls for it "
    "instead of Allies.",
    "diplomat": "Your recruits may be paid with any races; the number of races still holds.",
    "opportunist": "Once in each of your turns, before your action, you may discard a Lord "
    "from the Court; the top Lord of the deck takes its slot.",
    "treasurer": "Your recruits cost 2 less in value.",
    "traitor": "You may discard another free Lord of yours and take any Lord of the Court in "
    "its place; the newcomer's power acts at once.",
    "schemer": "You may discard another free Lord of yours and take the top Lord of the deck "
    "in its place; the newcomer's power acts at once.",
    # Soldiers
    "seeker": "Each opponent gives back 2 pearls to the Treasury (all it has, if fewer).",
    "recruiter": "Your opponents' recruits cost 2 more in value.",
    "tamer": "When an opponent fights a Monster it takes the reward of the Threat space below "
    "the token; on the first space, that space's own reward.",
    "commander": "Each opponent with more than 6 Allies in hand discards down to 6, and while "
    "this Lord is free each opponent does so again at the end of its every turn.",
    "assassin": "For each opponent you pick one of its free Lords: that Lord loses its power "
    "and its keys for the rest of the game (its points stay).",
    "jailor": "Each opponent discards 1 Ally of its choice from its hand.",
    "hunter": "Take one Monster token at random from an opponent of your choice.",
    # Merchants
    "landlord": "At the start of each of your turns, take 1 pearl from the Treasury.",
    "ship_master": "When your exploration sends Allies to the Council, take 1 pearl per "
    "different race among them.",
    "shopkeeper": "Take 1 pearl from the Treasury.",
    "peddler": "Take 2 pearls from the Treasury.",
    "trader": "Take 3 pearls from the Treasury.",
    "slaver": "Once in each of your turns, before your action, you may sell 1 Ally from your "
    "hand to the discard for 2 pearls from the Treasury.",
    # Mages
    "alchemist": "When you request support from the Council, you take a second stack too.",
    "apprentice": "Take the stack of one Council race into your hand.",
    "illusionist": "You may give back one of your Locations and take a face-up one instead; "
    "the Lords under it move under the new one.",
    "invoker": "Play another whole turn after this one.",
    "oracle": "Discard the stack of one Council race.",
    "master_of_magic": "On your later recruits, affiliate the paid Ally of your choice, not only"
    " the weakest.",
}

LORDS: Final[tuple[Lord, ...]] = (
    # Politicians (blue; the large bubble is a Squid)
    Lord(
        "Corruptor",
        POLITICIAN,
        10,
        3,
        SQUID,
        6,
        0,
        "corruptor",
        ONCE,
        POWERS["corruptor"],
        "rules",
        ("cost", "races", "required", "keys"),
    ),
    Lord(
        "Diplomat",
        POLITICIAN,
        8,
        2,
        SQUID,
        5,
        1,
        "diplomat",
        WHILE_FREE,
        POWERS["diplomat"],
        "public list",
        _ALL,
    ),
    Lord(
        "Opportunist",
        POLITICIAN,
        7,
        2,
        SQUID,
        5,
        0,
        "opportunist",
        WHILE_FREE,
        POWERS["opportunist"],
        "public list",
        _ALL,
    ),
    Lord(
        "Treasurer",
        POLITICIAN,
        9,
        2,
        SQUID,
        6,
        0,
        "treasurer",
        WHILE_FREE,
        POWERS["treasurer"],
        "public list",
        _ALL,
    ),
    Lord(
        "Traitor",
        POLITICIAN,
        9,
        2,
        SQUID,
        6,
        0,
        "traitor",
        ONCE,
        POWERS["traitor"],
        "rules",
        ("cost", "races", "keys"),
    ),
    Lord(
        "Schemer", POLITICIAN, 8, 3, SQUID, 5, 1, "schemer", ONCE, POWERS["schemer"], "rules", _ALL
    ),
    # Soldiers (red; a Crab)
    Lord(
        "Seeker", SOLDIER, 7, 2, CRAB, 4, 1, "seeker", ONCE, POWERS["seeker"], "public list", _ALL
    ),
    Lord(
        "Recruiter",
        SOLDIER,
        8,
        2,
        CRAB,
        5,
        0,
        "recruiter",
        WHILE_FREE,
        POWERS["recruiter"],
        "public list",
        _ALL,
    ),
    Lord("Tamer", SOLDIER, 7, 2, CRAB, 4, 1, "tamer", WHILE_FREE, POWERS["tamer"], "rules", _ALL),
    Lord(
        "Commander",
        SOLDIER,
        8,
        3,
        CRAB,
        4,
        0,
        "commander",
        BOTH,
        POWERS["commander"],
        "rules",
        _ALL,
    ),
    Lord(
        "Assassin", SOLDIER, 8, 2, CRAB, 4, 0, "assassin", ONCE, POWERS["assassin"], "rules", _ALL
    ),
    Lord(
        "Jailor",
        SOLDIER,
        9,
        3,
        CRAB,
        7,
        0,
        "jailor",
        ONCE,
        POWERS["jailor"],
        "rules",
        ("cost", "races", "required", "keys"),
    ),
    Lord(
        "Hunter", SOLDIER, 6, 1, CRAB, 3, 1, "hunter", ONCE, POWERS["hunter"], "public list", _ALL
    ),
    # Merchants (green; a Shellfish)
    Lord(
        "Landlord",
        MERCHANT,
        9,
        2,
        SHELLFISH,
        5,
        0,
        "landlord",
        WHILE_FREE,
        POWERS["landlord"],
        "public list",
        _ALL,
    ),
    Lord(
        "Ship Master",
        MERCHANT,
        8,
        3,
        SHELLFISH,
        5,
        0,
        "ship_master",
        WHILE_FREE,
        POWERS["ship_master"],
        "public list",
        _ALL,
    ),
    Lord(
        "Shopkeeper",
        MERCHANT,
        6,
        2,
        SHELLFISH,
        5,
        1,
        "shopkeeper",
        ONCE,
        POWERS["shopkeeper"],
        "public list",
        _ALL,
    ),
    Lord(
        "Peddler",
        MERCHANT,
        7,
        2,
        SHELLFISH,
        4,
        0,
        "peddler",
        ONCE,
        POWERS["peddler"],
        "public list",
        _ALL,
    ),
    Lord(
        "Trader",
        MERCHANT,
        8,
        1,
        SHELLFISH,
        3,
        0,
        "trader",
        ONCE,
        POWERS["trader"],
        "public list",
        _ALL,
    ),
    Lord(
        "Slaver",
        MERCHANT,
        8,
        1,
        SHELLFISH,
        5,
        0,
        "slaver",
        WHILE_FREE,
        POWERS["slaver"],
        "rules",
        ("keys",),
    ),
    # Mages (purple; a Jellyfish)
    Lord(
        "Alchemist",
        MAGE,
        9,
        2,
        JELLYFISH,
        5,
        0,
        "alchemist",
        WHILE_FREE,
        POWERS["alchemist"],
        "public list",
        _ALL,
    ),
    Lord(
        "Apprentice",
        MAGE,
        7,
        2,
        JELLYFISH,
        4,
        1,
        "apprentice",
        ONCE,
        POWERS["apprentice"],
        "public list",
        _ALL,
    ),
    Lord(
        "Illusionist",
        MAGE,
        8,
        3,
        JELLYFISH,
        5,
        0,
        "illusionist",
        ONCE,
        POWERS["illusionist"],
        "public list",
        _ALL,
    ),
    Lord(
        "Invoker",
        MAGE,
        10,
        3,
        JELLYFISH,
        5,
        0,
        "invoker",
        ONCE,
        POWERS["invoker"],
        "public list",
        _ALL,
    ),
    Lord(
        "Oracle", MAGE, 7, 2, JELLYFISH, 4, 1, "oracle", ONCE, POWERS["oracle"], "public list", _ALL
    ),
    Lord(
        "Master of Magic",
        MAGE,
        10,
        3,
        JELLYFISH,
        6,
        0,
        "master_of_magic",
        WHILE_FREE,
        POWERS["master_of_magic"],
        "rules",
        ("keys",),
    ),
    # Farmers (yellow; a Seahorse): no power, many points
    Lord(
        "Keeper",
        FARMER,
        8,
        2,
        SEAHORSE,
        6,
        0,
        None,
        None,
        "",
        "rules",
        ("cost", "races", "required", "keys"),
    ),
    Lord("Gardener", FARMER, 9, 2, SEAHORSE, 7, 0, None, None, "", "project", _ALL),
    Lord("Grower", FARMER, 10, 3, SEAHORSE, 8, 0, None, None, "", "project", _ALL),
    Lord("Harvester", FARMER, 11, 3, SEAHORSE, 9, 0, None, None, "", "project", _ALL),
    Lord("Herdsman", FARMER, 12, 4, SEAHORSE, 10, 0, None, None, "", "project", _ALL),
    # Ambassadors (several colours; no required race): keys, few points, no power
    Lord(
        "Elder", AMBASSADOR, 10, 4, None, 3, 3, None, None, "", "rules", ("cost", "races", "keys")
    ),
    Lord("Envoy", AMBASSADOR, 8, 3, None, 4, 2, None, None, "", "project", _NUMBERS),
    Lord("Emissary", AMBASSADOR, 9, 3, None, 5, 2, None, None, "", "project", _NUMBERS),
    Lord("Herald", AMBASSADOR, 7, 2, None, 5, 1, None, None, "", "project", _NUMBERS),
    Lord("Consul", AMBASSADOR, 11, 4, None, 3, 3, None, None, "", "project", _NUMBERS),
)

# What a Location counts at the end, per item: see :func:`abyss.State._location_points`.
LOCATION_ITEMS: Final = {
    "race": "the owner's affiliated Allies of the given race",
    "guild": "the owner's Lords (free or not) of the given guild",
    "guilds": "the different guilds among the owner's Lords",
    "keys": "the keys the owner holds at the end (tokens and free Lords' keys)",
    "monsters": "the owner's Monster tokens",
    "pearls": "the owner's pearls",
    "locations": "the Locations the owner controls, this one included",
}


@dataclass(frozen=True)
class Location:
    name: str
    base: int
    per: int  # points per ``every`` items
    item: str  # a key of LOCATION_ITEMS
    subject: str | None  # the race or guild counted, for "race" and "guild"
    source: str
    every: int = 1


LOCATIONS: Final[tuple[Location, ...]] = (
    Location("Parliament", 6, 2, "guild", POLITICIAN, "rules"),
    Location("Sanctuary", 4, 3, "race", JELLYFISH, "rules"),
    Location("Abyss", 0, 2, "guilds", None, "rules"),
    Location("Ink Caverns", 4, 3, "race", SQUID, "project"),
    Location("Pearl Beds", 4, 3, "race", SHELLFISH, "project"),
    Location("Claw Reef", 4, 3, "race", CRAB, "project"),
    Location("Kelp Stables", 4, 3, "race", SEAHORSE, "project"),
    Location("Barracks", 6, 2, "guild", SOLDIER, "project"),
    Location("Market Hall", 6, 2, "guild", MERCHANT, "project"),
    Location("Arcane Grotto", 6, 2, "guild", MAGE, "project"),
    Location("Sargasso Fields", 5, 2, "guild", FARMER, "project"),
    Location("Embassy", 6, 2, "guild", AMBASSADOR, "project"),
    Location("Sunken Gate", 2, 3, "keys", None, "project"),
    Location("Lighthouse", 6, 1, "keys", None, "project"),
    Location("Monster Lair", 2, 2, "monsters", None, "project"),
    Location("Bone Field", 6, 1, "monsters", None, "project"),
    Location("Treasure Grotto", 2, 1, "pearls", None, "project"),
    Location("Oyster Vault", 6, 1, "pearls", None, "project", every=2),
    Location("Citadel", 2, 2, "locations", None, "project"),
    Location("Watchtower", 5, 1, "locations", None, "project"),
)
