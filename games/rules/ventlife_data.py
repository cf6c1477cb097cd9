"""Ventlife: the terrains, the tile set and the seven species, apart from the logic reading them.

No component list survives beyond the rules text, so the tile set is the project's
(../shared/rules/ventlife-data.md). Correct a count or a number here and nowhere else.

A tile kind is named by the two terrains that follow its Black Smoker clockwise around the
tile: "BD" has Basalt Ridge next, then Diffuse Vents; "DB" is its mirror image.
"""

from __future__ import annotations

from dataclasses import dataclass

SMOKER = "black-smoker"
BASALT = "basalt-ridge"
DIFFUSE = "diffuse-vents"
MAT = "microbial-mat"
TERRAINS = (SMOKER, BASALT, DIFFUSE, MAT)
_LETTER = {"B": BASALT, "D": DIFFUSE, "M": MAT}


@dataclass(frozen=True)
class TileKind:
    name: str
    terrains: tuple[str, str]  # clockwise after the Black Smoker
    share: float  # copies = share x COPIES_PER_SHARE[players]


def _kind(name: str, share: float) -> TileKind:
    return TileKind(name, (_LETTER[name[0]], _LETTER[name[1]]), share)


# "10 each of BB, DD, MM, BD, BM, DM" at 4 players; a mixed kind's copies are split evenly
# between its two mirror images.
TILE_KINDS: tuple[TileKind, ...] = (
    _kind("BB", 1),
    _kind("DD", 1),
    _kind("MM", 1),
    _kind("BD", 0.5),
    _kind("DB", 0.5),
    _kind("BM", 0.5),
    _kind("MB", 0.5),
    _kind("DM", 0.5),
    _kind("MD", 0.5),
)
# Copies of each of the six pairs: 36, 48 and 60 tiles in all.
COPIES_PER_SHARE = {2: 6, 3: 8, 4: 10}


def tile_counts(players: int) -> list[int]:
    """Copies of each kind in :data:`TILE_KINDS` for a game of ``players``."""
    return [int(kind.share * COPIES_PER_SHARE[players]) for kind in TILE_KINDS]


@dataclass(frozen=True)
class Species:
    id: str
    name: str


TUBE_WORMS = "tube-worms"
VOLCANO_SNAILS = "volcano-snails"
BLIND_SHRIMP = "blind-shrimp"
EELPOUT = "eelpout"
YETI_CRABS = "yeti-crabs"
OCTOPUS = "octopus"
SPONGES = "sponges"

# In the rules' table order, which is also the order of every list of species.
SPECIES: tuple[Species, ...] = (
    Species(TUBE_WORMS, "Giant Tube Worms"),
    Species(VOLCANO_SNAILS, "Volcano Snails"),
    Species(BLIND_SHRIMP, "Blind Vent Shrimp"),
    Species(EELPOUT, "Eelpout Fish"),
    Species(YETI_CRABS, "Yeti Crabs"),
    Species(OCTOPUS, "Deep-Sea Octopus"),
    Species(SPONGES, "Vent Sponges"),
)
SPECIES_IDS = tuple(s.id for s in SPECIES)
IN_PLAY = 4
FIRST_GAME = (TUBE_WORMS, VOLCANO_SNAILS, BLIND_SHRIMP, YETI_CRABS)

CREATURES_PER_SPECIES = 6  # each player's tokens of each species in play
SEAFLOOR = 1  # the level of a tile flat on the table

MAX_SNAILS_PER_TURN = 3  # "1 to 3 snails on connected Basalt Ridge hexes"
# Eelpout: a shoal of n connected Fish scores SHOAL_POINTS[n]; "A lone Fish scores 0".
SHOAL_POINTS = (0, 0, 5, 10, 15, 20, 25)
SHRIMP_ONE, SHRIMP_BOTH = 2, 5  # next to Diffuse Vents or Microbial Mat; next to both
OCTOPUS_PER_SPECIES = 2
SPONGE_PER_TERRAIN = 2
