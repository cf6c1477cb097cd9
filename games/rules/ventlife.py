"""Ventlife: 2 to 4 players build a deep-sea vent field from triple-hex tiles and fill it with
creatures of four species, each scoring in its own way.

Kind of game: 2 to 4 players taking turns clockwise; chance (every tile drawn from the bag, one
at a time, and the four species when they are chosen at random); hidden information (the tile
in each player's hand: the others see only that one is held, until it is placed). The tiles
and the species are tables in :mod:`games.rules.ventlife_data`.

Actions
-------
Chance:

- ``{"type": "species", "species": [four ids]}`` with the option "random": one event choosing
  the set of four uniformly (35 outcomes, ids in table order);
- ``{"type": "draw", "seat": s, "tile": kind}``: one tile from the bag into seat ``s``'s hand
  (probability = copies of the kind left / tiles left). It is private to ``s``: the others see
  ``{"type": "draw", "seat": s}``.

Decisions, by the seat the decision belongs to:

- draft: ``{"type": "pick", "species": id}`` (2 and 4 players) or ``{"type": "leave_out",
  "species": id}`` (3 players);
- step 1: ``{"type": "place_tile", "q", "r", "rotation"}``, (q, r) the space of the tile's
  Black Smoker in plan view, rotation 0 to 5 (see Coordinates);
- step 2, by the owner of a covered creature that has a choice: ``{"type": "move", "q", "r"}``
  naming where it goes (the Octopus's direction shows as the hex it reaches);
- step 3: ``{"type": "place", "species": id, "q", "r"}``, one creature at a time (the first
  fixes the species for the turn), and ``{"type": "stop"}`` once at least one is placed.

Steps with one possible outcome happen without a decision point: a covered creature with one
place to go moves there, one with none goes back to supply, and step 3 ends by itself when
nothing more of the species can be placed (or is skipped when nothing at all can be).

Species ids: "tube-worms" (Giant Tube Worms), "volcano-snails", "blind-shrimp" (Blind Vent
Shrimp), "eelpout" (Eelpout Fish), "yeti-crabs", "octopus" (Deep-Sea Octopus), "sponges" (Vent
Sponges). Terrains: "black-smoker", "basalt-ridge", "diffuse-vents", "microbial-mat". Tile
kinds: "BB", "DD", "MM", "BD", "DB", "BM", "MB", "DM", "MD", the two terrains that follow the
Black Smoker clockwise around the tile (B = Basalt Ridge, D = Diffuse Vents, M = Microbial Mat).

Coordinates
-----------
Axial, pointy-top, as in Deep Vents (:mod:`games.rules.hexgrid`): the neighbours of (q, r) are (q+1, r), (q-1, r),
(q, r-1), (q+1, r-1), (q-1, r+1) and (q, r+1); row r grows downward and a hex's horizontal
position is q + r/2. Clockwise from east the six directions are E (1, 0), SE (0, 1),
SW (-1, 1), W (-1, 0), NW (0, -1), NE (1, -1), numbered 0 to 5.

A tile is three mutually adjacent hexes: its Black Smoker S and two neighbours of S in
consecutive directions. Rotation k puts the kind's first terrain at S + direction k and the
second at S + direction k+1 (mod 6), so smoker, first, second run clockwise around the tile.
Even rotations (0, 2, 4) give a triangle with two hexes above and one below (the smoker
top-left, top-right and bottom respectively); odd ones (1, 3, 5) one hex above and two below
(the smoker top, bottom-right and bottom-left). A hex of the field has a level: 1 on the
seafloor, one more for each tile stacked on it. Only the topmost hex of each plan space is
visible; "next to" and "neighbouring" always mean the six plan-view neighbours' topmost hexes.

Rulings
-------
- Species (option ``species``): "first-game" (default: Tube Worms, Volcano Snails, Blind Vent
  Shrimp, Yeti Crabs), "random" (one chance event), a list of four ids ("chosen"), or "draft".
- Seat 0 plays first; turns go clockwise (seat + 1).
- Draft, before any tile is dealt: the seats decide in reverse turn order starting with the
  last player, going round again if needed (2 players: 1, 0, 1, 0 each pick one; 4 players:
  3, 2, 1, 0 each pick one; 3 players: 2, 1, 0 each leave one species out, and the four left
  are played).
- Setup: once the species are known, each seat draws its hidden starting tile, seat 0 first.
  The bag holds 36, 48 or 60 tiles for 2, 3 or 4 players (ventlife_data.py).
- The first tile goes in the middle: its Black Smoker on (0, 0), in any rotation.
- On the seafloor: all three spaces have no tile, and at least one hex of the new tile shares a
  side (in plan view) with a hex of the field. (On a hex grid two hexes that meet at all meet
  along a full side, so this is the rules' "touching along a full edge".)
- Up on a plateau: the new Black Smoker lies on a topmost Black Smoker, all three spaces have a
  tile, their topmost hexes are at one level, and they belong to at least two different tiles.
  The new tile is one level higher.
- Covered creatures: Tube Worms on the covered smoker climb onto the new smoker with it (both,
  if two); Tube Worms covered by any other hex and Vent Sponges go back to supply at once. The
  others move one at a time: the current player's first, then the other seats' in turn order
  from the current player; one seat's in the tile's order (smoker, then clockwise).
- A covered creature moves to an empty hex (no creature on it) that is not on the new tile. The
  level it compares with is the one it was on before it was covered (the new tile's less 1).
  Snails: a neighbouring hex at a lower level, any terrain. Shrimp: a neighbouring hex that is
  not Basalt Ridge. Eelpout: a neighbouring hex at the same or a lower level, not a smoker.
  Yeti Crabs: a neighbouring hex at the same level. Octopus: for each of the six directions,
  walk from its space while the next space has a tile; the last hex reached is the destination
  (a direction whose first space has no tile, or whose last hex is on the new tile or occupied,
  is not a choice). Several destinations: the owner chooses; one: it goes there; none: back to
  its owner's supply.
- Placing creatures: one species per turn, as many as its rule allows and the supply holds (6
  of each species per player); "you must place if you can" = at least one creature of the
  chosen species, so ``stop`` is offered only after a first ``place``. A turn where nothing can
  be placed skips step 3.
- Tube Worms go on empty Black Smokers at any level. A second worm may go on a seafloor smoker
  holding exactly one worm, placed there by the same player this turn (the rules' "place 2 on
  the same hex"); above the seafloor, one per hex (two that climbed together stay two).
- Volcano Snails: 1 to 3 per turn on empty Basalt Ridge hexes, each after the first next to a
  snail placed this turn (connected in plan view; levels may differ).
- Blind Vent Shrimp: any empty hex that is not Basalt Ridge. Yeti Crabs: any empty hex above
  the seafloor. Vent Sponges: any empty hex. Octopus: any empty edge hex, a topmost hex with at
  least one neighbouring space without a tile.
- Eelpout Fish: an empty hex that is not a smoker, either on the seafloor or next to one of the
  player's Fish at any level (Fish placed earlier in the same turn count, so a shoal can grow
  up a plateau as it is placed).
- Scoring, per creature: a Tube Worm scores its hex's level; a Volcano Snail 1 per neighbouring
  hex at a different level (a space without a tile does not count); a Blind Vent Shrimp 2 if
  next to Diffuse Vents or Microbial Mat, 5 if next to both; an Octopus 2 per species other than
  Octopus among the creatures (anyone's) on its neighbouring hexes; a Vent Sponge 2 per
  different terrain among its neighbouring hexes, Black Smoker included.
- Eelpout: a shoal is a group of one player's Fish connected in plan view, whatever the
  levels; 2 Fish score 5, then 5 more per Fish; a lone Fish scores 0.
- Yeti Crabs: a plateau is a group of topmost hexes at one level above the seafloor, connected
  in plan view. On each plateau holding crabs, the seats with the most crabs score 1 per hex of
  it; if exactly one seat has the most, the seats with the next highest number (at least one
  crab) score half the hexes, rounded down. Seats without crabs there score nothing.
- End: after the last tile is drawn, play goes on until every hand is empty. The bag holds a
  multiple of the players, so every seat has the same number of turns; the game ends when the
  next seat to play has no tile.
- Result: the total of the four species; ties go to the highest single-species score, then the
  highest Tube Worm score (0 when Tube Worms are not in play); seats still tied share the rank.
- Hidden information: a hand's tile is private to its holder; the bag has no order (each draw
  is a chance event). A placed tile is public: its kind and id show on every hex of the field.
"""

from __future__ import annotations

import bisect
import itertools
import random
import sys
from collections.abc import Iterable, Iterator
from typing import Any, Final

from games.rules import base, hexgrid
from games.rules import ventlife_data as data
from games.rules.base import CHANCE, TERMINAL, Action, GameSpec, OptionSpec, register

_IDS: Final = data.SPECIES_IDS
_SPECIES: Final = {sid: i for i, sid in enumerate(_IDS)}
_NAMES: Final = [s.name for s in data.SPECIES]
# Each its own Final name: compiled, a Final module constant is read from a C variable, any
# other from the module's dictionary.
_WORMS: Final = _SPECIES[data.TUBE_WORMS]
_SNAILS: Final = _SPECIES[data.VOLCANO_SNAILS]
_SHRIMP: Final = _SPECIES[data.BLIND_SHRIMP]
_FISH: Final = _SPECIES[data.EELPOUT]
_CRABS: Final = _SPECIES[data.YETI_CRABS]
_OCTOPUS: Final = _SPECIES[data.OCTOPUS]
_SPONGES: Final = _SPECIES[data.SPONGES]
_TERRAIN: Final = {t: i for i, t in enumerate(data.TERRAINS)}
_SMOKER: Final = _TERRAIN[data.SMOKER]
_BASALT: Final = _TERRAIN[data.BASALT]
_DIFFUSE: Final = _TERRAIN[data.DIFFUSE]
_MAT: Final = _TERRAIN[data.MAT]
_KINDS: Final = [k.name for k in data.TILE_KINDS]
_KIND: Final = {name: k for k, name in enumerate(_KINDS)}
_KIND_TERRAINS: Final = [
    (_SMOKER, _TERRAIN[k.terrains[0]], _TERRAIN[k.terrains[1]]) for k in data.TILE_KINDS
]
_SEAFLOOR: Final = data.SEAFLOOR
_MAX_SNAILS: Final = data.MAX_SNAILS_PER_TURN

# Rotation k: first terrain at direction k (clockwise from east), second at direction k+1.
_ROTATIONS: Final = len(hexgrid.DIRECTIONS)
_TRIANGLE: Final = tuple(
    (hexgrid.DIRECTIONS[k], hexgrid.DIRECTIONS[(k + 1) % _ROTATIONS]) for k in range(_ROTATIONS)
)
_TRIANGLE_FLAT: Final = tuple((a[0], a[1], b[0], b[1]) for a, b in _TRIANGLE)
# Per rotation, the offsets from the smoker of the nine spaces around the tile.
_RING: Final = tuple(
    tuple(
        sorted(
            {
                (x + dq, y + dr)
                for x, y in ((0, 0), a, b)
                for dq, dr in hexgrid.DIRECTIONS
                if (x + dq, y + dr) not in ((0, 0), a, b)
            }
        )
    )
    for a, b in _TRIANGLE
)
# Offsets from a hex to the smoker of each placement covering it, with the rotation: as the
# smoker itself, as the first terrain, as the second.
_CONTAINING: Final = (
    [(0, 0, k) for k in range(_ROTATIONS)]
    + [(-a[0], -a[1], k) for k, (a, _) in enumerate(_TRIANGLE)]
    + [(-b[0], -b[1], k) for k, (_, b) in enumerate(_TRIANGLE)]
)
_CONTAINING_RQ: Final = tuple((dr, dq, k) for dq, dr, k in _CONTAINING)  # as placements are kept


def _placements_over(spaces: Iterable[tuple[int, int]]) -> set[tuple[int, int, int]]:
    """The placements (r, q, rotation) with a hex on one of ``spaces``."""
    return {(y + dr, x + dq, k) for x, y in spaces for dr, dq, k in _CONTAINING_RQ}


# A placement (r, q, rotation) is kept as one int, ordered as the triple is: an int hashes and
# compares for less than a tuple, and a playout re-checks about 150 placements a tile. Every
# tile touches the field, so no space is ever more than 3 * 60 hexes from the middle.
_OFFSET: Final = 1 << 9
_SPAN: Final = 2 * _OFFSET


def _spot_key(q: int, r: int, rotation: int) -> int:
    return ((r + _OFFSET) * _SPAN + q + _OFFSET) * 8 + rotation


def _around(spots: Iterable[tuple[int, int, int]]) -> tuple[tuple[int, ...], ...]:
    """Placements given as offsets (r, q, rotation) from a tile's smoker, each as its key's
    offset from the smoker's key and the offsets of its smoker and two other hexes (q, r)."""
    return tuple(
        ((dr * _SPAN + dq) * 8 + k, dq, dr, dq + aq, dr + ar, dq + bq, dr + br)
        for dr, dq, k in sorted(spots)
        for aq, ar, bq, br in (_TRIANGLE_FLAT[k],)
    )


# For a tile laid with its smoker on (0, 0) in rotation k: the placements with a hex on it
# (_OVER[k]) and those with a hex on one of the nine spaces around it but none on it
# (_BESIDE[k]), as _around gives them; and a tile's rotation by its first terrain's offset.
_OVER: Final = tuple(_around(_placements_over(((0, 0), a, b))) for a, b in _TRIANGLE)
_BESIDE: Final = tuple(
    _around(_placements_over(_RING[k]) - _placements_over(((0, 0), a, b)))
    for k, (a, b) in enumerate(_TRIANGLE)
)
_ROTATION_OF: Final = {a: k for k, (a, _) in enumerate(_TRIANGLE)}
# The species by how few conditions their spots have, to tell soonest whether any is left.
_PERMISSIVE: Final = (_SPONGES, _SHRIMP, _OCTOPUS, _CRABS, _FISH, _SNAILS, _WORMS)
_RANDOM_SETS: Final = [list(c) for c in itertools.combinations(range(len(_IDS)), data.IN_PLAY)]

_CHANCE_PHASES: Final = ("species", "deal", "draw")
_SEAT_ACTIONS: Final = ("pick", "leave_out", "place_tile", "move", "place", "stop")
_CHANCE_ACTIONS: Final = ("species", "draw")
_PHASE_ACTIONS: Final = {"tile": ("place_tile",), "move": ("move",), "creatures": ("place", "stop")}

spec = GameSpec(
    slug="ventlife",
    name="Ventlife",
    min_players=2,
    max_players=4,
    version=1,
    options=(
        OptionSpec(
            name="species",
            kind="choice",
            default="first-game",
            choices=("first-game", "random", "draft"),
            subset_of=_IDS,
            subset_size=data.IN_PLAY,
            help=(
                "The four species in play: the first-game set (Tube Worms, Volcano Snails, "
                "Blind Vent Shrimp, Yeti Crabs), four at random, a draft by the players, or a "
                "list of four species ids."
            ),
        ),
    ),
    chance=True,
    hidden_information=True,
    description=(
        "Build a deep-sea vent field from triple-hex tiles, raise plateaus and fill "
        "the field with creatures of four species that each score in their own way."
    ),
)


def rank_keys(table: list[list[int]]) -> list[tuple[int, int, int]]:
    """Per seat, from its points of each species (``table``), what ranks it: the total, then
    "Tiebreaks: highest single-species score, then highest Tube Worm score"."""
    return [(sum(points), max(points), points[_WORMS]) for points in table]


def new_game(num_players: Any = 2, options: Any = None, version: Any = None) -> State:
    """A game at its first chance event or draft pick, under rules ``version`` (the newest when
    None); ValueError for bad players, options or version."""
    return State(num_players, spec.validate(num_players, options), spec.check_version(version))


class State(base.State):
    """Ventlife in progress; plain lists, dicts, tuples and ints only."""

    _caches = frozenset({"_tile_keys", "_tile_key_set", "_spots_due", "_raised"})
    # The place_tile actions of ``_tile_keys``, in its order, kept beside it (not one of the
    # state's fields nor in its JSON form): the listing hands out copies. None when not built
    # since the state was made or loaded.
    # And by species, a space where one could be placed when last looked for: only where to
    # look first, whatever it holds now (not part of the state either).
    _transient = frozenset({"_spot_actions", "_hints"})
    _spot_actions: list[Action] | None
    _hints: list[tuple[int, int] | None]

    def __init__(
        self, num_players: int = 0, options: dict[str, Any] | None = None, rules_version: int = 1
    ):
        if options is None:
            return  # an empty shell, which clone fills (base.State.clone)
        super().__init__(num_players, options, rules_version)
        self._spot_actions = None
        self._hints = [None] * len(_IDS)
        n = num_players
        choice = options["species"]
        self._bag = data.tile_counts(n)  # copies of each kind left in the bag
        self._tiles_total = sum(self._bag)
        self._hand: list[int | None] = [None] * n
        # The field, by plan space: topmost (level, terrain, tile id); tile id -> kind.
        self._top: dict[tuple[int, int], tuple[int, int, int]] = {}
        self._tiles: list[int] = []
        # Legal placements (by _spot_key), sorted, as of the last time they were listed; the
        # spaces of tiles laid since, whose neighbourhoods are yet to be re-checked.
        self._tile_keys: list[int] = []
        self._tile_key_set: set[int] = set()  # the same, to look up
        self._spots_due: list[tuple[int, int]] = []
        # The spaces whose topmost hex is above the seafloor, as they were raised: only there
        # can Yeti Crabs go, so only there are they looked for.
        self._raised: list[tuple[int, int]] = []
        # Creatures by plan space: a non-empty tuple of (species, owner); empty spaces absent.
        self._life: dict[tuple[int, int], tuple[tuple[int, int], ...]] = {}
        self._supply = [[0] * len(_IDS) for _ in range(n)]
        self._species: list[int] = []
        self._drafting = choice == "draft"
        self._draft: list[int] = []  # picked or left out, in draft order
        self._current: int | None = None  # whose turn it is
        self._decider = 0  # who decides now
        self._drawer = 0  # whose hand the next draw goes to
        self._pending: list[tuple[int, int, int, int, int]] = []  # (species, owner, q, r, level)
        self._new_tile: tuple[tuple[int, int], ...] = ()
        self._chosen: int | None = None  # the species being placed this turn
        self._placed: list[tuple[int, int]] = []  # where, this turn
        if choice == "random":
            self._phase = "species"
        elif self._drafting:
            self._phase = "draft"
            self._decider = self._draft_seat()
        else:
            fixed = data.FIRST_GAME if choice == "first-game" else choice
            self._fix_species([_SPECIES[sid] for sid in fixed])

    # -- the interface ------------------------------------------------------------------------

    def is_terminal(self) -> bool:
        return self._phase == "over"

    def _current_player(self) -> int:
        phase = self._phase
        if phase in _CHANCE_PHASES:
            return CHANCE
        if phase == "over":
            return TERMINAL
        return self._decider

    def _legal_actions(self) -> list[Action]:
        return self._options()

    def _match(self, action: Action) -> Action | None:
        """The branch of the listing (or of the chance outcomes) that ``action`` names: the
        same predicates the listing filters its candidates with, applied to this one."""
        kind = action["type"]
        phase = self._phase
        if phase == "draw" or phase == "deal":
            return self._match_draw(action)
        if phase == "creatures":
            return self._match_creature(action)
        if phase == "tile":
            spot = base.int_params(action, "q", "r", "rotation")
            if kind == "place_tile" and spot and 0 <= spot[2] < _ROTATIONS and self._fits(*spot):
                return {"type": "place_tile", "q": spot[0], "r": spot[1], "rotation": spot[2]}
            return None
        if phase == "species":
            return base.find((outcome for outcome, _ in self._chance_outcomes()), action)
        if phase == "draft" or phase == "move":  # a few options: those of this step
            return base.find(self._options(), action)
        return None

    def _match_draw(self, action: Action) -> Action | None:
        """The draw into the next hand that ``action`` names (:meth:`_chance_outcomes`)."""
        k = _index(_KIND, action.get("tile"))
        seat = action.get("seat")
        if action["type"] == "draw" and len(action) == 3 and k is not None and self._bag[k]:
            if type(seat) is int and seat == self._drawer:
                return {"type": "draw", "seat": seat, "tile": _KINDS[k]}
        return None

    def _match_creature(self, action: Action) -> Action | None:
        """Step 3: the creature placed, or the stop, that ``action`` names
        (:meth:`_creature_options`)."""
        kind = action["type"]
        size = len(action)
        if kind == "stop":
            return {"type": "stop"} if size == 1 and self._placed else None
        sp = _index(_SPECIES, action.get("species"))
        q, r = action.get("q"), action.get("r")
        if kind != "place" or size != 4 or sp is None or type(q) is not int:
            return None
        if type(r) is not int:
            return None
        pos = (q, r)
        h = self._top.get(pos)
        if (
            h is not None
            and sp in self._species_now()
            and any(self._spots_among(sp, self._turn_seat, ((pos, h),)))
        ):
            return {"type": "place", "species": _IDS[sp], "q": q, "r": r}
        return None

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._phase == "species":
            p = 1 / len(_RANDOM_SETS)
            return [
                ({"type": "species", "species": [_IDS[sp] for sp in chosen]}, p)
                for chosen in _RANDOM_SETS
            ]
        bag = self._bag
        left = sum(bag)
        seat = self._drawer
        return [
            ({"type": "draw", "seat": seat, "tile": _KINDS[k]}, count / left)
            for k, count in enumerate(bag)
            if count
        ]

    def _apply(self, action: Action) -> None:
        kind = action["type"]
        if kind == "draw":
            self._draw(_KIND[action["tile"]])
        elif kind == "species":
            self._fix_species([_SPECIES[sid] for sid in action["species"]])
        elif kind in ("pick", "leave_out"):
            self._draft_decision(_SPECIES[action["species"]])
        elif kind == "place_tile":
            self._place_tile(action["q"], action["r"], action["rotation"])
        elif kind == "move":
            species, owner, _, _, _ = self._pending.pop(0)
            self._life[(action["q"], action["r"])] = ((species, owner),)
        elif kind == "place":
            self._place(_SPECIES[action["species"]], (action["q"], action["r"]))
        else:  # stop
            self._end_turn()
        self._advance()

    # -- hidden information -------------------------------------------------------------------

    def private_to(self, action: Action) -> frozenset[int] | None:
        if action.get("type") == "draw" and type(action.get("seat")) is int:
            return frozenset({action["seat"]})
        return None

    def public_form(self, action: Action) -> Action:
        if action.get("type") == "draw":
            return {k: v for k, v in action.items() if k != "tile"}
        return action

    def resample_hidden(self, seat: int | None, rng: random.Random) -> State:
        """Redeal the tiles in the hands ``seat`` cannot see from those tiles and the bag."""
        self._check_seat(seat)
        clone = self.clone()
        others = [s for s in range(self.num_players) if s != seat and self._hand[s] is not None]
        if not others:
            return clone
        pool = [k for k, count in enumerate(self._bag) for _ in range(count)]
        pool += [kind for s in others if (kind := self._hand[s]) is not None]
        # In a fixed order before the shuffle: the redraw must depend only on what ``seat``
        # sees (the pool as a whole), not on which tile sits in which hidden hand.
        pool.sort()
        rng.shuffle(pool)
        for s in others:
            clone._hand[s] = pool.pop()
        bag = [0] * len(_KINDS)
        for k in pool:
            bag[k] += 1
        clone._bag = bag
        return clone

    # -- views and results --------------------------------------------------------------------

    def view(self, seat: Any) -> dict[str, Any]:  # checked here: a bad seat is a ValueError
        self._check_seat(seat)
        top = self._top
        life = self._life
        tiles = self._tiles
        field = []
        for q, r in sorted(top, key=hexgrid.reading_key):
            level, terrain, tile = top[(q, r)]
            field.append(
                {
                    "q": q,
                    "r": r,
                    "level": level,
                    "terrain": data.TERRAINS[terrain],
                    "tile": tile,
                    "kind": _KINDS[tiles[tile]],
                    "edge": any(p not in top for p in hexgrid.neighbours((q, r))),
                    "creatures": [
                        {"species": _IDS[sp], "owner": owner} for sp, owner in life.get((q, r), ())
                    ],
                }
            )
        players = []
        for s in range(self.num_players):
            entry: dict[str, Any] = {
                "supply": {_IDS[sp]: self._supply[s][sp] for sp in self._species},
                "holding": self._hand[s] is not None,
            }
            if s == seat:
                entry["hand"] = _tile_view(self._hand[s])
            players.append(entry)
        phase = self._phase
        out: dict[str, Any] = {
            "phase": phase,
            "current_player": self._current_player(),
            "turn": self._current,
            "first_player": 0,
            "species": [_IDS[sp] for sp in self._species],
            "field": field,
            "last_tile": len(tiles) - 1 if tiles else None,
            "players": players,
            "bag_size": sum(self._bag),
            "tiles_total": self._tiles_total,
            "turns_left": self._tiles_total - len(tiles),
        }
        if self._drafting:
            out["draft"] = {
                "mode": self._draft_kind(),
                "chosen": [_IDS[sp] for sp in self._draft],
                "available": [_IDS[sp] for sp in self._draft_pool()] if phase == "draft" else [],
            }
        if phase == "move":
            out["pending"] = [
                {"species": _IDS[sp], "owner": owner, "q": q, "r": r, "level": level}
                for sp, owner, q, r, level in self._pending
            ]
        if phase == "creatures":
            out["placing"] = {
                "species": None if self._chosen is None else _IDS[self._chosen],
                "placed": [{"q": q, "r": r} for q, r in self._placed],
            }
        if phase == "over":
            out["scores"] = [self._score_parts(points) for points in self._score_table()]
        return out

    def _score_parts(self, points: list[int]) -> dict[str, int]:
        parts = {_IDS[sp]: points[sp] for sp in self._species}
        parts["total"] = sum(parts.values())
        return parts

    def _scores(self) -> list[float]:
        return [sum(points) for points in self._score_table()]

    def _rank_keys(self) -> list[Any]:
        return rank_keys(self._score_table())

    def clone(self) -> State:
        other = State()
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.rules_version = self.rules_version
        other._phase = self._phase
        other._bag = self._bag[:]
        other._tiles_total = self._tiles_total
        other._hand = self._hand[:]
        other._top = dict(self._top)
        other._tiles = self._tiles[:]
        other._tile_keys = self._tile_keys[:]
        other._tile_key_set = set(self._tile_key_set)
        other._spots_due = self._spots_due[:]
        other._raised = self._raised[:]
        # The actions are never handed out or changed, only copied: both may hold them.
        other._spot_actions = None if self._spot_actions is None else self._spot_actions[:]
        other._hints = self._hints[:]
        other._life = dict(self._life)
        other._supply = [supply[:] for supply in self._supply]
        other._species = self._species[:]
        other._drafting = self._drafting
        other._draft = self._draft[:]
        other._current = self._current
        other._decider = self._decider
        other._drawer = self._drawer
        other._pending = self._pending[:]
        other._new_tile = self._new_tile
        other._chosen = self._chosen
        other._placed = self._placed[:]
        return other

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be None or 0 to {self.num_players - 1}, not {seat!r}")

    @property
    def _turn_seat(self) -> int:
        """The seat whose turn it is: asked only once the turns have begun."""
        assert self._current is not None, "no turn has begun"
        return self._current

    # -- moving on through forced steps --------------------------------------------------------

    def _options(self) -> list[Action]:
        """The decisions at this decision point."""
        phase = self._phase
        if phase == "draft":
            kind = self._draft_kind()
            return [{"type": kind, "species": _IDS[sp]} for sp in self._draft_pool()]
        if phase == "tile":
            return self._tile_options()
        if phase == "move":
            species, _, q, r, level = self._pending[0]
            return [
                {"type": "move", "q": x, "r": y}
                for x, y in self._destinations(species, (q, r), level)
            ]
        return self._creature_options()

    def _advance(self) -> None:
        """Carry out every step with a single possible outcome, up to a real decision."""
        while True:
            phase = self._phase
            if phase == "move":
                if not self._pending:
                    self._phase = "creatures"
                    self._chosen = None
                    self._placed = []
                    continue
                species, owner, q, r, level = self._pending[0]
                spots = self._destinations(species, (q, r), level)
                if len(spots) > 1:
                    self._decider = owner
                    return
                self._pending.pop(0)
                if spots:  # the one place it can go
                    self._life[spots[0]] = ((species, owner),)
                else:
                    # "If it has nowhere to go, it returns to its owner's supply."
                    self._supply[owner][species] += 1
            elif phase == "creatures":
                seat = self._turn_seat
                if not self._can_place_any(seat):
                    self._end_turn()
                    continue
                self._decider = seat
                return
            else:
                return

    # -- setup ----------------------------------------------------------------------------------

    def _fix_species(self, species: list[int]) -> None:
        self._species = sorted(species)
        for supply in self._supply:
            for sp in self._species:
                supply[sp] = data.CREATURES_PER_SPECIES
        self._phase = "deal"
        self._drawer = 0

    def _draft_kind(self) -> str:
        # "With 3 players each leaves one species out."
        return "leave_out" if self.num_players == 3 else "pick"

    def _draft_pool(self) -> list[int]:
        return [sp for sp in range(len(_IDS)) if sp not in self._draft]

    def _draft_seat(self) -> int:
        """The draft starts with the last player and goes on in reverse turn order."""
        n = self.num_players
        return (n - 1 - len(self._draft)) % n

    def _draft_decision(self, species: int) -> None:
        self._draft.append(species)
        if self._draft_kind() == "pick":
            if len(self._draft) == data.IN_PLAY:
                self._fix_species(self._draft)
                return
        elif len(self._draft) == len(_IDS) - data.IN_PLAY:
            self._fix_species(self._draft_pool())
            return
        self._decider = self._draft_seat()

    def _draw(self, kind: int) -> None:
        self._bag[kind] -= 1
        self._hand[self._drawer] = kind
        if self._phase == "deal":
            if self._drawer < self.num_players - 1:
                self._drawer += 1
                return
            self._start_turn(0)
        else:
            self._next_turn()

    # -- a turn -------------------------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        self._current = self._decider = seat
        self._phase = "tile"
        self._new_tile = ()

    def _end_turn(self) -> None:
        """Step 4: draw a tile for the next turn, if the bag has one."""
        self._chosen = None
        self._placed = []
        if any(self._bag):
            self._phase = "draw"
            self._drawer = self._turn_seat
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        seat = (self._turn_seat + 1) % self.num_players
        if self._hand[seat] is None:
            # Every hand is empty: all seats have had the same number of turns.
            self._phase = "over"
            self._current = None
            return
        self._start_turn(seat)

    # -- step 1: the tile ------------------------------------------------------------------------

    def _tile_options(self) -> list[Action]:
        if not self._top:
            # "The first tile of the game goes in the middle."
            return [
                {"type": "place_tile", "q": 0, "r": 0, "rotation": k}
                for k in range(_ROTATIONS)
                if self._fits(0, 0, k)
            ]
        self._update_tile_spots()
        actions = self._spot_actions
        if actions is None or len(actions) != len(self._tile_keys):
            actions = self._spot_actions = [_tile_action(key) for key in self._tile_keys]
        return list(map(dict.copy, actions))  # fresh objects, copied (cheaper than made)

    def _update_tile_spots(self) -> None:
        """Bring the placements up to date with the tiles laid since they were last listed.

        Only placements on or next to a new tile can have changed, and of those next to it only
        the ones not listed: a placement that fitted and covers none of the new tile's spaces
        still fits (its spaces are as they were and the field only grew around them). Each is
        re-checked by the branch of :meth:`_fits` (the test a placement action is validated
        with) that can apply to it: going up for one on a new tile, the seafloor for the rest.
        """
        due = self._spots_due
        if not due:
            return
        actions = self._spot_actions
        if actions is not None and len(actions) != len(self._tile_keys):
            self._spot_actions = None
        # The tiles laid since, each as _lay gave its spaces: usually one, as placements are
        # listed every turn.
        laid = _laid(due)
        on = self._recheck_on(laid)
        self._recheck_beside(laid, on)
        self._spots_due = []

    def _recheck_on(self, laid: list[tuple[int, int, int]]) -> set[int]:
        """Re-check the placements on the tiles ``laid``: one on a new tile has a space taken,
        so it fits only going up (:meth:`_fits`), which needs a smoker under its smoker, looked
        at first. With more than one tile laid, a placement on one of them and beside another
        is re-checked as one on a new tile, which it is: those it returns."""
        get = self._top.get
        listed = self._tile_key_set
        on: set[int] = set()
        for q, r, k in laid:
            at = _spot_key(q, r, 0)
            for d, sq, sr, aq, ar, bq, br in _OVER[k]:
                key = at + d
                if len(laid) > 1:
                    on.add(key)
                s = get((q + sq, r + sr))
                if (
                    s is not None
                    and s[1] == _SMOKER
                    and _goes_up(s, get((q + aq, r + ar)), get((q + bq, r + br)))
                ):
                    if key not in listed:
                        self._list_spot(key)
                elif key in listed:
                    self._unlist_spot(key)
        return on

    def _recheck_beside(self, laid: list[tuple[int, int, int]], on: set[int]) -> None:
        """Re-check the placements beside the tiles ``laid`` and on none (``on``): such a
        placement has a hex next to it, so it touches the field, and it fits exactly when its
        three spaces are empty (:meth:`_fits` on the seafloor). One with a space taken was not
        listed before and still does not fit: its spaces are as they were, and going up
        depends on nothing else."""
        top = self._top
        listed = self._tile_key_set
        for q, r, k in laid:
            at = _spot_key(q, r, 0)
            for d, sq, sr, aq, ar, bq, br in _BESIDE[k]:
                key = at + d
                if key in listed or key in on:
                    continue
                if (
                    (q + sq, r + sr) not in top
                    and (q + aq, r + ar) not in top
                    and (q + bq, r + br) not in top
                ):
                    self._list_spot(key)

    def _list_spot(self, key: int) -> None:
        """List the placement ``key`` (not listed yet) in its place in the listing's order."""
        keys = self._tile_keys  # kept sorted: the listing's order
        self._tile_key_set.add(key)
        i = bisect.bisect_left(keys, key)
        keys.insert(i, key)
        actions = self._spot_actions
        if actions is not None:
            actions.insert(i, _tile_action(key))

    def _unlist_spot(self, key: int) -> None:
        """Take the placement ``key`` (listed) off the listing."""
        keys = self._tile_keys
        self._tile_key_set.remove(key)
        i = bisect.bisect_left(keys, key)
        del keys[i]
        actions = self._spot_actions
        if actions is not None:
            del actions[i]

    def _fits(self, q: int, r: int, rotation: int) -> bool:
        """Whether the tile in hand may go with its Black Smoker on (q, r) in ``rotation``."""
        top = self._top
        if not top:
            return q == 0 and r == 0
        aq, ar, bq, br = _TRIANGLE_FLAT[rotation]
        get = top.get
        s = get((q, r))
        a = get((q + aq, r + ar))
        b = get((q + bq, r + br))
        if s is None and a is None and b is None:
            # On the seafloor: touching the field along a full edge.
            for dq, dr in _RING[rotation]:
                if (q + dq, r + dr) in top:
                    return True
            return False
        return _goes_up(s, a, b)

    def _lay(self, kind: int, q: int, r: int, rotation: int) -> list[tuple[Any, ...]]:
        """Put a tile on the field; returns (hex index, position, creatures) of those covered."""
        hexes = _tile_hexes(q, r, rotation)
        top = self._top
        below = top.get((q, r))
        level = below[0] + 1 if below else _SEAFLOOR
        tile = len(self._tiles)
        self._tiles.append(kind)
        covered = []
        for i, (pos, terrain) in enumerate(zip(hexes, _KIND_TERRAINS[kind])):
            top[pos] = (level, terrain, tile)
            here = self._life.get(pos)
            if here is not None:
                covered.append((i, pos, here))
        # Only placements on or next to the new tile change: re-checked when next listed.
        self._spots_due.extend(hexes)
        if level == _SEAFLOOR + 1:  # a tile goes up on three hexes of one level: these three
            self._raised.extend(hexes)
        return covered

    def _place_tile(self, q: int, r: int, rotation: int) -> None:
        seat = self._turn_seat
        n = self.num_players
        kind = self._hand[seat]
        assert kind is not None, "a tile is placed from a hand holding one"
        self._hand[seat] = None
        self._new_tile = _tile_hexes(q, r, rotation)
        pending = []
        for i, pos, here in self._lay(kind, q, r, rotation):
            if i == 0 and here[0][0] == _WORMS:
                continue  # "all worms there climb onto it": they stay, one level up
            del self._life[pos]
            for species, owner in here:
                if species == _WORMS or species == _SPONGES:
                    self._supply[owner][species] += 1
                else:
                    # "Your own creatures move first, then the other players' in turn order."
                    pending.append(((owner - seat) % n, i, species, owner, pos))
        pending.sort()
        level = self._top[(q, r)][0]
        self._pending = [
            (species, owner, pos[0], pos[1], level - 1) for _, _, species, owner, pos in pending
        ]
        self._phase = "move"

    # -- step 2: covered creatures --------------------------------------------------------------

    def _destinations(
        self, species: int, pos: tuple[int, int], level: int
    ) -> list[tuple[int, int]]:
        """Where a covered creature may go, in reading order; ``level`` is the one it was on."""
        if species == _OCTOPUS:
            spots = self._octopus_destinations(pos)
        else:
            spots = self._neighbour_destinations(species, pos, level)
        spots.sort(key=hexgrid.reading_key)
        return spots

    def _octopus_destinations(self, pos: tuple[int, int]) -> list[tuple[int, int]]:
        """A covered Octopus: in each direction, the last hex before the edge of the field,
        if it is empty and not on the new tile."""
        top = self._top
        life = self._life
        tile = self._new_tile
        spots = []
        q, r = pos
        for dq, dr in hexgrid.DIRECTIONS:
            x, y = q, r
            while (x + dq, y + dr) in top:
                x += dq
                y += dr
            end = (x, y)
            if end not in tile and end not in life:
                spots.append(end)
        return spots

    def _neighbour_destinations(
        self, species: int, pos: tuple[int, int], level: int
    ) -> list[tuple[int, int]]:
        """A covered creature other than an Octopus: the empty neighbouring hexes, not on the
        new tile, that its species may move to from ``level``."""
        top = self._top
        life = self._life
        tile = self._new_tile
        spots = []
        for p in hexgrid.neighbours(pos):
            h = top.get(p)
            if h is None or p in life or p in tile:
                continue
            if _moves_to(species, h, level):
                spots.append(p)
        return spots

    # -- step 3: creatures -----------------------------------------------------------------------

    def _creature_options(self) -> list[Action]:
        seat = self._turn_seat
        out = []
        for sp in self._species_now():
            sid = _IDS[sp]
            out += [
                {"type": "place", "species": sid, "q": q, "r": r} for q, r in self._spots(sp, seat)
            ]
        if out and self._placed:
            out.append({"type": "stop"})
        return out

    def _species_now(self) -> list[int]:
        """The species the seat may place now: the turn's species once chosen, with supply."""
        supply = self._supply[self._turn_seat]
        chosen = self._chosen
        return [sp for sp in ([chosen] if chosen is not None else self._species) if supply[sp]]

    def _can_place_any(self, seat: int) -> bool:
        """Whether ``seat`` can place anything at all now. The space found for each species
        last time (:attr:`_hints`) is re-checked first, like any other; then the field, for
        the most permissive species first."""
        now = [sp for sp in _PERMISSIVE if sp in self._species_now()]
        hints = self._hints
        top = self._top
        for sp in now:
            hint = hints[sp]
            h = None if hint is None else top.get(hint)
            if h is not None and hint is not None:
                for _ in self._spots_among(sp, seat, ((hint, h),)):
                    return True
        for sp in now:
            for p in self._spots_among(sp, seat, self._candidates(sp, newest_first=True)):
                hints[sp] = p
                return True
        return False

    def _spots(self, species: int, seat: int) -> list[tuple[int, int]]:
        """The spaces where ``seat`` may place one more of ``species`` now, in reading order."""
        candidates = self._candidates(species)
        return sorted(self._spots_among(species, seat, candidates), key=hexgrid.reading_key)

    def _candidates(
        self, species: int, newest_first: bool = False
    ) -> Iterable[tuple[tuple[int, int], Any]]:
        """Where to look for spots, as (space, topmost hex): the field, or for later snails
        the spaces next to those placed this turn, or for Yeti Crabs the raised spaces.
        ``newest_first`` looks at the spaces first tiled last, where creatures are fewest, to
        find one spot soonest."""
        placed = self._placed
        top = self._top
        if species == _SNAILS and placed:
            near = {p for pos in placed for p in hexgrid.neighbours(pos)}
            return [(p, top[p]) for p in near if p in top]
        if species == _CRABS:
            raised = reversed(self._raised) if newest_first else self._raised
            return [(p, top[p]) for p in raised]
        return reversed(top.items()) if newest_first else top.items()

    def _spots_among(
        self, species: int, seat: int, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """The spaces of ``candidates`` (space, topmost hex) where ``seat`` may place one more
        of ``species`` now: the listing filters the field with it, a place action is checked
        with it, and the creature step ends by itself when it finds none. One at a time, so
        that a caller asking whether there is any stops at the first (each species' own
        generator function, not a generator expression, which mypyc would build whole as a
        list)."""
        if species == _SNAILS:
            return self._snail_spots(candidates)
        if species == _WORMS:
            return self._worm_spots(seat, candidates)
        if species == _SHRIMP:
            return self._shrimp_spots(candidates)
        if species == _FISH:
            return self._fish_spots(seat, candidates)
        if species == _CRABS:
            return self._crab_spots(candidates)
        if species == _OCTOPUS:
            return self._octopus_spots(candidates)
        return self._sponge_spots(candidates)

    def _snail_spots(
        self, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Volcano Snails: 1 to 3 a turn on empty Basalt Ridge hexes, each after the first next
        to one placed this turn."""
        life = self._life
        placed = self._placed
        neighbours = hexgrid.neighbours
        if len(placed) >= _MAX_SNAILS:
            return
        for p, h in candidates:
            if (
                h[1] == _BASALT
                and p not in life
                and (not placed or any(x in placed for x in neighbours(p)))
            ):
                yield p

    def _worm_spots(
        self, seat: int, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Giant Tube Worms: only on empty Black Smokers; "on a seafloor smoker you may place 2
        on the same hex": onto one ``seat`` placed there this turn."""
        life = self._life
        placed = self._placed
        lone = ((_WORMS, seat),)
        for p, h in candidates:
            if h[1] == _SMOKER and (
                p not in life or (h[0] == _SEAFLOOR and life.get(p) == lone and p in placed)
            ):
                yield p

    def _shrimp_spots(
        self, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Blind Vent Shrimp: any empty hex that is not Basalt Ridge."""
        life = self._life
        for p, h in candidates:
            if h[1] != _BASALT and p not in life:
                yield p

    def _fish_spots(
        self, seat: int, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Eelpout Fish: an empty hex that is not a smoker, on the seafloor or next to one of
        ``seat``'s Fish at any level."""
        life = self._life
        neighbours = hexgrid.neighbours
        mine = (_FISH, seat)
        for p, h in candidates:
            if (
                h[1] != _SMOKER
                and p not in life
                and (h[0] == _SEAFLOOR or any(mine in life.get(x, ()) for x in neighbours(p)))
            ):
                yield p

    def _crab_spots(
        self, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Yeti Crabs: any empty hex above the seafloor."""
        life = self._life
        for p, h in candidates:
            if h[0] > _SEAFLOOR and p not in life:
                yield p

    def _octopus_spots(
        self, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Deep-Sea Octopus: any empty edge hex (next to a space with no tile)."""
        life = self._life
        top = self._top
        neighbours = hexgrid.neighbours
        for p, _ in candidates:
            if p not in life and any(x not in top for x in neighbours(p)):
                yield p

    def _sponge_spots(
        self, candidates: Iterable[tuple[tuple[int, int], Any]]
    ) -> Iterator[tuple[int, int]]:
        """Vent Sponges: any empty hex, any level."""
        life = self._life
        for p, _ in candidates:
            if p not in life:
                yield p

    def _place(self, species: int, pos: tuple[int, int]) -> None:
        seat = self._turn_seat
        self._chosen = species
        self._placed.append(pos)
        self._supply[seat][species] -= 1
        self._life[pos] = self._life.get(pos, ()) + ((species, seat),)

    # -- scoring ------------------------------------------------------------------------------

    def _score_table(self) -> list[list[int]]:
        """Per seat, the points of each of the seven species (0 for those not in play)."""
        n = self.num_players
        top = self._top
        points = [[0] * len(_IDS) for _ in range(n)]
        fish: list[set[tuple[int, int]]] = [set() for _ in range(n)]
        crabs: dict[tuple[int, int], int] = {}
        for pos, here in self._life.items():
            level = top[pos][0]
            around = hexgrid.neighbours(pos)
            for species, owner in here:
                if species == _FISH:
                    fish[owner].add(pos)  # scored by shoal, below
                elif species == _CRABS:
                    crabs[pos] = owner  # scored by plateau, below
                else:
                    points[owner][species] += self._creature_points(species, level, around)
        for owner, shoals in enumerate(fish):
            for size in _group_sizes(shoals):
                points[owner][_FISH] += data.SHOAL_POINTS[size]
        if crabs:
            self._score_plateaus(crabs, points)
        return points

    def _creature_points(self, species: int, level: int, around: tuple[hexgrid.Hex, ...]) -> int:
        """What one creature of ``species`` on a hex at ``level`` next to the spaces ``around``
        scores on its own (not an Eelpout Fish nor a Yeti Crab, which score by group)."""
        top = self._top
        if species == _WORMS:
            return level
        if species == _SNAILS:
            return sum(1 for p in around if p in top and top[p][0] != level)
        if species == _SHRIMP:
            terrains = {top[p][1] for p in around if p in top}
            diffuse, mat = _DIFFUSE in terrains, _MAT in terrains
            return data.SHRIMP_BOTH if diffuse and mat else data.SHRIMP_ONE if diffuse or mat else 0
        if species == _OCTOPUS:
            life = self._life
            kinds = {sp for p in around for sp, _ in life.get(p, ()) if sp != _OCTOPUS}
            return data.OCTOPUS_PER_SPECIES * len(kinds)
        # Vent Sponges
        terrains = {top[p][1] for p in around if p in top}
        return data.SPONGE_PER_TERRAIN * len(terrains)

    def _score_plateaus(self, crabs: dict[tuple[int, int], int], points: list[list[int]]) -> None:
        """Yeti Crabs: each plateau holding crabs (``crabs``: space -> owner) scores for the
        seats with the most crabs on it and the next most."""
        top = self._top
        seen: set[tuple[int, int]] = set()
        for start in crabs:
            level = top[start][0]
            if start in seen or level <= _SEAFLOOR:
                continue
            plateau = self._plateau(start, level)
            seen |= plateau
            _score_plateau(plateau, crabs, points, self.num_players)

    def _plateau(self, start: tuple[int, int], level: int) -> set[tuple[int, int]]:
        """The plateau of ``start``: the topmost hexes at its ``level`` connected to it in plan
        view."""
        top = self._top
        plateau = {start}
        frontier = [start]
        while frontier:
            pos = frontier.pop()
            for p in hexgrid.neighbours(pos):
                if p not in plateau and p in top and top[p][0] == level:
                    plateau.add(p)
                    frontier.append(p)
        return plateau

    # -- illegal actions --------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str | None:
        kind = action["type"]
        if kind not in _SEAT_ACTIONS and kind not in _CHANCE_ACTIONS:
            return None
        phase = self._phase
        if phase == "over":
            return "the game is over"
        if phase in _CHANCE_PHASES:
            return self._why_chance_illegal(action)
        if kind in _CHANCE_ACTIONS:
            return f"{kind} is a chance event, not a seat's decision"
        allowed = (self._draft_kind(),) if phase == "draft" else _PHASE_ACTIONS[phase]
        if kind not in allowed:
            return f"{kind} is not what is decided now: {self._what_now()}"
        return self._why_decision_illegal(action)

    def _why_chance_illegal(self, action: Action) -> str:
        """Why ``action`` is not the chance event due: the species, or the next draw."""
        kind = action["type"]
        expected = "species" if self._phase == "species" else "draw"
        if kind in _SEAT_ACTIONS:
            return f"no seat decides now: the chance player's {expected} is next"
        if kind != expected:
            return f"the next chance event is a {expected}, not a {kind}"
        if kind == "species":
            return f"the species are four different ids, in the order {', '.join(_IDS)}"
        if action.get("seat") != self._drawer:
            return f"the next tile goes to seat {self._drawer}"
        tile = action.get("tile")
        kind_drawn = _index(_KIND, tile)
        if kind_drawn is None or not self._bag[kind_drawn]:
            return f"no tile {tile!r} is left in the bag"
        return 'a draw is {"type": "draw", "seat": s, "tile": kind} and nothing more'

    def _why_decision_illegal(self, action: Action) -> str:
        """Why ``action``, of a kind decided now, is not one of the options."""
        kind = action["type"]
        if kind in ("pick", "leave_out"):
            return self._why_draft_illegal(action)
        if kind == "place_tile":
            return self._why_tile_illegal(action)
        if kind == "move":
            species, owner, q, r, _ = self._pending[0]
            choices = ", ".join(f"({a['q']}, {a['r']})" for a in self._legal_actions())
            return (
                f"the {_NAMES[species]} of seat {owner} covered at ({q}, {r}) can go to "
                f"{choices}: name one by q and r"
            )
        if kind == "stop":
            if not self._placed:
                return "you must place if you can: place at least one creature before stopping"
            return "stop takes no parameters"
        return self._why_place_illegal(action)

    def _why_draft_illegal(self, action: Action) -> str:
        kind = action["type"]
        sid = action.get("species")
        species = _index(_SPECIES, sid)
        if species is None:
            return f"{sid!r} is not a species; the ids are {', '.join(_IDS)}"
        if species in self._draft:
            return f"{sid} has already been {'picked' if kind == 'pick' else 'left out'}"
        return f'{kind} takes only "species"'

    def _what_now(self) -> str:
        seat = self._decider
        phase = self._phase
        if phase == "draft":
            verb = "picks a species" if self._draft_kind() == "pick" else "leaves a species out"
            return f"seat {seat} {verb} ({self._draft_kind()})"
        if phase == "tile":
            return f"seat {seat} places its tile (place_tile)"
        if phase == "move":
            species, _, q, r, _ = self._pending[0]
            return f"seat {seat} moves its {_NAMES[species]} covered at ({q}, {r}) (move)"
        return f"seat {seat} places creatures (place, stop)"

    def _why_tile_illegal(self, action: Action) -> str:
        q, r, k = action.get("q"), action.get("r"), action.get("rotation")
        if type(q) is not int or type(r) is not int:
            return "place_tile names the space of the tile's Black Smoker by whole numbers q and r"
        if type(k) is not int or not 0 <= k < _ROTATIONS:
            return "rotation is a whole number from 0 to 5"
        if not self._top:
            if (q, r) != (0, 0):
                return "the first tile goes in the middle: its Black Smoker on (0, 0)"
            return "place_tile takes only q, r and rotation"
        return self._why_tile_misfits(q, r, _tile_hexes(q, r, k))

    def _why_tile_misfits(self, q: int, r: int, hexes: tuple[tuple[int, int], ...]) -> str:
        """Why a tile on ``hexes`` (its Black Smoker on (q, r)) fits neither on the seafloor
        nor up on a plateau."""
        top = self._top
        under = [h for h in (top.get(p) for p in hexes) if h is not None]
        shown = ", ".join(f"({x}, {y})" for x, y in hexes)
        if not under:
            if not any(x in top for p in hexes for x in hexgrid.neighbours(p)):
                return (
                    f"a tile on the seafloor must touch the field along a full edge; one on "
                    f"{shown} touches nothing"
                )
        elif len(under) < len(hexes):
            return (
                f"a tile lies flat on the seafloor or wholly on top of tiles; {shown} is "
                "partly on the field (no overhangs)"
            )
        elif under[0][1] != _SMOKER:
            return (
                f"up on a plateau the Black Smoker must sit on a Black Smoker; ({q}, {r}) is "
                f"{data.TERRAINS[under[0][1]]}"
            )
        elif len({h[0] for h in under}) > 1:
            return (
                f"the three hexes under a tile must be at one level (no gaps); under {shown} "
                f"they are at levels {', '.join(str(h[0]) for h in under)}"
            )
        elif len({h[2] for h in under}) < 2:
            return "a tile up on a plateau must cover at least two different tiles"
        return "place_tile takes only q, r and rotation"

    def _why_place_illegal(self, action: Action) -> str:
        sid = action.get("species")
        species = _index(_SPECIES, sid)
        if species is None:
            return f"{sid!r} is not a species; the ids are {', '.join(_IDS)}"
        why = self._why_species_unplaceable(species)
        if why is not None:
            return why
        q, r = action.get("q"), action.get("r")
        if type(q) is not int or type(r) is not int:
            return "place names a hex by whole numbers q and r"
        h = self._top.get((q, r))
        if h is None:
            return f"({q}, {r}) has no tile"
        return self._why_hex_refuses(species, q, r, h)

    def _why_species_unplaceable(self, species: int) -> str | None:
        """Why the seat cannot place ``species`` at all now, if it cannot."""
        name = _NAMES[species]
        if species not in self._species:
            return f"{name} are not in play this game"
        if self._chosen is not None and species != self._chosen:
            return (
                f"you are placing {_NAMES[self._chosen]} this turn: one species per turn, then stop"
            )
        if not self._supply[self._turn_seat][species]:
            return f"you have no {name} left in your supply"
        return None

    def _why_hex_refuses(self, species: int, q: int, r: int, h: tuple[int, int, int]) -> str:
        """Why one of ``species`` may not go on the hex at (q, r), ``h`` the topmost there."""
        level, terrain, _ = h
        if species == _SNAILS and len(self._placed) >= _MAX_SNAILS:
            return f"at most {_MAX_SNAILS} Volcano Snails a turn"
        here = self._life.get((q, r))
        if here is not None:
            seat = self._turn_seat
            if species == _WORMS and all(c == (_WORMS, seat) for c in here):
                return (
                    "a second Tube Worm may join only the one you placed on a seafloor "
                    "smoker this turn"
                )
            return f"({q}, {r}) is not empty"
        return _why_terrain_refuses(species, level, terrain)


def _why_terrain_refuses(species: int, level: int, terrain: int) -> str:
    """Why one of ``species`` may not go on an empty hex of ``terrain`` at ``level``."""
    if species == _WORMS and terrain != _SMOKER:
        return "Tube Worms go only on Black Smokers"
    if species == _SNAILS:
        if terrain != _BASALT:
            return "Volcano Snails go only on Basalt Ridge"
        return "the snails of one turn must be connected: next to one placed this turn"
    if species == _SHRIMP and terrain == _BASALT:
        return "Blind Vent Shrimp never go on Basalt Ridge"
    if species == _FISH:
        if terrain == _SMOKER:
            return "Eelpout Fish never go on a smoker"
        return "Eelpout Fish go on the seafloor or next to one of your Fish"
    if species == _CRABS and level == _SEAFLOOR:
        return "Yeti Crabs go only above the seafloor"
    if species == _OCTOPUS:
        return "an Octopus goes only on an edge hex (next to a space with no tile)"
    return "place takes only species, q and r"


def _moves_to(species: int, h: tuple[int, int, int], level: int) -> bool:
    """Whether a covered creature of ``species`` (not an Octopus) that was at ``level`` may move
    to a neighbouring empty hex whose topmost is ``h``."""
    if species == _SNAILS:
        return h[0] < level
    if species == _SHRIMP:
        return h[1] != _BASALT
    if species == _FISH:
        return h[0] <= level and h[1] != _SMOKER
    return h[0] == level  # Yeti Crabs


def _laid(due: list[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """The tiles whose spaces ``due`` lists (three each, as :meth:`State._lay` gave them), each
    as (q, r, rotation)."""
    laid = []
    for i in range(0, len(due), 3):
        (q, r), (aq, ar) = due[i], due[i + 1]
        laid.append((q, r, _ROTATION_OF[(aq - q, ar - r)]))
    return laid


def _score_plateau(
    plateau: set[tuple[int, int]],
    crabs: dict[tuple[int, int], int],
    points: list[list[int]],
    n: int,
) -> None:
    """One plateau's Yeti Crabs: the seats with the most crabs on it score 1 per hex of it; if
    exactly one seat has the most, those with the next most score half that, rounded down."""
    counts = [0] * n
    for pos in plateau:
        if pos in crabs:
            counts[crabs[pos]] += 1
    size = len(plateau)
    most = max(counts)
    first = [s for s in range(n) if counts[s] == most]
    for s in first:
        points[s][_CRABS] += size
    # "If players tie for first, they all score in full and no second place is awarded."
    if len(first) == 1:
        runners = [c for c in counts if 0 < c < most]
        if runners:
            second = max(runners)
            for s in range(n):
                if counts[s] == second:
                    points[s][_CRABS] += size // 2


def _goes_up(s: Any, a: Any, b: Any) -> bool:
    """Whether a tile may go up on the topmost hexes ``s``, ``a`` and ``b`` (None: no tile) its
    smoker and its two other hexes would cover: smoker on smoker, no gaps or overhangs, at
    least two different tiles."""
    return (
        s is not None
        and a is not None
        and b is not None
        and s[1] == _SMOKER
        and a[0] == s[0] == b[0]
        and not (a[2] == s[2] == b[2])
    )


def _index(table: dict[str, int], name: Any) -> int | None:
    """``table[name]`` for a name that is a string in the table, else None."""
    return table.get(name) if isinstance(name, str) else None


def _tile_hexes(q: int, r: int, rotation: int) -> tuple[tuple[int, int], ...]:
    """The tile's spaces: its Black Smoker, then its first and second terrain (clockwise)."""
    (aq, ar), (bq, br) = _TRIANGLE[rotation]
    return ((q, r), (q + aq, r + ar), (q + bq, r + br))


def _group_sizes(spaces: set[tuple[int, int]]) -> list[int]:
    """The sizes of the groups of ``spaces`` connected in plan view."""
    left = set(spaces)
    sizes = []
    while left:
        frontier = [left.pop()]
        size = 1
        while frontier:
            for p in hexgrid.neighbours(frontier.pop()):
                if p in left:
                    left.remove(p)
                    frontier.append(p)
                    size += 1
        sizes.append(size)
    return sizes


def _tile_view(kind: int | None) -> dict[str, Any] | None:
    if kind is None:
        return None
    return {"kind": _KINDS[kind], "terrains": [data.TERRAINS[t] for t in _KIND_TERRAINS[kind]]}


def _tile_action(key: int) -> Action:
    """The place_tile action of a placement as ``_tile_keys`` holds it (:func:`_spot_key`)."""
    rotation = key & 7
    place = key >> 3
    return {
        "type": "place_tile",
        "q": place % _SPAN - _OFFSET,
        "r": place // _SPAN - _OFFSET,
        "rotation": rotation,
    }


register(sys.modules[__name__])
