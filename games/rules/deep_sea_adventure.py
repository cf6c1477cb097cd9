"""Deep Sea Adventure: 2 to 6 divers share one air supply over three rounds.

Kind of game: 2 to 6 players taking turns clockwise; chance (two three-sided dice each turn,
the values of treasure chips when they are revealed, and the shuffle of lost chips into
stacks); no information hidden from one seat and shown to another: a treasure chip's value is
unknown to everyone until the end of the round in which its holder gets back to the submarine,
and from then on it lies face up for all to see ("turn all your collected treasure face up ...
keeping them face up"). Everything else (positions, air, chip levels, who holds what) is
public too.

A turn is several decision points: reduce air by the items held, then ``continue`` or
``turn_back``, then a chance ``roll``, then ``take``, ``drop`` or ``pass`` on the space reached.
At the end of a round the chance player reveals each chip brought back (``reveal``) and shuffles
the lost chips into stacks (``stack_draw``).

Rulings
-------
- The trail starts with 32 chips: the 8 level-1 chips nearest the submarine, then 8 of level 2,
  3 and 4. Position 0 is the submarine; positions 1..len(trail) are the trail's spaces. A space
  holds a chip, a blank or a stack of 1 to 3 chips.
- Seat 0 starts round 1; play goes clockwise (seat + 1) and skips divers already back.
- A turn, in order: (1) air goes down by the number of items held, a stack counting as one item;
  (2) the diver decides to continue or turn back, but only while it has not yet turned back this
  round, and a diver in the submarine may only continue; once turned back the turn goes straight
  to the roll; (3) the roll: two dice of faces 1, 2, 3, nine ordered outcomes of 1/9 each;
  (4) the diver moves the dice total minus the items held, never fewer than 0 spaces, deeper or
  (if turned back) toward the submarine; (5) on a chip or stack it may take it (the space becomes
  a blank) or pass; on a blank while holding items it may drop one of them there (it replaces
  the blank) or pass; where passing is the only choice there is no decision point.
- A diver may take or drop on its space even when it did not move this turn. A diver that
  cannot leave the submarine (every space taken) stays there, not back, and its turn ends.
- Spaces occupied by other divers are jumped over without being counted.
- Going deeper, a diver whose count would carry it past the trail's last unoccupied space stops
  at the last unoccupied space it reaches; if there is none beyond it, it stays where it is.
- Going back, a diver that reaches the submarine with steps to spare (or exactly) is back: safe
  for the rest of the round. Divers that are back take no turns and use no air.
- The round ends at the end of a turn (that turn is played out in full) when air is at 0 or
  below, or when every diver is back.
- End of round, in order: (a) each chip brought back is revealed as a chance event, in seat order
  and in the order held (each chip of a stack separately); its value is drawn from the values of
  its level not yet revealed (probability = copies left / chips of that level left) and scored;
  (b) the chips of divers not back are lost and pooled (seat order, held order); a pool of more
  than 3 chips of more than one level is shuffled by chance draws of one level at a time
  (probability = chips of that level left / chips left), and once what is left is all of one
  level it is placed without further draws; any other pool keeps its order; the result is cut
  into stacks of three, a remainder of one or two making a last stack; (c) blanks are removed
  from the trail, which closes up, and the stacks go at its end; (d) the next round's first
  player is the diver farthest from the submarine among those not back (if several are still in
  the submarine, the lowest seat); if all got back, the last to get back; (e) air goes back to
  25 and all divers to the submarine, facing down, holding nothing.
- After the third round the game is over: its lost chips are not stacked (nothing follows).
- If the trail is empty when a round would start (every chip has been brought home), no diver
  could ever leave the submarine, so the game is over.
- Score: the sum of the values scored. Ties are broken by the number of level-4 chips scored;
  divers still tied share the rank.
- Scored chips are face up: every seat and every spectator sees their values as soon as they are
  revealed. Only chips not yet brought back are unknown, to everyone alike. (Rules version 2.
  Under version 1, from an earlier specification, a revealed value was seen by its holder
  only until the game ended: the reveal was private to the holder in the log and in views,
  and the game had hidden information. The rulebook wins from version 2.)
"""

from __future__ import annotations

import random
import sys
from typing import Any, Final

from games.rules import base
from games.rules.base import CHANCE, TERMINAL, Action, GameSpec, RulesVersion, register

# Values of the 8 chips of each level (the number of dots on the chip's back).
_CHIP_VALUES: Final[dict[int, tuple[int, ...]]] = {
    1: (0, 0, 1, 1, 2, 2, 3, 3),
    2: (4, 4, 5, 5, 6, 6, 7, 7),
    3: (8, 8, 9, 9, 10, 10, 11, 11),
    4: (12, 12, 13, 13, 14, 14, 15, 15),
}
_LEVELS: Final = (1, 2, 3, 4)
_TOP_LEVEL: Final = 4
AIR: Final = 25
ROUNDS: Final = 3
_DIE_FACES: Final = (1, 2, 3)
_ROLL_PROBABILITY: Final = 1 / len(_DIE_FACES) ** 2
_STACK_SIZE: Final = 3
_BLANK: Final = None  # a trail space is a level (int), a stack (tuple of levels) or _BLANK

_CHANCE_KIND: Final = {"roll": "roll", "reveal": "reveal", "stack": "stack_draw"}
_SEAT_ACTIONS: Final = ("continue", "turn_back", "take", "drop", "pass")
_CHANCE_ACTIONS: Final = ("roll", "reveal", "stack_draw")

spec = GameSpec(
    slug="deep-sea-adventure",
    name="Deep Sea Adventure",
    min_players=2,
    max_players=6,
    version=2,
    versions=(
        RulesVersion(
            1,
            "A revealed treasure chip is seen by its holder only, until the end.",
            hidden_information=True,
        ),
        RulesVersion(2, "Treasure chips brought home lie face up for everyone to see."),
    ),
    options=(),
    chance=True,
    hidden_information=False,
    description=(
        "Divers share one tank of air: dive for treasure, turn back in time, and keep "
        "only what you bring home. Three rounds; the highest haul wins."
    ),
)


def new_game(num_players: Any = 2, options: Any = None, version: Any = None) -> State:
    """A game at the start of round 1, seat 0 to decide, under rules ``version`` (the newest
    when None); ValueError for bad players, options or version."""
    return State(num_players, spec.validate(num_players, options), spec.check_version(version))


class State(base.State):
    """Deep Sea Adventure in progress; plain lists, ints and tuples only."""

    def __init__(
        self, num_players: int = 0, options: dict[str, Any] | None = None, rules_version: int = 1
    ):
        if options is None:
            return  # an empty shell, which clone fills (base.State.clone)
        super().__init__(num_players, options, rules_version)
        n = num_players
        self._round = 1
        self._air = AIR
        self._phase = "decide"
        self._current = 0
        self._first = 0
        self._last_roll: tuple[int, int] | None = None
        self._positions = [0] * n
        self._turned_back = [False] * n
        self._back = [False] * n
        self._held: list[list[Any]] = [[] for _ in range(n)]  # items: level or stack tuple
        self._scored: list[list[tuple[int, int]]] = [[] for _ in range(n)]  # (level, value)
        # Values not yet revealed, indexed by level (index 0 unused): a multiset per level.
        self._unrevealed: list[list[int]] = [[]] + [list(_CHIP_VALUES[level]) for level in _LEVELS]
        self._trail: list[Any] = [level for level in _LEVELS for _ in _CHIP_VALUES[level]]
        self._last_back: int | None = None
        self._next_first = 0
        self._reveals: list[tuple[int, int]] = []  # (seat, level) still to reveal, in order
        self._lost: list[int] = []  # levels of lost chips not yet drawn
        self._drawn: list[int] = []  # levels of lost chips in stacking order

    # -- the interface ------------------------------------------------------------------------

    def _current_player(self) -> int:
        phase = self._phase
        if phase == "decide" or phase == "act":
            return self._current
        if phase == "over":
            return TERMINAL
        return CHANCE

    def _legal_actions(self) -> list[Action]:
        if self._phase == "decide":
            return [{"type": kind} for kind in self._decide_kinds()]
        out: list[Action] = []
        for kind in self._act_kinds():
            if kind == "drop":
                out += [{"type": "drop", "chip": k} for k in self._drop_chips()]
            else:
                out.append({"type": kind})
        return out

    def _decide_kinds(self) -> tuple[str, ...]:
        """The start of a turn: a diver in the submarine may only continue."""
        if self._positions[self._current] == 0:
            return ("continue",)
        return ("continue", "turn_back")

    def _act_kinds(self) -> tuple[str, ...]:
        """After the move: take a chip or stack, or on a blank drop one held; or pass."""
        if self._space(self._current) is _BLANK:
            return ("drop", "pass")
        return ("take", "pass")

    def _drop_chips(self) -> range:
        return range(len(self._held[self._current]))

    def _match(self, action: Action) -> Action | None:
        """The branch of the listing (or of the chance outcomes) that ``action`` names."""
        kind = action["type"]
        phase = self._phase
        if phase == "decide":
            return {"type": kind} if len(action) == 1 and kind in self._decide_kinds() else None
        if phase == "act":
            return self._match_act(action)
        if kind != self._chance_kind() or phase == "over":
            return None
        return self._match_chance(action)

    def _match_act(self, action: Action) -> Action | None:
        """After the move: the take, drop or pass that ``action`` names (:meth:`_act_kinds`)."""
        kind = action["type"]
        if kind not in self._act_kinds():
            return None
        if kind != "drop":
            return {"type": kind} if len(action) == 1 else None
        chip = base.int_params(action, "chip")
        return {"type": "drop", "chip": chip[0]} if chip and chip[0] in self._drop_chips() else None

    def _match_chance(self, action: Action) -> Action | None:
        """The roll, reveal or stack draw that ``action`` names, of the kind due
        (:meth:`_chance_outcomes`)."""
        kind = action["type"]
        if kind == "roll":
            dice = action.get("dice")
            if (
                len(action) == 2
                and type(dice) is list
                and len(dice) == 2
                and all(type(d) is int and d in _DIE_FACES for d in dice)
            ):
                return {"type": "roll", "dice": [dice[0], dice[1]]}
            return None
        if kind == "reveal":
            found = base.int_params(action, "seat", "level", "value")
            if found is None or (found[0], found[1]) != self._reveals[0]:
                return None
            seat, level, value = found
            if value not in self._unrevealed[level]:
                return None
            return {"type": "reveal", "seat": seat, "level": level, "value": value}
        found = base.int_params(action, "level")
        if found is None or found[0] not in self._lost:
            return None
        return {"type": "stack_draw", "level": found[0]}

    def _chance_outcomes(self) -> list[tuple[Action, float]]:
        phase = self._phase
        if phase == "roll":
            return [
                ({"type": "roll", "dice": [a, b]}, _ROLL_PROBABILITY)
                for a in _DIE_FACES
                for b in _DIE_FACES
            ]
        if phase == "reveal":
            seat, level = self._reveals[0]
            pool = self._unrevealed[level]
            size = len(pool)
            return [
                (
                    {"type": "reveal", "seat": seat, "level": level, "value": value},
                    pool.count(value) / size,
                )
                for value in sorted(set(pool))
            ]
        pool = self._lost
        size = len(pool)
        return [
            ({"type": "stack_draw", "level": level}, pool.count(level) / size)
            for level in sorted(set(pool))
        ]

    def _apply(self, action: Action) -> None:
        kind = action["type"]
        seat = self._current
        if kind == "continue":
            self._phase = "roll"
        elif kind == "turn_back":
            self._turned_back[seat] = True
            self._phase = "roll"
        elif kind == "roll":
            self._roll(action["dice"])
        elif kind == "take":
            position = self._positions[seat]
            self._held[seat].append(self._trail[position - 1])
            self._trail[position - 1] = _BLANK
            self._end_turn()
        elif kind == "drop":
            self._trail[self._positions[seat] - 1] = self._held[seat].pop(action["chip"])
            self._end_turn()
        elif kind == "pass":
            self._end_turn()
        elif kind == "reveal":
            self._reveals.pop(0)
            level, value = action["level"], action["value"]
            self._unrevealed[level].remove(value)
            self._scored[action["seat"]].append((level, value))
            self._continue_round_end()
        else:  # stack_draw
            self._lost.remove(action["level"])
            self._drawn.append(action["level"])
            self._continue_round_end()

    def _why_illegal(self, action: Action) -> str | None:
        kind = action["type"]
        phase = self._phase
        if kind not in _SEAT_ACTIONS and kind not in _CHANCE_ACTIONS:
            return None
        if phase in ("roll", "reveal", "stack"):
            if kind in _SEAT_ACTIONS:
                return f"no diver decides now: the chance player's {self._chance_kind()} is next"
            return self._why_illegal_chance(action)
        if kind in _CHANCE_ACTIONS:
            return f"{kind} is a chance event, not a diver's decision"
        if phase == "decide":
            return self._why_decide_illegal(kind)
        return self._why_act_illegal(action)

    def _why_decide_illegal(self, kind: str) -> str:
        """Why ``kind`` is not the decision at the start of the diver's turn."""
        seat = self._current
        if kind == "turn_back" and self._positions[seat] == 0:
            return "you are in the submarine: you can only continue"
        if kind in ("take", "drop", "pass"):
            choices = "continue" if self._positions[seat] == 0 else "continue or turn_back"
            return f"it is the decision at the start of your turn: {choices}"
        return f"{kind} takes no parameters"

    def _why_act_illegal(self, action: Action) -> str:
        """Why ``action`` is not what the diver may do on its space after the move."""
        kind = action["type"]
        seat = self._current
        if kind == "turn_back":
            if self._turned_back[seat]:
                return "you have already turned back"
            return "you can turn back only at the start of your turn, before the roll"
        if kind == "continue":
            return "you have already moved this turn: take, drop or pass"
        on_blank = self._space(seat) is _BLANK
        if kind == "take":
            return "there is no chip here to take" if on_blank else "take takes no parameters"
        if kind == "drop":
            if not on_blank:
                return "you can drop a chip only on a blank space"
            held = len(self._held[seat])
            chip = action.get("chip")
            if type(chip) is int and 0 <= chip < held:
                return 'drop takes only "chip", the index of the chip to drop'
            return f"you hold no chip {chip!r} (you hold {held})"
        return "pass takes no parameters"

    # -- views and results --------------------------------------------------------------------

    def view(self, seat: Any) -> dict[str, Any]:  # checked here: a bad seat is a ValueError
        self._check_seat(seat)
        n = self.num_players
        over = self._phase == "over"
        divers = []
        for s in range(n):
            scored = self._scored[s]
            divers.append(
                {
                    "position": self._positions[s],
                    "turned_back": self._turned_back[s],
                    "held": len(self._held[s]),
                    "held_levels": [_levels_of(item) for item in self._held[s]],
                    "back": self._back[s],
                    "scored": [v for _, v in scored] if self._shown(s, seat) else None,
                    "scored_chips": len(scored),
                }
            )
        out: dict[str, Any] = {
            "round": self._round,
            "rounds": ROUNDS,
            "air": max(0, self._air),
            "current_player": self._current_player(),
            "phase": self._phase,
            "turn": self._current if self._phase in ("decide", "roll", "act") else None,
            "first_player": self._first,
            "last_roll": list(self._last_roll) if self._last_roll else None,
            "divers": divers,
            "trail": [_space_view(space) for space in self._trail],
            "reveals_pending": [{"seat": s, "level": level} for s, level in self._reveals],
            "lost_chips": {"drawn": list(self._drawn), "in_pool": sorted(self._lost)},
        }
        if over:
            out["scores"] = self._scores()
            out["level4"] = self._top_level_chips()
        return out

    def _shown(self, holder: int, seat: int | None) -> bool:
        """Whether ``seat`` sees the values of ``holder``'s scored chips: face up (version 2),
        or under version 1 its holder's alone until the game is over."""
        return self.rules_version >= 2 or self._phase == "over" or holder == seat

    # -- hidden information (version 1 only: from version 2 nothing is hidden) ------------------

    def resample_hidden(self, seat: int | None, rng: random.Random) -> State:
        """Under version 1, redraw the values ``seat`` has not seen: other seats' scored chips
        and the pools; from version 2 every seat sees what any seat sees."""
        self._check_seat(seat)
        clone = self.clone()
        if self.rules_version >= 2 or self._phase == "over":
            return clone
        for level in _LEVELS:
            unknown = list(_CHIP_VALUES[level])
            if seat is not None:
                for chip_level, value in self._scored[seat]:
                    if chip_level == level:
                        unknown.remove(value)
            rng.shuffle(unknown)
            dealt = 0
            for s in range(self.num_players):
                if s == seat:
                    continue
                scored = clone._scored[s]
                for i, (chip_level, _) in enumerate(scored):
                    if chip_level == level:
                        scored[i] = (level, unknown[dealt])
                        dealt += 1
            clone._unrevealed[level] = sorted(unknown[dealt:])
        return clone

    def private_to(self, action: Action) -> frozenset[int] | None:
        if self.rules_version == 1 and action.get("type") == "reveal":
            return frozenset({action["seat"]})
        return None

    def public_form(self, action: Action) -> Action:
        if self.rules_version == 1 and action.get("type") == "reveal":
            return {k: v for k, v in action.items() if k != "value"}
        return action

    def _scores(self) -> list[float]:
        return [sum(v for _, v in scored) for scored in self._scored]

    def _rank_keys(self) -> list[Any]:
        # "In the case of a tie, the player with most '4-pip' chips is the winner."
        return list(zip(self._scores(), self._top_level_chips()))

    def _top_level_chips(self) -> list[int]:
        return [sum(1 for level, _ in scored if level == _TOP_LEVEL) for scored in self._scored]

    def clone(self) -> State:
        other = State()
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.rules_version = self.rules_version
        other._round = self._round
        other._air = self._air
        other._phase = self._phase
        other._current = self._current
        other._first = self._first
        other._last_roll = self._last_roll
        other._positions = self._positions[:]
        other._turned_back = self._turned_back[:]
        other._back = self._back[:]
        other._held = [held[:] for held in self._held]
        other._scored = [scored[:] for scored in self._scored]
        other._unrevealed = [pool[:] for pool in self._unrevealed]
        other._trail = self._trail[:]
        other._last_back = self._last_back
        other._next_first = self._next_first
        other._reveals = self._reveals[:]
        other._lost = self._lost[:]
        other._drawn = self._drawn[:]
        return other

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be None or 0 to {self.num_players - 1}, not {seat!r}")

    # -- the turn -----------------------------------------------------------------------------

    def _space(self, seat: int) -> Any:
        return self._trail[self._positions[seat] - 1]

    def _start_turn(self, seat: int) -> None:
        self._current = seat
        # "Count the number of treasure chips you have collected this round" (a stack is one).
        self._air -= len(self._held[seat])
        self._phase = "roll" if self._turned_back[seat] else "decide"

    def _roll(self, dice: list[int]) -> None:
        seat = self._current
        self._last_roll = (dice[0], dice[1])
        steps = max(0, dice[0] + dice[1] - len(self._held[seat]))
        if self._turned_back[seat]:
            self._move_back(seat, steps)
        else:
            self._move_deeper(seat, steps)
        if self._back[seat] or self._positions[seat] == 0:
            self._end_turn()
            return
        space = self._space(seat)
        if space is _BLANK and not self._held[seat]:
            self._end_turn()
        else:
            self._phase = "act"

    def _occupied(self, seat: int) -> set[int]:
        return {p for s, p in enumerate(self._positions) if s != seat and p > 0}

    def _move_deeper(self, seat: int, steps: int) -> None:
        occupied = self._occupied(seat)
        end = len(self._trail)
        position = target = self._positions[seat]
        while steps > 0 and position < end:
            position += 1
            if position not in occupied:  # other divers are jumped over, not counted
                target = position
                steps -= 1
        self._positions[seat] = target

    def _move_back(self, seat: int, steps: int) -> None:
        if steps == 0:
            return
        occupied = self._occupied(seat)
        position = self._positions[seat]
        while steps > 0:
            position -= 1
            if position == 0:
                self._positions[seat] = 0
                self._back[seat] = True
                self._last_back = seat
                return
            if position not in occupied:
                steps -= 1
        self._positions[seat] = position

    def _end_turn(self) -> None:
        if self._air <= 0 or all(self._back):
            self._end_round()
            return
        n = self.num_players
        seat = self._current
        for _ in range(n):
            seat = (seat + 1) % n
            if not self._back[seat]:
                self._start_turn(seat)
                return

    # -- the end of a round -------------------------------------------------------------------

    def _end_round(self) -> None:
        n = self.num_players
        self._reveals = [
            (s, level)
            for s in range(n)
            if self._back[s]
            for item in self._held[s]
            for level in _levels_of(item)
        ]
        drowned = [s for s in range(n) if not self._back[s]]
        if drowned:
            self._next_first = max(drowned, key=lambda s: (self._positions[s], -s))
        else:
            assert self._last_back is not None, "every diver got back, so one was last"
            self._next_first = self._last_back
        self._drawn = []
        self._lost = []
        if self._round < ROUNDS:
            self._lost = [
                level for s in drowned for item in self._held[s] for level in _levels_of(item)
            ]
            if len(self._lost) <= _STACK_SIZE:
                self._drawn, self._lost = self._lost, []
        self._continue_round_end()

    def _continue_round_end(self) -> None:
        if self._reveals:
            self._phase = "reveal"
            return
        if len(set(self._lost)) > 1:
            self._phase = "stack"
            return
        # What is left of the pool is of one level: its order cannot matter, so no more draws.
        self._drawn.extend(self._lost)
        self._lost = []
        self._finish_round()

    def _finish_round(self) -> None:
        if self._round == ROUNDS:
            self._phase = "over"
            return
        drawn = self._drawn
        stacks = [tuple(drawn[i : i + _STACK_SIZE]) for i in range(0, len(drawn), _STACK_SIZE)]
        self._trail = [space for space in self._trail if space is not _BLANK] + stacks
        self._drawn = []
        if not self._trail:
            self._phase = "over"
            return
        n = self.num_players
        self._round += 1
        self._air = AIR
        self._positions = [0] * n
        self._turned_back = [False] * n
        self._back = [False] * n
        self._held = [[] for _ in range(n)]
        self._last_roll = None
        self._last_back = None
        self._first = self._next_first
        self._start_turn(self._first)

    # -- illegal chance outcomes --------------------------------------------------------------

    def _chance_kind(self) -> str:
        return _CHANCE_KIND.get(self._phase, "")

    def _why_illegal_chance(self, action: Action) -> str:
        expected = self._chance_kind()
        kind = action["type"]
        if kind != expected:
            return f"the next chance event is a {expected}, not a {kind}"
        if kind == "roll":
            return 'a roll is two dice, each 1, 2 or 3: {"dice": [a, b]}'
        if kind == "reveal":
            seat, level = self._reveals[0]
            if action.get("seat") != seat or action.get("level") != level:
                return f"the next chip to reveal is seat {seat}'s chip of level {level}"
            return f"no unrevealed chip of level {level} has the value {action.get('value')!r}"
        return f"no lost chip of level {action.get('level')!r} is left to draw"


def _levels_of(item: Any) -> list[int]:
    """The chip levels of a held item or trail space: one for a chip, all of a stack's."""
    return [item] if isinstance(item, int) else list(item)


def _space_view(space: Any) -> dict[str, Any]:
    if space is _BLANK:
        return {"blank": True}
    if isinstance(space, int):
        return {"level": space}
    return {"stack": len(space), "levels": list(space)}


register(sys.modules[__name__])
