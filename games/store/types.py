"""What the store's callers hand it and get back: the events to append and as logged, an
append's result, a game's head (its row and seats at one committed version), the guard a write
may carry, and the conflict a stale version raises."""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from datetime import datetime
from typing import Any

from django.db import DEFAULT_DB_ALIAS

from accounts.people import shown_username


class VersionConflict(Exception):
    """``expected_version`` is not the stream's version; nothing was written."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"expected version {expected}, but the game is at version {current}")
        self.expected = expected
        self.current = current


@dataclass
class NewEvent:
    kind: str
    data: dict[str, Any]
    seat: int | None = None
    actor_id: int | None = None


@dataclass(frozen=True)
class LoggedEvent:
    """An event as written, with what a reader needs (the same attributes as an Event row)."""

    pk: int
    seq: int
    kind: str
    data: dict[str, Any]
    seat: int | None
    actor_id: int | None
    created_at: datetime
    batch: int
    idempotency_key: str | None = None
    hash: str = ""


@dataclass
class AppendResult:
    version: int
    events: list = field(default_factory=list)  # LoggedEvent (new) or Event rows (replayed)
    replayed: bool = False  # True when an idempotency key returned an earlier result
    head: Head | None = None  # the game after the write (for a replay: as the request found it)


@dataclass(frozen=True)
class Guard:
    """A condition a write must meet besides its version: an SQL expression over nothing but
    its parameters (``%s`` placeholders, Django's), checked in the same statement as the
    version. A write it refuses writes nothing and is refused as a stale version is
    (VersionConflict, or the first result of its idempotency key), so a caller who guards must
    find out which it was.

    The API's token check is one: a token seen valid before is checked again by the move's
    write rather than by a statement of its own (accounts.authentication)."""

    condition: str
    params: tuple[Any, ...] = ()


# -- the head: a committed version of a game, cheap to keep and to hand out -----------------------


@dataclass(frozen=True)
class SeatInfo:
    index: int
    user_id: int | None
    username: str | None
    bot: str
    resigned: bool
    accepted: bool
    guest: str = ""

    @property
    def name(self) -> str:
        if self.username is not None:  # set exactly when a user holds the seat (head_of)
            return shown_username(self.username)
        return f"{self.guest} (guest)"


@dataclass(frozen=True)
class Head:
    """A game's row and seats at one committed version. Immutable: a write makes a new one."""

    db: str
    id: int
    slug: str
    mode: str
    status: str
    version: int
    num_players: int
    options: dict[str, Any]
    current_player: int | None
    result: list[dict[str, Any]] | None
    move_seconds: int | None
    on_timeout: str
    created_at: datetime
    moved_at: datetime
    updated_at: datetime
    finished_at: datetime | None
    seats: tuple[SeatInfo, ...]
    chain_version: int  # what each event's hash covers (logchain's formats)
    rules_version: int  # the version of its rules the game is played under, for ever
    fingerprint: str = ""  # the hash of the last event (logchain)
    scorekeeper_id: int | None = (
        None  # a table log's (games.tablelog.services): who sees all while it runs
    )
    # The clock (games.play.clocks), also projected with every append.
    bank_seconds: int | None = None
    increment_seconds: int = 0
    banks: list[float] | None = None
    deadline: datetime | None = None
    paused: dict[str, Any] | None = None

    @property
    def pk(self) -> int:
        return self.id

    def seats_of(self, user) -> set[int]:
        """The seats ``user`` holds (a person may hold several at a hot-seat table)."""
        if user is None or not user.is_authenticated:
            return set()
        return {s.index for s in self.seats if s.user_id == user.pk and not s.bot}

    def everyone_seated(self) -> bool:
        return all(s.accepted or s.bot for s in self.seats)

    def changed(self, **changes: Any) -> Head:
        """A copy with ``changes``: ``dataclasses.replace`` without its call of ``__init__``
        over every field, a tenth of the cost on every write."""
        unknown = changes.keys() - _HEAD_FIELDS
        if unknown:
            raise TypeError(f"a head has no {', '.join(sorted(unknown))}")
        new = object.__new__(Head)
        fields_ = new.__dict__
        fields_.update(self.__dict__)
        fields_.update(changes)
        return new


_HEAD_FIELDS = frozenset(f.name for f in fields(Head))


def where(game) -> str:
    """The database alias a game lives in (the default one for a game not yet saved)."""
    if isinstance(game, Head):
        return game.db
    return game._state.db or DEFAULT_DB_ALIAS
