"""Deep Vents: 2 to 4 players grow hydrothermal ecosystems of hexes over eight rounds.

Kind of game: 2 to 4 players taking turns clockwise; chance (each hex drawn from the shuffled
stack, one at a time, and the opener of the starting-bid variant); no hidden information (the
stack's order does not exist until a hex is drawn, and every drawn hex lies face up). The hexes
themselves are one table in :mod:`games.rules.deep_vents_data`.

Actions
-------
Chance: ``{"type": "draw", "hex": name}`` (probability = copies left / hexes left in the stack)
and, with ``starting_bid``, ``{"type": "opener", "seat": s}`` (uniform).

Decisions, by the seat the decision belongs to:

- bidding: ``{"type": "bid", "amount": n}``, ``{"type": "pass"}``;
- step 1: ``{"type": "take", "slot": k}``, k = 0..5 left to right, 5 the top of the stack;
- step 2: ``{"type": "place", "q": q, "r": r}``;
- step 3, for the active hex: ``{"type": "grow"}`` (Gulper Eel: ``{"type": "grow", "q", "r"}``
  naming the adjacent hex to swallow), ``{"type": "trigger"}`` (Colossal Squid: ``{"type":
  "trigger", "q", "r"}`` naming the hex whose archaea it spends), and after a trigger
  ``{"type": "done"}`` to move on instead of triggering again;
- a defender against an attack: ``{"type": "shell"}`` or ``{"type": "no_shell"}``;
- an opponent told to decimate (Undersea Volcano, Bull Cachalot): ``{"type": "decimate", "q",
  "r"}``;
- ``{"type": "pay_shortfall"}`` at any decision point of a seat holding a shortfall token and
  10 archaea; ``{"type": "end_turn"}`` only where a seat holding two or more tokens could pay.

A step with one possible action happens without a decision point: a hex that cannot trigger
grows by itself, an Undersea Volcano at 5 or more erupts, a hex that cannot trigger again is
done, a defender without shells takes the damage.

Coordinates
-----------
Axial, pointy-top (:mod:`games.rules.hexgrid`): every ecosystem has its Deep Vent at (0, 0);
the neighbours of (q, r) are (q+1, r), (q-1, r), (q, r-1), (q+1, r-1), (q-1, r+1) and
(q, r+1). Row r grows downward and a hex's horizontal position is q + r/2, so "top-left to
bottom-right" is rows by r ascending, then left to right, which within a row is by q.

Rulings
-------
- Setup: the 38 hexes other than the Deep Vents are the stack (spare Deep Vents go back to the
  box). Five are drawn to the row, then the sixth choice, the face-up top of the stack. Without
  the variant seat 0 plays first; turn order is clockwise (seat + 1).
- Market: taking slot k costs k archaea from the supply, one on each hex to its left; a slot
  you cannot pay for is not offered. Archaea over 10 on a market hex are lost (still paid). The
  taken hex keeps the archaea on it. The row slides left and refills with one draw at the end
  of the turn (step 4); nothing is drawn after the game's last turn, and an empty stack leaves
  the row short.
- A seat holding a shortfall token when it takes a hex must take slot 0; it may pay the token
  off first and then choose freely.
- A hex is placed on an empty space touching any of its owner's hexes, decimated ones too.
- Activation runs over every hex of the ecosystem, the one just placed included, in the order
  above; decimated hexes are skipped. Repeated triggers of a hex all come before the next hex.
- A trigger is offered only when it can be paid and has an effect of its own: archaea moved to
  the supply, archaea added to a hex not at 10, a shell, an archaeon gained, a shell discarded
  or damage of at least 1 dealt to an opponent, a squid decimated. Paying the cost and moving a
  track are not effects, and neither are passives it sets off (Vampire Squid). Growing is always
  allowed, even at 10 (the excess is lost), except for an Undersea Volcano at 5 or more, which
  must trigger; below 5 it cannot trigger.
- The 10-archaea cap holds for every gain: grow, +1 effects, swallowed or drained archaea (the
  source loses them all the same), Isopod Swarm, Vampire Squid, skip payments.
- Every "takes damage" and "loses archaea" is an attack: one per opponent per trigger, in
  clockwise order from the active player. A defender with a shell decides whether to spend
  one; it blocks half, rounded up (5 damage: 3 blocked, 2 lost). No decision is asked for 0
  damage or without shells.
- Damage beyond the supply takes a shortfall token and 10 archaea, as many times as needed.
- Goblin Shark: each opponent discards a shell if it has one, then the 1 damage is an attack it
  may still spend a remaining shell on.
- Bull Cachalot: a squid is a face-up Colossal Squid or Giant Squid; an opponent with several
  chooses which to decimate; one without squids takes 2 x its predation as an attack.
- Decimating moves half of the hex's archaea, rounded up, to its owner's supply. A decimated
  hex shows one heat and nothing else; it cannot be activated or decimated again, but adjacent
  effects still add archaea to it, it counts as a hex for adjacency, Giant Oarfish and
  Lanternfish, and a Colossal Squid or Gulper Eel may take its archaea.
- Isopod Swarm gains 5 each time one of its owner's opponents decimates a hex for any reason,
  an Undersea Volcano decimating itself included.
- Vampire Squid gains 1 after each trigger of an adjacent hex of its owner has resolved its own
  effects (the opponents' responses come after); a volcano's eruption counts.
- Colossal Squid: the hex whose archaea it spends is itself or any adjacent hex of its owner
  holding 4 or more; the player names it.
- Gulper Eel must name an adjacent hex holding archaea if there is one. Giant Squid drains one
  archaeon from each adjacent face-up bioluminescent hex that has one. Lanternfish pays one per
  adjacent hex, decimated ones included.
- Glowing Medusa counts opponents' hexes holding at least as many archaea as the game has
  seats, eliminated seats included in the count of players.
- Undersea Volcano's heat is the archaea on it while face up (so 0 when empty).
- Shortfall tokens are paid off (10 archaea each) at the owner's decision points; the take step
  is one whenever the owner could pay, and so is the end of the owner's turn while it holds two
  or more and could pay. At the end of its own turn a seat holding two or more is eliminated.
- Elimination: the ecosystem collapses. The seat's supply, shells and the archaea on its hexes
  return to the general supply; it keeps its tokens; its hexes stay and do nothing; it takes no
  more turns and is no longer an opponent (not attacked, not told to decimate, not counted by
  Glowing Medusa). The game ends when one seat is left.
- The game ends after the eighth round: when the last seat still in the game in turn order has
  played its eighth turn.
- Score: supply + shells / 2 rounded up + all archaea on the seat's hexes / 2 rounded up - 10
  per shortfall token. A seat still in the game always ranks above an eliminated one, whatever
  the scores (a collapsed ecosystem has lost; in a 2-player game the survivor wins). Seats
  still in rank by score, ties to the one earliest in turn order from the first player;
  eliminated seats rank among themselves by the order they were eliminated, the later the
  better. So no two seats share a rank. (Rules version 2. Under version 1 every seat ranked by
  score, a tie going to the seat still in the game, then to the one earliest in turn order:
  an eliminated seat with the higher score ranked above a survivor.)
- Starting bid: after the row is laid out a random opener bids 0 to its archaea (it may not
  pass); clockwise, each other seat raises by at least 1 up to its archaea or passes, a pass
  being final, and a seat that cannot raise passes without a decision. The last bidder pays
  the bid and plays first; the others follow clockwise and gain 1, 2 and 3.
"""

from __future__ import annotations

import sys
from typing import Any, Final, TypedDict

from games.rules import base, hexgrid
from games.rules import deep_vents_data as data
from games.rules.base import (
    CHANCE,
    TERMINAL,
    Action,
    GameSpec,
    OptionSpec,
    RulesVersion,
    register,
)

_NAMES: Final = [h.name for h in data.HEXES]
_KIND: Final = {name: k for k, name in enumerate(_NAMES)}
_TRAIT_INDEX: Final = {trait: i for i, trait in enumerate(data.TRAITS)}
_HEAT: Final = _TRAIT_INDEX[data.HEAT]
_PRED: Final = _TRAIT_INDEX[data.PREDATION]
_FRONT: Final = [tuple(h.traits.count(t) for t in data.TRAITS) for h in data.HEXES]
_BACK: Final = tuple(data.BACK_TRAITS.count(t) for t in data.TRAITS)
_HOT: Final = [data.HEAT_PER_ARCHAEON in h.traits for h in data.HEXES]
_GROW: Final = [h.grow for h in data.HEXES]
_GROW_TRAITS: Final = [
    tuple(_TRAIT_INDEX[t] for t in h.grow[1]) if h.grow[0] == "adjacent_traits" else ()
    for h in data.HEXES
]
_TRIGGER: Final = [h.trigger for h in data.HEXES]
_TRACK: Final = [h.track for h in data.HEXES]
_PASSIVE: Final = [h.passive for h in data.HEXES]
_SQUID: Final = [h.name in data.SQUIDS for h in data.HEXES]
_ERUPTS: Final = [bool(h.trigger) and h.trigger[0][0] == "erupt" for h in data.HEXES]
_STARTER: Final = _KIND[data.STARTING_HEX]
_STACK: Final = [0 if k == _STARTER else h.copies for k, h in enumerate(data.HEXES)]
_CAP: Final = data.HEX_CAP
# The rules' numbers read on every turn, as Final names (compiled: C variables, not a module's
# attributes).
_LOAN: Final = data.SHORTFALL_LOAN
_ELIMINATING: Final = data.ELIMINATING_SHORTFALLS
_ROUNDS: Final = data.ROUNDS
# A grower of kind k (adjacent_traits): what an adjacent face-up hex of kind n adds, its
# heat per archaeon aside (_GROW_FRONT[k][n]), and what a decimated one adds (_GROW_BACK[k]).
_GROW_FRONT: Final = [
    [sum(_FRONT[n][t] for t in wanted if not (t == _HEAT and _HOT[n])) for n in range(len(_FRONT))]
    for wanted in _GROW_TRAITS
]
_GROW_BACK: Final = [sum(_BACK[t] for t in wanted) for wanted in _GROW_TRAITS]
# Per trait, how many symbols of it each kind's front shows.
_FRONT_BY_TRAIT: Final = [[front[t] for front in _FRONT] for t in range(len(data.TRAITS))]
_CHOICES: Final = data.ROW_LENGTH + 1


class PlacedHex(TypedDict):
    """A hex in an ecosystem. ``kind`` indexes the hex table; ``track`` is the position on the
    hex's track, where it has one."""

    kind: int
    q: int
    r: int
    archaea: int
    decimated: bool
    track: int


class RowHex(TypedDict):
    """A hex in the row, or held between taking and placing it."""

    kind: int
    archaea: int


_CHANCE_PHASES: Final = ("deal", "opener", "refill")
_PHASE_ACTIONS: Final = {
    "bid": ("bid", "pass"),
    "take": ("take",),
    "place": ("place",),
    "activate": ("grow", "trigger", "done"),
    "respond": ("shell", "no_shell", "decimate"),
    "end_turn": ("end_turn",),
}
_SEAT_ACTIONS: Final = {"pay_shortfall", *(k for kinds in _PHASE_ACTIONS.values() for k in kinds)}
_PAY: Final = {"type": "pay_shortfall"}
_ALWAYS_AN_EFFECT: Final = frozenset({"shell", "gain", "erupt"})
# The trigger steps the active seat's opponents suffer; the others pay or benefit the seat.
_AGAINST_OPPONENTS: Final = frozenset({"strip_shell", "attack", "squid_hunt", "erupt"})

spec = GameSpec(
    slug="deep-vents",
    name="Deep Vents",
    min_players=2,
    max_players=4,
    version=2,
    versions=(
        RulesVersion(
            1, "Every seat ranks by its score; an eliminated seat may rank above one still in."
        ),
        RulesVersion(2, "A seat still in the game ranks above every eliminated one."),
    ),
    options=(
        OptionSpec(
            "starting_bid",
            "bool",
            False,
            help="Bid archaea for the first turn (tournaments play with it).",
        ),
    ),
    chance=True,
    hidden_information=False,
    description=(
        "Build a hydrothermal ecosystem hex by hex: grow archaea, trigger your hexes, "
        "attack your rivals and survive eight rounds."
    ),
)

# _CLOCKWISE[n][seat]: the other seats of an n-seat game, clockwise from ``seat``.
_CLOCKWISE: Final = {
    n: [tuple((seat + i) % n for i in range(1, n)) for seat in range(n)]
    for n in range(spec.min_players, spec.max_players + 1)
}


def new_game(num_players: Any = 2, options: Any = None, version: Any = None) -> State:
    """A game about to deal the row (all chance draws), under rules ``version`` (the newest
    when None); ValueError for bad players, options or version."""
    return State(num_players, spec.validate(num_players, options), spec.check_version(version))


class State(base.State):
    """Deep Vents in progress; plain lists, dicts and ints only."""

    # The active hex's options where the forced steps last stopped at them, kept until the
    # next action (not one of the fields of the state nor in its JSON form): the check of the
    # action that follows and the listing read them rather than work them out again. None
    # when not known.
    _transient = frozenset({"_decision"})
    _decision: list[Action] | None

    def __init__(
        self, num_players: int = 0, options: dict[str, Any] | None = None, rules_version: int = 1
    ):
        if options is None:
            return  # an empty shell, which clone fills (base.State.clone)
        super().__init__(num_players, options, rules_version)
        self._decision = None
        n = num_players
        start = data.STARTING_ARCHAEA[n]
        self._bidding = bool(options.get("starting_bid"))
        self._phase = "deal"
        self._round = 1
        self._current: int | None = None  # whose turn it is
        self._decider = 0  # who decides now
        self._order = [] if self._bidding else list(range(n))
        self._supply = [start if self._bidding else start + s for s in range(n)]
        self._shells = [0] * n
        self._tokens = [0] * n
        self._out = [False] * n
        self._eliminated: list[int] = []  # seats in the order their ecosystems collapsed
        self._ecosystems: list[list[PlacedHex]] = [[_placed(_STARTER, 0, 0, 0)] for _ in range(n)]
        self._where: list[dict[tuple[int, int], int]] = [{(0, 0): 0} for _ in range(n)]
        # Per seat, per hex (its index in the ecosystem): the indices of the hexes touching it.
        self._adj: list[list[list[int]]] = [[[]] for _ in range(n)]
        self._market: list[RowHex] = []  # left to right
        self._stack = list(_STACK)  # copies of each kind left in the stack
        self._held: RowHex | None = None  # between take and place
        self._act: list[int] = []  # the active seat's hexes in activation order
        self._cursor = 0
        self._fired = 0  # triggers of the active hex so far
        self._queue: list[list[Any]] = []  # [kind, seat, value, hex name] to resolve
        self._next = 0  # whose turn follows the refill
        self._bid_opener: int | None = None
        self._bid_high: int | None = None
        self._bid_leader: int | None = None
        self._bid_passed = [False] * n

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
        phase = self._phase
        seat = self._decider
        if phase == "bid":
            return self._bid_options()
        if phase == "take":
            options = self._take_options()
        elif phase == "place":
            options = self._place_options()
        elif phase == "activate":
            known = self._decision
            if known:
                options = [dict(o) for o in known]
            else:
                h, adjacent = self._active()
                options = self._activation_options(h, adjacent)
        elif phase == "respond":
            options = self._respond_options()
        else:
            options = [{"type": "end_turn"}]
        if self._can_pay(seat):
            options.append(dict(_PAY))
        return options

    def _match(self, action: Action) -> Action | None:
        """The branch of the listing (or of the chance outcomes) that ``action`` names: the
        same ranges and predicates, or, for the few options of one hex's activation or one
        response, those options."""
        kind: str = action["type"]
        phase = self._phase
        if phase in _CHANCE_PHASES:
            return self._match_chance(action)
        if phase == "bid":
            return self._match_bid(action)
        if kind == "pay_shortfall":
            return dict(_PAY) if len(action) == 1 and self._can_pay(self._decider) else None
        if phase == "take":
            return self._match_take(action)
        if phase == "place":
            return self._match_place(action)
        if phase == "activate":
            return self._match_activation(action)
        if phase == "respond":
            return base.find(self._respond_options(), action)
        if phase == "end_turn" and kind == "end_turn" and len(action) == 1:
            return {"type": "end_turn"}
        return None

    def _match_chance(self, action: Action) -> Action | None:
        """The chance outcome that ``action`` names: the opener of the bid, or a draw."""
        kind: str = action["type"]
        if self._phase == "opener":
            seat = base.int_params(action, "seat")
            if kind == "opener" and seat and 0 <= seat[0] < self.num_players:
                return {"type": "opener", "seat": seat[0]}
            return None
        name = action.get("hex")
        k = _KIND.get(name) if type(name) is str else None
        if kind == "draw" and len(action) == 2 and k is not None and self._stack[k]:
            return {"type": "draw", "hex": _NAMES[k]}
        return None

    def _match_bid(self, action: Action) -> Action | None:
        """The bid or pass that ``action`` names (:meth:`_bid_options`)."""
        kind: str = action["type"]
        if kind == "pass":
            return {"type": "pass"} if len(action) == 1 and self._bid_high is not None else None
        amount = base.int_params(action, "amount")
        if kind == "bid" and amount and amount[0] in self._bid_range():
            return {"type": "bid", "amount": amount[0]}
        return None

    def _match_take(self, action: Action) -> Action | None:
        """Step 1: the slot of the row that ``action`` takes (:meth:`_take_options`)."""
        slot = action.get("slot")
        if (
            action["type"] == "take"
            and len(action) == 2
            and type(slot) is int
            and 0 <= slot <= self._take_limit()
        ):
            return {"type": "take", "slot": slot}
        return None

    def _match_place(self, action: Action) -> Action | None:
        """Step 2: the space that ``action`` places the hex on (:meth:`_place_options`)."""
        q, r = action.get("q"), action.get("r")
        if (
            action["type"] == "place"
            and len(action) == 3
            and type(q) is int
            and type(r) is int
            and self._can_place((q, r))
        ):
            return {"type": "place", "q": q, "r": r}
        return None

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        if self._phase == "opener":
            n = self.num_players
            return [({"type": "opener", "seat": s}, 1 / n) for s in range(n)]
        stack = self._stack
        left = sum(stack)
        return [
            ({"type": "draw", "hex": _NAMES[k]}, count / left)
            for k, count in enumerate(stack)
            if count
        ]

    def _apply(self, action: Action) -> None:
        self._decision = None
        kind: str = action["type"]
        if kind == "draw":
            self._draw(_KIND[action["hex"]])
        elif kind == "opener":
            self._bid_opener = self._decider = action["seat"]
            self._phase = "bid"
        elif kind == "bid":
            self._bid_high = action["amount"]
            self._bid_leader = self._decider
            self._pass_bid_on()
        elif kind == "pass":
            self._bid_passed[self._decider] = True
            self._pass_bid_on()
        elif kind == "take":
            self._take(action["slot"])
        elif kind == "place":
            self._place(action["q"], action["r"])
        elif kind in ("grow", "trigger", "done"):
            h, adjacent = self._active()  # not *self._active(): a generic call, compiled
            self._activate(action, h, adjacent)
        elif kind in ("shell", "no_shell", "decimate"):
            self._respond(action)
        elif kind == "pay_shortfall":
            seat = self._decider
            self._supply[seat] -= _LOAN
            self._tokens[seat] -= 1
        else:  # end_turn
            self._finish_turn()
        self._advance()

    # -- views and results --------------------------------------------------------------------

    def view(self, seat: Any) -> dict[str, Any]:  # checked here: a bad seat is a ValueError
        n = self.num_players
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n
        ):
            raise ValueError(f"seat must be None or 0 to {n - 1}, not {seat!r}")
        phase = self._phase
        out: dict[str, Any] = {
            "round": self._round,
            "rounds": data.ROUNDS,
            "phase": phase,
            "current_player": self._current_player(),
            "turn": self._current,
            "first_player": self._order[0] if self._order else None,
            "turn_order": list(self._order),
            "players": [self._player_view(s) for s in range(n)],
            "market": [
                {"slot": i, "name": _NAMES[h["kind"]], "archaea": h["archaea"], "cost": i}
                for i, h in enumerate(self._market)
            ],
            "stack": sum(self._stack),
        }
        if self._held is not None:
            out["held"] = {"name": _NAMES[self._held["kind"]], "archaea": self._held["archaea"]}
        if phase in ("activate", "respond") and self._cursor < len(self._act):
            h = self._ecosystems[self._turn_seat][self._act[self._cursor]]
            out["active_hex"] = {
                "name": _NAMES[h["kind"]],
                "q": h["q"],
                "r": h["r"],
                "triggers": self._fired,
            }
        if self._queue:
            out["pending"] = [_pending_view(entry) for entry in self._queue]
        if self._bidding and phase != "deal":  # kept after the bid: what the winner paid
            out["bid"] = {
                "opener": self._bid_opener,
                "high": self._bid_high,
                "leader": self._bid_leader,
                "passed": [s for s in range(n) if self._bid_passed[s]],
            }
        if phase == "over":
            out["scores"] = [self._score_parts(s) for s in range(n)]
        return out

    def _player_view(self, seat: int) -> dict[str, Any]:
        hexes = []
        for h in self._ecosystems[seat]:
            entry = {
                "name": _NAMES[h["kind"]],
                "q": h["q"],
                "r": h["r"],
                "archaea": h["archaea"],
                "decimated": h["decimated"],
            }
            if _TRACK[h["kind"]]:
                entry["track"] = _TRACK[h["kind"]][h["track"]]
            hexes.append(entry)
        return {
            "supply": self._supply[seat],
            "shells": self._shells[seat],
            "shortfall": self._tokens[seat],
            "eliminated": self._out[seat],
            "hexes": hexes,
        }

    def _score_parts(self, seat: int) -> dict[str, int]:
        on_hexes = sum(h["archaea"] for h in self._ecosystems[seat])
        parts = {
            "supply": self._supply[seat],
            "shells": (self._shells[seat] + 1) // 2,
            "hex_archaea": (on_hexes + 1) // 2,
            "shortfall": data.SHORTFALL_POINTS * self._tokens[seat],
        }
        parts["total"] = sum(parts.values())
        return parts

    def _scores(self) -> list[float]:
        return [self._score_parts(s)["total"] for s in range(self.num_players)]

    def _rank_keys(self) -> list[Any]:
        order = self._order
        if self.rules_version == 1:
            # By score; a tie to the seat still in, then to the earliest in turn order.
            return [
                (self._score_parts(s)["total"], not self._out[s], -order.index(s))
                for s in range(self.num_players)
            ]
        # Every seat still in the game above every eliminated one, by score, ties to the
        # earliest in turn order; the eliminated by when they fell, the later the better.
        return [
            (0, self._eliminated.index(s), 0)
            if self._out[s]
            else (1, self._score_parts(s)["total"], -order.index(s))
            for s in range(self.num_players)
        ]

    def clone(self) -> State:
        other = State()
        other._decision = None
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.rules_version = self.rules_version
        other._bidding = self._bidding
        other._phase = self._phase
        other._round = self._round
        other._current = self._current
        other._decider = self._decider
        other._order = self._order[:]
        other._supply = self._supply[:]
        other._shells = self._shells[:]
        other._tokens = self._tokens[:]
        other._out = self._out[:]
        other._eliminated = self._eliminated[:]
        other._ecosystems = [[h.copy() for h in board] for board in self._ecosystems]
        other._where = [dict(where) for where in self._where]
        other._adj = [[near[:] for near in adj] for adj in self._adj]
        other._market = [h.copy() for h in self._market]
        other._stack = self._stack[:]
        other._held = self._held.copy() if self._held is not None else None
        other._act = self._act[:]
        other._cursor = self._cursor
        other._fired = self._fired
        other._queue = [entry[:] for entry in self._queue]
        other._next = self._next
        other._bid_opener = self._bid_opener
        other._bid_high = self._bid_high
        other._bid_leader = self._bid_leader
        other._bid_passed = self._bid_passed[:]
        return other

    @property
    def _turn_seat(self) -> int:
        """The seat whose turn it is: asked only once the turns have begun."""
        assert self._current is not None, "no turn has begun"
        return self._current

    # -- moving on through forced steps --------------------------------------------------------

    def _advance(self) -> None:
        """Carry out every step that has a single possible action, up to a real decision."""
        while self._forced_step():
            pass

    def _forced_step(self) -> bool:
        """Carry out the step at hand if it has a single possible action: True if it did,
        False at a real decision (or the end)."""
        phase = self._phase
        if phase == "activate":
            return not self._run_activation()
        if phase == "end_turn":
            seat = self._turn_seat
            if self._tokens[seat] >= _ELIMINATING and self._supply[seat] >= _LOAN:
                self._decider = seat  # it may pay off a token before its ecosystem collapses
                return False
            self._finish_turn()
            return True
        if phase == "take":
            if self._take_limit() > 0 or self._can_pay(self._turn_seat):
                return False
            self._take(0)
            return True
        if phase == "place":
            only = self._only_space()
            if only is None:
                return False
            self._place(only[0], only[1])
            return True
        if phase == "bid":
            seat = self._decider
            if self._bid_high is not None and self._bid_high >= self._supply[seat]:
                self._bid_passed[seat] = True  # it cannot raise: it passes
                self._pass_bid_on()
                return True
        return False

    def _run_activation(self) -> bool:
        """Step 3's forced steps, hex by hex: True at a decision (the active hex's options or a
        pending effect's), False once every hex is done (the phase is then end_turn)."""
        seat = self._turn_seat
        board = self._ecosystems[seat]
        near = self._adj[seat]
        act = self._act
        queue = self._queue
        while True:
            if queue:
                if self._settle_queue():
                    return True
                continue
            cursor = self._cursor
            if cursor >= len(act):
                self._phase = "end_turn"
                return False
            i = act[cursor]
            h = board[i]
            if h["decimated"]:
                self._cursor = cursor + 1
                self._fired = 0
                continue
            adjacent = [board[j] for j in near[i]]
            options = self._activation_options(h, adjacent)
            if len(options) > 1:
                self._decider = seat
                self._decision = options
                return True
            self._activate(options[0], h, adjacent)

    def _can_pay(self, seat: int) -> bool:
        return self._tokens[seat] > 0 and self._supply[seat] >= _LOAN

    # -- setup and bidding ------------------------------------------------------------------

    def _draw(self, kind: int) -> None:
        self._stack[kind] -= 1
        self._market.append({"kind": kind, "archaea": 0})
        if self._phase == "refill":
            self._start_turn(self._next)
        elif len(self._market) == _CHOICES:
            if self._bidding:
                self._phase = "opener"
            else:
                self._start_turn(0)

    def _bid_options(self) -> list[Action]:
        bids: list[Action] = [{"type": "bid", "amount": n} for n in self._bid_range()]
        if self._bid_high is None:  # the opener must open; 0 is a bid
            return bids
        return bids + [{"type": "pass"}]

    def _bid_range(self) -> range:
        """The amounts the seat may bid: from 0 (the opener) or one over the high bid, up to its
        archaea."""
        low = 0 if self._bid_high is None else self._bid_high + 1
        return range(low, self._supply[self._decider] + 1)

    def _pass_bid_on(self) -> None:
        """Hand the bid to the next seat clockwise still bidding, or settle it."""
        n = self.num_players
        seat = self._decider
        for _ in range(n - 1):
            seat = (seat + 1) % n
            if not self._bid_passed[seat] and seat != self._bid_leader:
                self._decider = seat
                return
        winner, high = self._bid_leader, self._bid_high
        assert winner is not None and high is not None, "the opener always bids"
        self._order = [(winner + i) % n for i in range(n)]
        self._supply[winner] -= high
        for position, s in enumerate(self._order):
            self._supply[s] += position  # "Player 2 gains 1 extra. Player 3 gains 2 extra..."
        self._start_turn(winner)

    # -- a turn -------------------------------------------------------------------------------

    def _start_turn(self, seat: int) -> None:
        self._current = self._decider = seat
        self._phase = "take"

    def _take_options(self) -> list[Action]:
        return [{"type": "take", "slot": k} for k in range(self._take_limit() + 1)]

    def _take_limit(self) -> int:
        """The last slot the seat may take (it may take any up to it): slot 0 with a shortfall
        token, else the last it can pay for."""
        seat = self._turn_seat
        if self._tokens[seat]:
            return 0
        return min(len(self._market) - 1, self._supply[seat])

    def _take(self, slot: int) -> None:
        self._supply[self._turn_seat] -= slot
        for skipped in self._market[:slot]:
            skipped["archaea"] = min(_CAP, skipped["archaea"] + 1)
        self._held = self._market.pop(slot)
        self._phase = "place"

    def _place_options(self) -> list[Action]:
        # In reading order (hexgrid.reading_key): by r, then q.
        return [
            {"type": "place", "q": q, "r": r}
            for r, q in sorted([(r, q) for q, r in self._free_spaces()])
        ]

    def _free_spaces(self) -> set[hexgrid.Hex]:
        """The spaces the held hex may go on (:meth:`_can_place`): the empty neighbours of the
        seat's hexes."""
        where = self._where[self._turn_seat]
        return {p for pos in where for p in hexgrid.neighbours(pos) if p not in where}

    def _only_space(self) -> hexgrid.Hex | None:
        """The one space the held hex may go on, if there is only one (:meth:`_free_spaces`,
        stopping at a second)."""
        where = self._where[self._turn_seat]
        found: hexgrid.Hex | None = None
        for pos in where:
            for p in hexgrid.neighbours(pos):
                if p not in where and p != found:
                    if found is not None:
                        return None
                    found = p
        return found

    def _can_place(self, space: hexgrid.Hex) -> bool:
        """An empty space touching any of the seat's hexes, decimated ones too: one of the
        empty neighbours :meth:`_free_spaces` walks, seen from the space."""
        where = self._where[self._turn_seat]
        return space not in where and hexgrid.touches(space, where)

    def _place(self, q: int, r: int) -> None:
        held = self._held
        assert held is not None, "a hex is placed only after one is taken"
        seat = self._turn_seat
        board = self._ecosystems[seat]
        where = self._where[seat]
        adj = self._adj[seat]
        new = len(board)
        near = []
        for pos in hexgrid.neighbours((q, r)):
            i = where.get(pos)
            if i is not None:
                near.append(i)
                adj[i].append(new)
        adj.append(near)
        where[(q, r)] = new
        board.append(_placed(held["kind"], q, r, held["archaea"]))
        self._held = None
        self._begin_activation()

    def _begin_activation(self) -> None:
        self._decision = None
        # The hexes' numbers in reading order (by r, then q); sorted as tuples, not by a key
        # function, which compiled code calls as a Python function.
        board = self._ecosystems[self._turn_seat]
        self._act = [i for _, _, i in sorted([(h["r"], h["q"], i) for i, h in enumerate(board)])]
        self._cursor = 0
        self._fired = 0
        self._phase = "activate"

    def _finish_turn(self) -> None:
        seat = self._turn_seat
        if self._tokens[seat] >= _ELIMINATING:
            self._eliminate(seat)
        if self._out.count(False) <= 1:
            self._phase = "over"
            return
        order = self._order
        position = order.index(seat)
        following = position
        while True:
            following = (following + 1) % len(order)
            if not self._out[order[following]]:
                break
        if following <= position:  # round over
            if self._round == _ROUNDS:
                self._phase = "over"
                return
            self._round += 1
        self._next = order[following]
        self._act = []
        self._cursor = 0
        self._fired = 0
        if len(self._market) < _CHOICES and any(self._stack):
            self._phase = "refill"
        else:
            self._start_turn(self._next)

    def _eliminate(self, seat: int) -> None:
        """'Your ecosystem collapses': everything but the tokens goes back to the supply."""
        self._out[seat] = True
        self._eliminated.append(seat)
        self._supply[seat] = 0
        self._shells[seat] = 0
        for h in self._ecosystems[seat]:
            h["archaea"] = 0

    # -- step 3: grow or trigger -----------------------------------------------------------------

    def _active(self) -> tuple[PlacedHex, list[PlacedHex]]:
        """The active hex and the hexes touching it."""
        seat = self._current
        assert seat is not None, "no turn has begun"
        i = self._act[self._cursor]
        board = self._ecosystems[seat]
        return board[i], [board[j] for j in self._adj[seat][i]]

    def _activation_options(self, h: PlacedHex, adjacent: list[PlacedHex]) -> list[Action]:
        """The active hex's options in order: done (after a trigger), grow, trigger."""
        triggers = self._trigger_options(h, adjacent)
        if self._fired:
            return [{"type": "done"}, *triggers]
        if self._may_grow(h, triggers):
            return self._grow_options(h, adjacent) + triggers
        return triggers

    def _may_grow(self, h: PlacedHex, triggers: list[Action]) -> bool:
        """Not after a trigger, and not a volcano that can erupt: "you must choose to trigger
        instead of grow" (``triggers``: the hex's trigger options, asked for only for a
        volcano)."""
        return not self._fired and not (_ERUPTS[h["kind"]] and triggers)

    def _match_activation(self, action: Action) -> Action | None:
        """The branch of :meth:`_activation_options` that ``action`` names (or the option equal
        to it, where the options are known)."""
        if self._decision is not None:
            return base.find(self._decision, action)
        kind = action["type"]
        if kind == "done":
            return {"type": "done"} if len(action) == 1 and self._fired else None
        if kind != "grow" and kind != "trigger":
            return None
        h, adjacent = self._active()
        if kind == "trigger":
            return base.find(self._trigger_options(h, adjacent), action)
        erupts = _ERUPTS[h["kind"]]
        if self._may_grow(h, self._trigger_options(h, adjacent) if erupts else []):
            return base.find(self._grow_options(h, adjacent), action)
        return None

    def _activate(self, action: Action, h: PlacedHex, adjacent: list[PlacedHex]) -> None:
        """Carry out ``action`` for the active hex ``h`` (touching ``adjacent``)."""
        kind: str = action["type"]
        if kind == "trigger":
            seat = self._current
            assert seat is not None, "no turn has begun"
            self._trigger(seat, h, adjacent, action)
            self._fired += 1
            return
        if kind == "grow":
            self._grow(h, adjacent, action)
        self._cursor += 1
        self._fired = 0

    def _grow_options(self, h: PlacedHex, adjacent: list[PlacedHex]) -> list[Action]:
        if _GROW[h["kind"]][0] == "swallow_adjacent":
            sources = [n for n in adjacent if n["archaea"]]
            if sources:
                return [
                    {"type": "grow", "q": n["q"], "r": n["r"]}
                    for n in sorted(sources, key=_reading_key)
                ]
        return [{"type": "grow"}]

    def _grow(self, h: PlacedHex, adjacent: list[PlacedHex], action: Action) -> None:
        """Grow ``h``: add the archaea its grow symbol says, the excess over 10 lost."""
        gain = self._growth(h, adjacent, action)
        h["archaea"] = min(_CAP, h["archaea"] + gain)

    def _growth(self, h: PlacedHex, adjacent: list[PlacedHex], action: Action) -> int:
        """What growing ``h`` (touching ``adjacent``) adds to it, taken from wherever its grow
        symbol says (drained or swallowed hexes lose theirs here)."""
        grow = _GROW[h["kind"]]
        how: str = grow[0]
        if how == "add":
            return grow[1]
        if how == "adjacent_traits":
            return _adjacent_traits(h["kind"], adjacent)
        if how == "adjacent_holding":
            return sum(1 for n in adjacent if n["archaea"] >= grow[1])
        if how == "drain_adjacent":
            return _drain(adjacent, _TRAIT_INDEX[grow[1]])
        if how == "opponent_hexes_holding_players":
            return self._opponent_hexes_holding_players()
        if how == "swallow_adjacent":
            return self._swallow(action)
        if how == "track":
            return _TRACK[h["kind"]][h["track"]]
        return 0  # "none"

    def _opponent_hexes_holding_players(self) -> int:
        """Glowing Medusa: the opponents' hexes with archaea equal to or greater than the
        number of players."""
        seat = self._current
        assert seat is not None, "no turn has begun"
        return sum(
            1
            for o in self._opponents(seat)
            for n in self._ecosystems[o]
            if n["archaea"] >= self.num_players
        )

    def _swallow(self, action: Action) -> int:
        """Gulper Eel: all the archaea of the adjacent hex that ``action`` names, moved off it
        (none where no adjacent hex holds any, and ``action`` names none)."""
        if "q" not in action:
            return 0
        seat = self._current
        assert seat is not None, "no turn has begun"
        source = self._hex_at(seat, action)
        gain, source["archaea"] = source["archaea"], 0
        return gain

    def _trigger_options(self, h: PlacedHex, adjacent: list[PlacedHex]) -> list[Action]:
        steps = _TRIGGER[h["kind"]]
        if not steps:
            return []
        first = steps[0]
        how: str = first[0]
        if how == "erupt":
            return [{"type": "trigger"}] if h["archaea"] >= first[1] else []
        if how == "spend_all_from":
            sources = [n for n in (h, *adjacent) if n["archaea"] >= first[1]]
            if not sources or not self._has_effect(h, adjacent, steps, 0):
                return []
            return [
                {"type": "trigger", "q": n["q"], "r": n["r"]}
                for n in sorted(sources, key=_reading_key)
            ]
        cost = first[1] if how == "spend" else _cost(first, adjacent)
        if h["archaea"] < cost or not self._has_effect(h, adjacent, steps, h["archaea"] - cost):
            return []
        return [{"type": "trigger"}]

    def _has_effect(self, h: PlacedHex, adjacent: list[PlacedHex], steps: tuple, left: int) -> bool:
        """Whether a trigger of the active seat's hex ``h`` leaving ``left`` archaea on it would
        change anything itself."""
        seat = self._current
        assert seat is not None, "no turn has begun"
        for step in steps:
            if self._step_has_effect(seat, adjacent, step, left):
                return True
        return False

    def _step_has_effect(
        self, seat: int, adjacent: list[PlacedHex], step: tuple, left: int
    ) -> bool:
        """Whether one step of a trigger of ``seat``'s hex (touching ``adjacent``, leaving
        ``left`` archaea on it) would change anything itself: archaea moved to the supply,
        archaea added to a hex not at 10, a shell, an archaeon gained, a shell discarded or
        damage of at least 1 dealt to an opponent, a squid decimated."""
        how: str = step[0]
        if how in _ALWAYS_AN_EFFECT:
            return True
        if how == "collect":
            return left > 0
        if how == "spread":
            return any(n["archaea"] < _CAP for n in adjacent)
        if how == "attack":
            return any(self._damage_of(step, o) for o in self._opponents(seat))
        if how == "strip_shell":
            return any(self._shells[o] for o in self._opponents(seat))
        if how == "squid_hunt":
            return any(
                self._has_squid(o) or _total(self._ecosystems[o], _PRED)
                for o in self._opponents(seat)
            )
        return False  # paying the cost and moving a track are not effects

    def _trigger(self, seat: int, h: PlacedHex, adjacent: list[PlacedHex], action: Action) -> None:
        """Trigger ``h``: its steps in the order the hex guide reads them, first paying its
        cost, then each effect; then the passives of the adjacent hexes it sets off."""
        name = _NAMES[h["kind"]]
        opponents = self._opponents(seat)
        for step in _TRIGGER[h["kind"]]:
            if step[0] in _AGAINST_OPPONENTS:
                self._trigger_against_opponents(seat, h, step, opponents, name)
            else:
                self._trigger_for_self(seat, h, adjacent, step, action)
        self._adjacent_triggered(adjacent)

    def _trigger_for_self(
        self, seat: int, h: PlacedHex, adjacent: list[PlacedHex], step: tuple, action: Action
    ) -> None:
        """A trigger's step that pays its cost or benefits the active seat."""
        how: str = step[0]
        if how in ("spend", "spend_per_adjacent"):
            h["archaea"] -= _cost(step, adjacent)
        elif how == "spend_all_from":
            self._hex_at(seat, action)["archaea"] = 0
        elif how == "collect":
            self._supply[seat] += h["archaea"]
            h["archaea"] = 0
        elif how == "spread":
            _spread(adjacent)
        elif how == "shell":
            self._shells[seat] += _TRACK[h["kind"]][h["track"]] if step[1] == "track" else step[1]
        elif how == "gain":
            self._supply[seat] += step[1]
        else:  # advance
            h["track"] = min(h["track"] + 1, len(_TRACK[h["kind"]]) - 1)

    def _trigger_against_opponents(
        self,
        seat: int,
        h: PlacedHex,
        step: tuple,
        opponents: list[int] | tuple[int, ...],
        name: str,
    ) -> None:
        """A trigger's step that the active seat's opponents suffer, in clockwise order."""
        how: str = step[0]
        if how == "strip_shell":
            self._strip_shells(opponents)
        elif how == "attack":
            self._attack(step, opponents, name)
        elif how == "squid_hunt":
            self._squid_hunt(step, opponents, name)
        else:  # erupt
            self._erupt(seat, h, opponents, name)

    def _strip_shells(self, opponents: list[int] | tuple[int, ...]) -> None:
        """Goblin Shark: each opponent discards a shell if it has one."""
        for o in opponents:
            if self._shells[o]:
                self._shells[o] -= 1

    def _attack(self, step: tuple, opponents: list[int] | tuple[int, ...], name: str) -> None:
        """Each opponent takes the step's damage, if any, as an attack to resolve."""
        for o in opponents:
            damage = self._damage_of(step, o)
            if damage:
                self._queue.append(["attack", o, damage, name])

    def _squid_hunt(self, step: tuple, opponents: list[int] | tuple[int, ...], name: str) -> None:
        """Bull Cachalot: each opponent decimates a squid, or without one takes the step's
        multiple of its predation as an attack."""
        for o in opponents:
            if self._has_squid(o):
                self._queue.append(["decimate", o, "squid", name])
            else:
                damage = step[1] * _total(self._ecosystems[o], _PRED)
                if damage:
                    self._queue.append(["attack", o, damage, name])

    def _erupt(
        self, seat: int, h: PlacedHex, opponents: list[int] | tuple[int, ...], name: str
    ) -> None:
        """Undersea Volcano's eruption: "Decimate this hex. All opponents decimate one hex of
        their choice"."""
        self._decimate(seat, h)
        for o in opponents:
            self._queue.append(["decimate", o, "any", name])

    def _adjacent_triggered(self, adjacent: list[PlacedHex]) -> None:
        """Vampire Squid: each face-up adjacent hex with the passive gains its amount once the
        trigger has resolved its own effects."""
        for n in adjacent:
            passive = _PASSIVE[n["kind"]]
            if passive and passive[0] == "adjacent_triggered" and not n["decimated"]:
                n["archaea"] = min(_CAP, n["archaea"] + passive[1])

    def _hex_at(self, seat: int, action: Action) -> PlacedHex:
        """The hex of ``seat`` that ``action`` names by q and r."""
        return self._ecosystems[seat][self._where[seat][(action["q"], action["r"])]]

    # -- attacks and decimation -------------------------------------------------------------

    def _damage_of(self, step: tuple, defender: int) -> int:
        mode: str = step[1]
        if mode == "flat":
            return step[2]
        board = self._ecosystems[defender]
        if mode == "trait":
            return _total(board, _TRAIT_INDEX[step[2]])
        return sum(1 for h in board if h["archaea"] >= step[2])  # "hexes_holding"

    def _has_squid(self, seat: int) -> bool:
        return any(_SQUID[h["kind"]] and not h["decimated"] for h in self._ecosystems[seat])

    def _settle_queue(self) -> bool:
        """Resolve pending effects that need no decision; True when one needs a decision."""
        queue = self._queue
        while queue:
            kind, seat, value, _ = queue[0]
            if kind == "attack":
                if self._shells[seat]:
                    self._phase = "respond"
                    self._decider = seat
                    return True
                queue.pop(0)
                self._take_damage(seat, value)
            else:
                candidates = self._decimation_candidates(seat, value)
                if len(candidates) > 1:
                    self._phase = "respond"
                    self._decider = seat
                    return True
                queue.pop(0)
                if candidates:
                    self._decimate(seat, candidates[0])
        return False

    def _respond_options(self) -> list[Action]:
        kind, seat, value, _ = self._queue[0]
        if kind == "attack":
            return [{"type": "shell"}, {"type": "no_shell"}]
        return [
            {"type": "decimate", "q": h["q"], "r": h["r"]}
            for h in self._decimation_candidates(seat, value)
        ]

    def _respond(self, action: Action) -> None:
        kind, seat, value, _ = self._queue.pop(0)
        if action["type"] == "decimate":
            self._decimate(seat, self._hex_at(seat, action))
        elif action["type"] == "shell":
            self._shells[seat] -= 1
            self._take_damage(seat, value // 2)  # the shell blocks half, rounded up
        else:
            self._take_damage(seat, value)
        self._phase = "activate"

    def _take_damage(self, seat: int, damage: int) -> None:
        while damage > self._supply[seat]:
            # "you must take a shortfall token and 10 archaea. Then finish taking damage"
            self._tokens[seat] += 1
            self._supply[seat] += _LOAN
        self._supply[seat] -= damage

    def _decimation_candidates(self, seat: int, what: str) -> list[PlacedHex]:
        hexes = [
            h
            for h in self._ecosystems[seat]
            if not h["decimated"] and (what == "any" or _SQUID[h["kind"]])
        ]
        return sorted(hexes, key=lambda h: hexgrid.reading_key(_space(h)))

    def _decimate(self, seat: int, h: PlacedHex) -> None:
        self._supply[seat] += (h["archaea"] + 1) // 2  # "keep half, rounded up"
        h["archaea"] = 0
        h["decimated"] = True
        for o in self._opponents(seat):
            for n in self._ecosystems[o]:
                passive = _PASSIVE[n["kind"]]
                if passive and passive[0] == "opponent_decimates" and not n["decimated"]:
                    n["archaea"] = min(_CAP, n["archaea"] + passive[1])

    # -- the ecosystem -------------------------------------------------------------------------

    def _reindex(self, seat: int) -> None:
        """Rebuild ``seat``'s :attr:`_where` and :attr:`_adj` from its ecosystem (for a table
        set up hex by hex; play keeps them up to date as each hex is placed)."""
        board = self._ecosystems[seat]
        where = self._where[seat] = {(h["q"], h["r"]): i for i, h in enumerate(board)}
        self._adj[seat] = [
            [where[p] for p in hexgrid.neighbours((h["q"], h["r"])) if p in where] for h in board
        ]

    def _adjacent(self, seat: int, i: int) -> list[PlacedHex]:
        """The hexes of ``seat`` touching its hex number ``i`` (:attr:`_adj`)."""
        board = self._ecosystems[seat]
        return [board[j] for j in self._adj[seat][i]]

    def _opponents(self, seat: int) -> list[int] | tuple[int, ...]:
        """The other seats still in the game, clockwise from ``seat``."""
        others = _CLOCKWISE[self.num_players][seat]
        out = self._out
        if True not in out:
            return others
        return [o for o in others if not out[o]]

    # -- illegal actions ------------------------------------------------------------------------

    def _why_illegal(self, action: Action) -> str | None:
        kind = action["type"]
        phase = self._phase
        if phase in _CHANCE_PHASES:
            return self._why_chance_illegal(action)
        if kind in ("draw", "opener"):
            return f"{kind} is a chance event, not a seat's decision"
        if kind not in _SEAT_ACTIONS:
            return None
        if kind == "pay_shortfall":
            return self._why_pay_illegal()
        if kind not in _PHASE_ACTIONS[phase]:
            return f"{kind} is not what is decided now: {self._what_now()}"
        return self._why_decision_illegal(action)

    def _why_chance_illegal(self, action: Action) -> str | None:
        """Why ``action`` is not the chance event due: the opener of the bid, or a draw."""
        kind = action["type"]
        expected = "opener" if self._phase == "opener" else "draw"
        if kind in _SEAT_ACTIONS:
            return f"no seat decides now: the chance player's {expected} is next"
        if kind == expected == "draw":
            return f"no {action.get('hex')!r} is left in the stack"
        if kind == expected:
            return f"the opener is one of seats 0 to {self.num_players - 1}"
        if kind in ("draw", "opener"):
            return f"the next chance event is a {expected}, not a {kind}"
        return None

    def _why_pay_illegal(self) -> str:
        """Why the seat deciding cannot pay off a shortfall token now, as it asked."""
        seat = self._decider
        if not self._tokens[seat]:
            return "you hold no shortfall token"
        if self._supply[seat] < _LOAN:
            return (
                f"paying off a shortfall token costs {data.SHORTFALL_LOAN} archaea; "
                f"you have {self._supply[seat]}"
            )
        return "pay_shortfall takes no parameters"

    def _why_decision_illegal(self, action: Action) -> str:
        """Why ``action``, of a kind decided now, is not one of the options."""
        phase = self._phase
        if phase == "bid":
            return self._why_bid_illegal(action)
        if phase == "take":
            return self._why_take_illegal(action)
        if phase == "place":
            return self._why_place_illegal(action)
        if phase == "activate":
            return self._why_activation_illegal(action)
        if phase == "respond":
            return self._why_respond_illegal(action)
        return f"{action['type']} takes no parameters"

    def _why_respond_illegal(self, action: Action) -> str:
        """Why ``action`` does not answer the pending attack or decimation."""
        kind = action["type"]
        entry = self._queue[0]
        if kind == "decimate" and entry[0] == "decimate":
            which = "a face-up squid" if entry[2] == "squid" else "a face-up hex"
            return f"decimate names {which} of yours by q and r"
        if kind == "decimate" or entry[0] == "decimate":
            return f"{self._what_now()}"
        return f"{kind} takes no parameters"

    def _what_now(self) -> str:
        phase = self._phase
        seat = self._decider
        if phase == "bid":
            return f"seat {seat} bids or passes"
        if phase == "take":
            return f"seat {seat} takes a hex from the row (take)"
        if phase == "place":
            return f"seat {seat} places the hex it took (place)"
        if phase == "activate":
            return f"seat {seat} grows or triggers its hexes (grow, trigger, done)"
        if phase == "respond":
            kind, _, value, name = self._queue[0]
            if kind == "attack":
                return (
                    f"seat {seat} decides whether to spend a shell against {value} damage "
                    f"from the {name} (shell or no_shell)"
                )
            return f"seat {seat} decimates a hex of its choice for the {name} (decimate)"
        return f"seat {seat} ends its turn or pays off a shortfall token (end_turn)"

    def _why_bid_illegal(self, action: Action) -> str:
        if action["type"] == "pass":
            if self._bid_high is None:
                return "the opener must bid (0 is a bid)"
            return "pass takes no parameters"
        amount = action.get("amount")
        low = 0 if self._bid_high is None else self._bid_high + 1
        high = self._supply[self._decider]
        if type(amount) is not int:
            return 'a bid is {"type": "bid", "amount": n}, n a whole number of archaea'
        if not low <= amount <= high:
            return f"a bid must be from {low} to {high} archaea"
        return 'a bid takes only "amount"'

    def _why_take_illegal(self, action: Action) -> str:
        seat = self._decider
        slot = action.get("slot")
        if type(slot) is not int or not 0 <= slot < len(self._market):
            return f"the row's slots are 0 to {len(self._market) - 1}"
        if self._tokens[seat]:
            return "you hold a shortfall token: you must take the left-most hex (slot 0)"
        if slot > self._supply[seat]:
            return (
                f"slot {slot} costs {slot} archaea, one on each hex skipped; "
                f"you have {self._supply[seat]}"
            )
        return 'take takes only "slot"'

    def _why_place_illegal(self, action: Action) -> str:
        q, r = action.get("q"), action.get("r")
        if type(q) is not int or type(r) is not int:
            return "place names a space by whole numbers q and r"
        where = self._where[self._turn_seat]
        if (q, r) in where:
            return f"({q}, {r}) already holds one of your hexes"
        if not hexgrid.touches((q, r), where):
            return f"({q}, {r}) does not touch any of your hexes"
        return 'place takes only "q" and "r"'

    def _why_activation_illegal(self, action: Action) -> str:
        seat = self._turn_seat
        h = self._ecosystems[seat][self._act[self._cursor]]
        adjacent = self._adjacent(seat, self._act[self._cursor])
        name = _NAMES[h["kind"]]
        kind = action["type"]
        if kind == "done":
            return f"grow or trigger the {name} first"
        if kind == "grow":
            return self._why_grow_illegal(h, name)
        if not self._trigger_options(h, adjacent):
            return _why_untriggerable(h, adjacent, name)
        if _TRIGGER[h["kind"]][0][0] == "spend_all_from":
            return (
                f"the {name} spends the archaea of itself or an adjacent hex holding "
                f"{_TRIGGER[h['kind']][0][1]} or more: name that hex by q and r"
            )
        return "trigger takes no parameters here"

    def _why_grow_illegal(self, h: PlacedHex, name: str) -> str:
        """Why the active hex ``h`` (the ``name``) cannot grow as asked."""
        if self._fired:
            return f"the {name} has triggered this turn: it cannot grow too"
        if _TRIGGER[h["kind"]] and _TRIGGER[h["kind"]][0][0] == "erupt":
            return f"the {name} holds 5 or more archaea: it must trigger"
        if _GROW[h["kind"]][0] == "swallow_adjacent":
            return f"the {name} swallows an adjacent hex holding archaea: name it by q and r"
        return "grow takes no parameters here"


def _why_untriggerable(h: PlacedHex, adjacent: list[PlacedHex], name: str) -> str:
    """Why the active hex ``h`` (the ``name``, touching ``adjacent``) cannot trigger now."""
    steps = _TRIGGER[h["kind"]]
    if not steps:
        return f"the {name} cannot be triggered"
    if steps[0][0] == "erupt":
        return f"the {name} triggers only when it holds {steps[0][1]} or more archaea"
    if steps[0][0] == "spend_all_from":
        return f"the {name} needs itself or an adjacent hex holding {steps[0][1]} or more archaea"
    cost = _cost(steps[0], adjacent)
    if h["archaea"] < cost:
        return f"the {name} needs {cost} archaea to trigger; it holds {h['archaea']}"
    return f"triggering the {name} now would have no effect, so it must grow"


def _placed(kind: int, q: int, r: int, archaea: int) -> PlacedHex:
    """A hex just laid face up at (q, r), its track (if any) at the start."""
    return {"kind": kind, "q": q, "r": r, "archaea": archaea, "decimated": False, "track": 0}


def _space(h: PlacedHex) -> hexgrid.Hex:
    return (h["q"], h["r"])


def _reading_key(h: PlacedHex) -> tuple[int, int]:
    """A hex's place in reading order (:func:`hexgrid.reading_key` of its space)."""
    return (h["r"], h["q"])


def _adjacent_traits(kind: int, adjacent: list[PlacedHex]) -> int:
    """A grower of ``kind`` (adjacent_traits): the adjacent hexes' symbols of the traits it
    wants (:func:`_trait`, from a table)."""
    front, back = _GROW_FRONT[kind], _GROW_BACK[kind]
    heat = _HEAT in _GROW_TRAITS[kind]
    gain = 0
    for n in adjacent:
        if n["decimated"]:
            gain += back
        else:
            gain += front[n["kind"]]
            if heat and _HOT[n["kind"]]:
                gain += n["archaea"]
    return gain


def _drain(adjacent: list[PlacedHex], trait: int) -> int:
    """Giant Squid: move 1 archaeon from each adjacent hex showing ``trait`` that has one;
    how many moved."""
    gain = 0
    for n in adjacent:
        if n["archaea"] and _trait(n, trait):
            n["archaea"] -= 1
            gain += 1
    return gain


def _spread(adjacent: list[PlacedHex]) -> None:
    """Add 1 archaeon from the general supply to each adjacent hex (up to the cap)."""
    for n in adjacent:
        n["archaea"] = min(_CAP, n["archaea"] + 1)


def _cost(step: tuple, adjacent: list[PlacedHex]) -> int:
    """What a trigger's first step spends from the hex."""
    if step[0] == "spend":
        return step[1]
    if step[0] == "spend_per_adjacent":
        return len(adjacent)
    return 0


def _trait(h: PlacedHex, trait: int) -> int:
    """How many symbols of ``trait`` a hex on the table shows."""
    if h["decimated"]:
        return _BACK[trait]
    if trait == _HEAT and _HOT[h["kind"]]:
        return h["archaea"]
    return _FRONT[h["kind"]][trait]


def _total(board: list, trait: int) -> int:
    """The symbols of ``trait`` an ecosystem shows: :func:`_trait` summed over its hexes."""
    front, back = _FRONT_BY_TRAIT[trait], _BACK[trait]
    if trait == _HEAT:
        return sum(
            back if h["decimated"] else h["archaea"] if _HOT[h["kind"]] else front[h["kind"]]
            for h in board
        )
    return sum(back if h["decimated"] else front[h["kind"]] for h in board)


def _pending_view(entry: list) -> dict[str, Any]:
    kind, seat, value, name = entry
    if kind == "attack":
        return {"kind": "attack", "seat": seat, "damage": value, "hex": name}
    return {"kind": "decimate", "seat": seat, "choice": value, "hex": name}


register(sys.modules[__name__])
