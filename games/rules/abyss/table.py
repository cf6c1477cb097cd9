"""The state's fields and the helpers every part of the game uses.

A Lord in front of a seat is ``[lord, where, assassinated]`` (see :data:`tables.FREE`); a
seat's hand, affiliated Allies and the decks are copies per card; Monster tokens are counts
per token value. The task stack (:mod:`games.rules.abyss.tasks`) says what happens next.
"""

from __future__ import annotations

from typing import Any, Final, Self

from games.rules import base
from games.rules.abyss import data
from games.rules.abyss.tables import (
    ALLIES,
    CARDS,
    FREE,
    FULL_DECK,
    L_KEYS,
    L_POWER,
    LOCATIONS,
    LORDS,
    RACES,
    TOKEN_VALUES,
)
from games.rules.abyss.tasks import CHOICES
from games.rules.base import Action

_COST_SHIFT: Final = 2  # Treasurer, Recruiter


class Table(base.State):
    """Abyss's state: plain lists, ints and tuples only. The game's parts (flow, payments,
    powers, view, hidden) each add the methods of their own to it."""

    # -- the fields --------------------------------------------------------------------------------

    def __init__(
        self, num_players: int = 0, options: dict[str, Any] | None = None, rules_version: int = 1
    ):
        if options is None:
            return  # an empty shell, which clone fills (base.State.clone)
        super().__init__(num_players, options, rules_version)
        n = num_players
        self._turn = 0
        self._first: int | None = None
        self._over = False
        self._pearls = [data.STARTING_PEARLS] * n
        self._key_tokens = [0] * n
        self._hands = [[0] * ALLIES for _ in range(n)]  # copies per card
        self._affiliated = [[0] * ALLIES for _ in range(n)]
        self._tokens = [[0] * len(TOKEN_VALUES) for _ in range(n)]  # per token value
        self._lords: list[list[list[int]]] = [[] for _ in range(n)]
        self._locations: list[list[int]] = [[] for _ in range(n)]
        self._court: list[int] = []
        self._lord_deck = list(range(len(LORDS)))
        self._lords_discarded: list[int] = []
        self._location_deck = list(range(len(LOCATIONS)))
        self._face_up: list[int] = []
        self._drawn: list[int] = []
        self._deck = list(FULL_DECK)
        self._discard = [0] * CARDS
        self._council = [0] * ALLIES
        self._track: list[int] = []
        self._threat = 1
        self._token_pool = [data.MONSTER_TOKENS[v] for v in TOKEN_VALUES]
        self._buys = 0
        self._bought = [False] * n
        self._sold = False
        self._replaced = False
        self._extra_turn = False
        self._court_left = False
        self._end_seat: int | None = None
        self._payment: list[Any] | None = None  # [lord, races, required, value, paid cards]
        self._pearls_paid = 0
        # The last recruit paid with Allies, public (forced payments log no action of their
        # own): (seat, lord, cards paid, pearls paid, card affiliated).
        self._last_recruit: tuple | None = None
        self._keys_due = 0
        self._tasks: list[tuple] = (
            [("turn_start",), ("setup_location",)]
            + [("court_draw",)] * data.COURT_SLOTS
            + [("first_player",)]
        )

    def clone(self) -> Self:
        other = type(self)()
        other.num_players = self.num_players
        other.options = dict(self.options)
        other.rules_version = self.rules_version
        other._turn = self._turn
        other._first = self._first
        other._over = self._over
        other._pearls = self._pearls[:]
        other._key_tokens = self._key_tokens[:]
        other._hands = [hand[:] for hand in self._hands]
        other._affiliated = [cards[:] for cards in self._affiliated]
        other._tokens = [tokens[:] for tokens in self._tokens]
        other._lords = [[entry[:] for entry in lords] for lords in self._lords]
        other._locations = [locations[:] for locations in self._locations]
        other._court = self._court[:]
        other._lord_deck = self._lord_deck[:]
        other._lords_discarded = self._lords_discarded[:]
        other._location_deck = self._location_deck[:]
        other._face_up = self._face_up[:]
        other._drawn = self._drawn[:]
        other._deck = self._deck[:]
        other._discard = self._discard[:]
        other._council = self._council[:]
        other._track = self._track[:]
        other._threat = self._threat
        other._token_pool = self._token_pool[:]
        other._buys = self._buys
        other._bought = self._bought[:]
        other._sold = self._sold
        other._replaced = self._replaced
        other._extra_turn = self._extra_turn
        other._court_left = self._court_left
        other._end_seat = self._end_seat
        payment = self._payment
        other._payment = None if payment is None else payment[:4] + [payment[4][:]]
        other._pearls_paid = self._pearls_paid
        other._last_recruit = self._last_recruit
        other._keys_due = self._keys_due
        other._tasks = self._tasks[:]
        return other

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (
            isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players
        ):
            raise ValueError(f"seat must be None or 0 to {self.num_players - 1}, not {seat!r}")

    def _options_for(self, top: tuple) -> list[Action]:
        """The options of the decision ``top`` asks for, listed in full."""
        return list(CHOICES[top[0]](self, top))

    def _push(self, *tasks: tuple) -> None:
        self._tasks.extend(tasks)

    # -- helpers -----------------------------------------------------------------------------------

    def _has(self, seat: int, power: str) -> bool:
        """Whether ``seat`` has a free, not assassinated Lord with ``power``."""
        for lord, where, disabled in self._lords[seat]:
            if where == FREE and not disabled and L_POWER[lord] == power:
                return True
        return False

    def _opponent_has(self, seat: int, power: str) -> bool:
        return any(self._has(o, power) for o in range(self.num_players) if o != seat)

    def _keys(self, seat: int) -> int:
        return self._key_tokens[seat] + sum(
            L_KEYS[lord]
            for lord, where, disabled in self._lords[seat]
            if where == FREE and not disabled
        )

    def _opponents(self, seat: int) -> list[int]:
        """The other seats, clockwise from ``seat``."""
        n = self.num_players
        return [(seat + i) % n for i in range(1, n)]

    @property
    def _paying(self) -> list[Any]:
        """The payment under way, asked for only while a recruit is being paid for."""
        assert self._payment is not None, "no recruit is being paid for"
        return self._payment

    def _recruit_terms(self, seat: int) -> tuple[int, bool, int]:
        """What ``seat``'s and its opponents' free Lords change in the cost of its recruits:
        races fewer (under rules version 1 only, a Master of Magic: one), any races
        (Diplomat), and the shift of the value (Treasurer -2, an opponent's Recruiter +2)."""
        shift = 0
        if self._has(seat, "treasurer"):
            shift -= _COST_SHIFT
        if self._opponent_has(seat, "recruiter"):
            shift += _COST_SHIFT
        fewer = 1 if self.rules_version == 1 and self._has(seat, "master_of_magic") else 0
        return fewer, self._has(seat, "diplomat"), shift

    def _take_stack(self, seat: int, r: int) -> None:
        hand = self._hands[seat]
        for c in range(r * 5, r * 5 + 5):
            hand[c] += self._council[c]
            self._council[c] = 0

    def _stack_left(self, r: int) -> bool:
        """Whether the Council holds a stack of race ``r``."""
        return any(self._council[r * 5 : r * 5 + 5])

    def _stack_options(self, kind: str) -> list[Action]:
        return [{"type": kind, "race": race} for r, race in enumerate(RACES) if self._stack_left(r)]
