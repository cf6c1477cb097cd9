"""The event store: one writer (:func:`write`), replay, snapshots, the head cache and per-seat
redaction.

The store knows streams and versions, not game rules beyond the registry: services decide
what to append, the store makes the append atomic, ordered and idempotent.

A write is one round trip where the database allows it. The version check is part of the
write itself: the head's row is updated only ``WHERE version = expected``, and the events are
inserted only if that update matched, so there is no second read of the head and no lock to
take first. A unique ``(game, seq)`` and ``(game, idempotency_key)`` catch whatever slips
between. On PostgreSQL the update, the events and any seat changes are a single statement
(data-modifying CTEs, atomic in autocommit); on SQLite they are a few statements in one
IMMEDIATE transaction, which serialises writers.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, fields, replace
from datetime import datetime, timedelta
from types import ModuleType
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, DatabaseError, IntegrityError, connections, transaction
from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from core.direct import cursor_of, direct, fetch_one, qmark
from games import logchain
from games.live import push
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat, Snapshot
from games.rules import get_rules
from games.rules.base import State, StateFormatError, state_from_json
from games.store import sharing as head_sharing

logger = logging.getLogger(__name__)


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
            return self.username
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
    fingerprint: str = ""  # the hash of the last event (logchain)
    scorekeeper_id: int | None = (
        None  # a table log's (games.tablelog.services): who sees all while it runs
    )
    # The clock (games.play.clocks), also projected with every append.
    bank_seconds: int | None = None
    increment_seconds: int = 0
    banks: list[float] | None = None
    deadline: datetime | None = None

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


def head_of(game: Game) -> Head:
    """The head of a Game row whose seats (with their users) are loaded or loadable."""
    seats = tuple(
        SeatInfo(
            index=s.index,
            user_id=s.user_id,
            username=s.user.username if s.user_id else None,
            bot=s.bot,
            resigned=s.resigned,
            accepted=s.accepted,
            guest=s.guest,
        )
        for s in sorted(game.seats.all(), key=lambda s: s.index)
    )
    return Head(
        db=where(game),
        id=game.pk,
        slug=game.slug,
        mode=game.mode,
        status=game.status,
        version=game.version,
        num_players=game.num_players,
        options=game.options,
        current_player=game.current_player,
        result=game.result,
        move_seconds=game.move_seconds,
        on_timeout=game.on_timeout,
        created_at=game.created_at,
        moved_at=game.moved_at,
        updated_at=game.updated_at,
        finished_at=game.finished_at,
        seats=seats,
        chain_version=game.chain_version,
        fingerprint=game.fingerprint,
        scorekeeper_id=game.scorekeeper_id,
        bank_seconds=game.bank_seconds,
        increment_seconds=game.increment_seconds,
        banks=game.banks,
        deadline=game.deadline,
    )


def load_head(game_id: int, db: str = DEFAULT_DB_ALIAS) -> Head | None:
    """The current head from the database, in one query (the game and its seated users)."""
    seats = list(
        Seat.objects.using(db)
        .filter(game_id=game_id)
        .select_related("game", "user")
        .order_by("index")
    )
    if not seats:
        return None
    game = seats[0].game
    game._prefetched_objects_cache = {"seats": seats}
    return head_of(game)


# -- writing -------------------------------------------------------------------------------------


# A condition every write in the current context must meet (guarded()): its SQL, with
# Django's placeholders, and its parameters.
_guard: ContextVar[tuple[str, tuple[Any, ...]] | None] = ContextVar("write_guard", default=None)


@contextmanager
def guarded(condition: str, params: Sequence[Any]) -> Iterator[None]:
    """Within: every write is made only if ``condition`` (an SQL expression, with ``%s``
    placeholders for ``params``) holds, checked in the same statement as its version. A write
    it refuses writes nothing and is refused as a stale version is (VersionConflict, or the
    first result of its idempotency key), so a caller who guards must find out which it was.

    The API's token check uses it: a token seen valid before is checked again by the write
    itself rather than by a statement of its own (accounts.authentication)."""
    token = _guard.set((condition, tuple(params)))
    try:
        yield
    finally:
        _guard.reset(token)


def write(
    head: Head,
    expected_version: int,
    events: list[NewEvent],
    *,
    idempotency_key: str | None = None,
    projection: dict[str, Any] | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    now: datetime | None = None,
) -> tuple[AppendResult, Head]:
    """Append ``events`` after ``expected_version`` (at ``now``, by default the present), project them on the game's row (the
    columns in ``projection``; version and moved_at; updated_at once it is ACTIVITY_GRAIN old
    or the status changes; finished_at once finished) and change seats (``seat_changes``:
    index -> {field: value}), all atomically.

    Returns the result and the new head. A stale ``expected_version`` raises VersionConflict
    and writes nothing; an ``idempotency_key`` already used returns that first result
    (``replayed``) and writes nothing.
    """
    if not events:
        raise ValueError("nothing to append")
    now = now or timezone.now()
    first = expected_version + 1
    version = expected_version + len(events)
    columns = {"version": version, "moved_at": now, **(projection or {})}
    if now - head.updated_at >= ACTIVITY_GRAIN or columns.get("status", head.status) != head.status:
        columns["updated_at"] = now
    if columns.get("status") == GameStatus.FINISHED and "finished_at" not in columns:
        columns["finished_at"] = head.finished_at or now
    seat_changes = seat_changes or {}
    time = logchain.time_text(now)
    texts = [logchain.canonical_text(e.data) for e in events]  # hashed and logged alike
    hashes = logchain.chain(
        head.fingerprint,
        [
            (first + i, e.kind, text, e.seat, e.actor_id, time)
            for i, (e, text) in enumerate(zip(events, texts))
        ],
        version=head.chain_version,
    )
    columns["fingerprint"] = hashes[-1]
    rows = [
        (first + i, e.kind, e.data, e.seat, e.actor_id, idempotency_key if i == 0 else None, h)
        for i, (e, h) in enumerate(zip(events, hashes))
    ]
    connection = connections[head.db]
    stamp = connection.ops.adapt_datetimefield_value(now)
    values = [  # each event's, in the order of _EVENT_COLUMNS
        [head.id, seq, kind, text, seat, actor, stamp, first, key, digest]
        for (seq, kind, _, seat, actor, key, digest), text in zip(rows, texts)
    ]
    writer = _WRITERS[connection.vendor]
    try:
        # Inside a caller's transaction the write gets a savepoint, so that a refused write
        # leaves the caller's transaction usable. Alone, PostgreSQL's single statement is
        # atomic, and SQLite's writer makes its own transaction.
        if connection.in_atomic_block:
            with transaction.atomic(using=head.db):
                ids = writer(connection, head, expected_version, columns, values, seat_changes)
        else:
            ids = writer(connection, head, expected_version, columns, values, seat_changes)
    except IntegrityError:
        ids = None  # a seq or a key already logged: someone got in first, or this is a retry
    if ids is None:
        earlier = None if idempotency_key is None else batch_for_key(head, idempotency_key)
        if earlier is not None:
            earlier.head = head
            return earlier, head
        raise VersionConflict(expected_version, current_version(head))
    logged = [
        LoggedEvent(
            pk=pk,
            seq=seq,
            kind=kind,
            data=data,
            seat=seat,
            actor_id=actor,
            created_at=now,
            batch=first,
            idempotency_key=key,
            hash=digest,
        )
        for pk, (seq, kind, data, seat, actor, key, digest) in zip(ids, rows)
    ]
    seats = tuple(
        replace(s, **seat_changes[s.index]) if s.index in seat_changes else s for s in head.seats
    )
    new = head.changed(**columns, seats=seats)
    push.after_write(head, new, logged, connection)  # the streams hear of it once it commits
    return AppendResult(version=version, events=logged, head=new), new


_JSON_COLUMNS = ("result", "options", "banks")

# How stale a game's updated_at (the lists' order) may get before a write moves it. Indexed
# columns left alone let PostgreSQL update the row in place (HOT, no index writes): a move then
# costs about a third of one that rewrites the row's six index entries (bench_store.py).
ACTIVITY_GRAIN = timedelta(seconds=60)


def _column_value(connection, name: str, value: Any) -> Any:
    if name in _JSON_COLUMNS and value is not None:
        return json.dumps(value)
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


# The columns of an event as a write inserts them, each with its PostgreSQL type, in the order
# of the values write() builds for each event: one more column is one more entry in each.
_EVENT_COLUMNS = (
    ("game_id", "bigint"),
    ("seq", "integer"),
    ("kind", "varchar"),
    ("data", "jsonb"),
    ("seat", "smallint"),
    ("actor_id", "integer"),
    ("created_at", "timestamptz"),
    ("batch", "integer"),
    ("idempotency_key", "varchar"),
    ("hash", "varchar"),
)
_EVENT_NAMES = ", ".join(name for name, _ in _EVENT_COLUMNS)
_PG_EVENT_ROW = "(" + ", ".join(f"%s::{kind}" for _, kind in _EVENT_COLUMNS) + ")"
_SQLITE_EVENT_ROW = "(" + ", ".join("%s" for _ in _EVENT_COLUMNS) + ")"


def _write_postgresql(connection, head, expected, columns, values, seat_changes):
    """One statement: the head's row only at the expected version (and where the context
    guards writes, only if its condition holds), the events only if it was, the seats with
    them."""
    guard = _guard.get()
    params: list[Any] = [_column_value(connection, n, v) for n, v in columns.items()]
    params += [head.id, expected]
    if guard is not None:
        params += guard[1]
    for row in values:
        params += row
    for index, change in seat_changes.items():
        params += [*change.values(), head.id, index]
    sql = _postgresql_write_sql(
        tuple(columns),
        len(values),
        tuple((index, tuple(change)) for index, change in seat_changes.items()),
        None if guard is None else guard[0],
    )
    return fetch_one(connection, sql, params)[0] or None


def _head_where(guard: str | None) -> str:
    """Which row of games_game a write updates: the game at the expected version, and where
    the context guards writes (guarded()), only while the guard's condition holds."""
    return "id = %s AND version = %s" + ("" if guard is None else f" AND {guard}")


@functools.lru_cache(maxsize=256)
def _postgresql_write_sql(
    columns: tuple[str, ...],
    events: int,
    seat_changes: tuple[tuple[int, tuple[str, ...]], ...],
    guard: str | None,
) -> str:
    """The write's statement for its shape (the columns projected, how many events, which
    seats change what, the guard), built once per shape: a move writes the same few shapes
    again and again, and psycopg prepares each one."""
    sets = ", ".join(
        f"{name} = %s" + ("::jsonb" if name in _JSON_COLUMNS else "") for name in columns
    )
    where = _head_where(guard)
    ctes = [f"head AS (UPDATE games_game SET {sets} WHERE {where} RETURNING id)"]
    ctes.append(
        f"new AS (INSERT INTO games_event ({_EVENT_NAMES}) SELECT v.* FROM (VALUES "
        + ", ".join([_PG_EVENT_ROW] * events)
        + f") AS v({_EVENT_NAMES}) WHERE EXISTS (SELECT 1 FROM head) RETURNING id, seq)"
    )
    for index, names in seat_changes:
        seat_sets = ", ".join(f"{name} = %s" for name in names)
        ctes.append(
            f"seat{index} AS (UPDATE games_seat SET {seat_sets} WHERE game_id = %s AND"
            f' "index" = %s AND EXISTS (SELECT 1 FROM head) RETURNING id)'
        )
    return "WITH " + ", ".join(ctes) + " SELECT array(SELECT id FROM new ORDER BY seq)"


def _write_sqlite(connection, head, expected, columns, values, seat_changes):
    """A few statements in one IMMEDIATE transaction (the caller's, or one of their own):
    IMMEDIATE transactions serialise the writers, so the head cannot move between them."""
    raw = None if connection.in_atomic_block else direct(connection)
    guard = _guard.get()
    update, insert, *seat_updates = _sqlite_write_sql(
        tuple(columns),
        len(values),
        tuple((index, tuple(c)) for index, c in seat_changes.items()),
        None if guard is None else guard[0],
        raw is not None,
    )
    statements = [
        (
            update,
            [_column_value(connection, n, v) for n, v in columns.items()]
            + [head.id, expected, *(() if guard is None else guard[1])],
        ),
        (insert, [value for row in values for value in row]),
    ]
    statements += [
        (sql, [*change.values(), head.id, index])
        for sql, (index, change) in zip(seat_updates, seat_changes.items())
    ]
    if raw is None:
        # Within the caller's transaction (write() gave it a savepoint), or one of its own.
        with transaction.atomic(using=head.db, savepoint=False), connection.cursor() as cursor:
            return _sqlite_statements(cursor.execute, statements)
    # Alone, straight to sqlite3 (which Django keeps in autocommit): the transaction that
    # Django's atomic() would open and close, without its bookkeeping.
    cursor = cursor_of(connection, raw)
    with connection.wrap_database_errors:
        cursor.execute("BEGIN IMMEDIATE")
        try:
            ids = _sqlite_statements(cursor.execute, statements)
            cursor.execute("COMMIT" if ids is not None else "ROLLBACK")
        except BaseException:
            if raw.in_transaction:
                raw.rollback()
            raise
    return ids


def _sqlite_statements(execute, statements: list[tuple[str, list[Any]]]) -> list[int] | None:
    """The head's update (None if it was not at the expected version), the events' insert
    (their ids in order) and the seats' updates."""
    (update, update_params), (insert, insert_params), *seats = statements
    if execute(update, update_params).rowcount != 1:
        return None
    rows = execute(insert, insert_params).fetchall()
    for sql, params in seats:
        execute(sql, params)
    return [pk for pk, _ in sorted(rows, key=lambda row: row[1])]


@functools.lru_cache(maxsize=256)
def _sqlite_write_sql(
    columns: tuple[str, ...],
    events: int,
    seat_changes: tuple[tuple[int, tuple[str, ...]], ...],
    guard: str | None,
    for_sqlite3: bool,
) -> tuple[str, ...]:
    """SQLite's statements for a write's shape, built once per shape: the head's update, the
    events' insert, the seats' updates. With Django's placeholders for its cursor (which
    converts them, and formats them into the statement it logs), or sqlite3's own."""
    sets = ", ".join(f'"{name}" = %s' for name in columns)
    where = _head_where(guard)
    statements = [
        f"UPDATE games_game SET {sets} WHERE {where}",
        f"INSERT INTO games_event ({_EVENT_NAMES}) VALUES "
        + ", ".join([_SQLITE_EVENT_ROW] * events)
        + " RETURNING id, seq",
    ]
    statements += [
        "UPDATE games_seat SET "
        + ", ".join(f'"{name}" = %s' for name in names)
        + ' WHERE game_id = %s AND "index" = %s'
        for _, names in seat_changes
    ]
    return tuple(qmark(sql) if for_sqlite3 else sql for sql in statements)


_WRITERS = {"postgresql": _write_postgresql, "sqlite": _write_sqlite}


def current_version(game) -> int:
    return (
        Game.objects.using(where(game)).filter(pk=game.pk).values_list("version", flat=True).first()
        or 0
    )


def append(
    game: Game,
    expected_version: int,
    events: list[NewEvent],
    *,
    idempotency_key: str | None = None,
    projection: dict[str, Any] | None = None,
) -> AppendResult:
    """:func:`write` for a Game row, which is updated in place to the new head (for the rare
    writers that hold one: creation, table results, voiding)."""
    result, new = write(
        head_of(game),
        expected_version,
        events,
        idempotency_key=idempotency_key,
        projection=projection,
    )
    if not result.replayed:
        for name in PROJECTED:
            setattr(game, name, getattr(new, name))
    return result


PROJECTED = (
    "version",
    "status",
    "current_player",
    "result",
    "finished_at",
    "moved_at",
    "updated_at",
    "fingerprint",
    "banks",
    "deadline",
)


def create_streams(streams: list[tuple[Game, list[Seat], list[list[NewEvent]]]]) -> None:
    """Write many new streams at once, for a bulk writer (an import): each game (unsaved, its
    projection set by the caller) with its seats and its events, given as the appends that
    would have written them one after another. Sequence numbers run from 1 without gaps, each
    append its own batch, and the version is the last; nothing is written for an existing
    game. Three statements per thousand streams instead of several per stream."""
    if any(game.pk is not None for game, _, _ in streams):
        raise ValueError("create_streams writes new games only")
    for game, _, appends in streams:
        game.version = sum(len(batch) for batch in appends)
    now = timezone.now()
    time = logchain.time_text(now)
    events = []
    for game, _, appends in streams:
        previous = logchain.GENESIS
        seq = 0
        for batch in appends:
            first = seq + 1
            for event in batch:
                seq += 1
                previous = logchain.event_hash(
                    previous,
                    seq,
                    event.kind,
                    event.data,
                    event.seat,
                    time,
                    actor=event.actor_id,
                    chain=game.chain_version,
                )
                events.append(
                    Event(
                        game=game,
                        seq=seq,
                        kind=event.kind,
                        data=event.data,
                        seat=event.seat,
                        actor_id=event.actor_id,
                        created_at=now,
                        batch=first,
                        hash=previous,
                    )
                )
        game.fingerprint = previous
    Game.objects.bulk_create([game for game, _, _ in streams])
    seats = []
    for game, game_seats, _ in streams:
        for seat in game_seats:
            seat.game = game
            seats.append(seat)
    Seat.objects.bulk_create(seats)
    Event.objects.bulk_create(events)


def batch_for_key(game, key: str) -> AppendResult | None:
    """The result of the append that first used ``key``, or None."""
    events = Event.objects.using(where(game))
    first = events.filter(game_id=game.pk, idempotency_key=key).first()
    if first is None:
        return None
    rows = list(events.filter(game_id=game.pk, batch=first.batch).order_by("seq"))
    return AppendResult(version=rows[-1].seq, events=rows, replayed=True)


# -- the chain -----------------------------------------------------------------------------------


class ChainBroken(Exception):
    """A stored log does not hash to its chain: the message names the first event that fails."""


def verify_chain(game) -> str:
    """Check every stored event's hash under the game's chain format (logchain), in order from
    the first, and the game's fingerprint; return the fingerprint, or raise ChainBroken naming
    the first event whose hash is not that of what it holds."""
    previous = logchain.GENESIS
    rows = (
        Event.objects.using(where(game))
        .filter(game_id=game.pk)
        .order_by("seq")
        .values_list("seq", "kind", "data", "seat", "actor_id", "created_at", "hash")
    )
    for number, (seq, kind, data, seat, actor, created_at, digest) in enumerate(rows, start=1):
        if seq != number:
            raise ChainBroken(f"event {number} is missing")
        try:
            computed = logchain.event_hash(
                previous,
                seq,
                kind,
                data,
                seat,
                logchain.time_text(created_at),
                actor=actor,
                chain=game.chain_version,
            )
        except ValueError as exc:
            raise ChainBroken(f"event {seq} ({kind}): cannot be hashed ({exc})") from None
        if computed != digest:
            raise ChainBroken(
                f"event {seq} ({kind}): its hash does not match what it holds (chain format "
                f"{game.chain_version}), so the event or its hash was changed"
            )
        previous = digest
    if previous != game.fingerprint:
        raise ChainBroken("the game's fingerprint is not the hash of its last event")
    return previous


# -- replay --------------------------------------------------------------------------------------


def new_state(game) -> State:
    rules = get_rules(game.slug)
    return rules.new_game(num_players=game.num_players, options=game.options)


# The kinds of event that move the rules, as plain strings: a set lookup, where reading an
# enum's members costs more than the rest of apply_event (bench/bench_replay.py).
_MOVES = frozenset({str(EventKind.ACTION_APPLIED), str(EventKind.CHANCE_RESOLVED)})


def apply_event(state: State, kind: str, data: dict[str, Any]) -> None:
    """Advance a rule state by one stored event. Only actions and chance move the rules."""
    if kind in _MOVES:
        state.apply(data["action"])


undone = (
    logchain.undone
)  # the entries a table log's scorekeeper took back (games.tablelog.services)


def replay(game, events) -> State:
    """The state after ``events`` (ordered, starting at seq 1), without snapshots."""
    events = list(events)
    skipped = undone((e.seq, e.kind, e.data) for e in events)
    state = new_state(game)
    for event in events:
        if event.seq not in skipped:
            apply_event(state, event.kind, event.data)
    return state


class HeadCache:
    """Recently committed versions of games in this process: the head and the rule state, and
    with ``HADAL_SHARED_HEADS`` those the app's other processes committed (games.store.sharing).

    Safe because a committed version of a stream never changes: entries are only added once
    the write that made them has committed, and a version's seats and row are facts of that
    version (every change to them is an event). An entry made under another version of the
    game's rules is ignored. Callers get clones of the state, never the cached object; heads
    are immutable. (Primary keys are never reused, since games are never deleted; after
    restoring a database, restart the app's processes and clear the cache.)
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self._entries: OrderedDict[tuple, tuple[Head, State, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, db: str, game_id: int, version: int) -> tuple[Head, State] | None:
        key = (db, game_id, version)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None:
            if not head_sharing.enabled():
                return None
            entry = head_sharing.shared(_HEAD_SHAPE, db, game_id, version)
            if entry is None:
                return None
            self._keep(key, entry)
        head, state, rules_version = entry
        if get_rules(head.slug).spec.version != rules_version:
            return None
        return head, state.clone()

    def put(self, head: Head, state: State) -> None:
        rules_version = get_rules(head.slug).spec.version
        self._keep((head.db, head.id, head.version), (head, state, rules_version))
        if head_sharing.enabled():
            head_sharing.share(_HEAD_SHAPE, head, state, rules_version)

    def _keep(self, key: tuple, entry: tuple[Head, State, int]) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every head, this process's and those shared before now."""
        with self._lock:
            self._entries.clear()
        head_sharing.forget()


_HEAD_SHAPE = head_sharing.shape_of(tuple(f.name for f in fields(Head)))
state_cache = HeadCache()


def remember_on_commit(head: Head, state: State) -> None:
    """Cache ``head`` and ``state`` once the current transaction commits (at once when there
    is none)."""
    kept = state.clone()
    transaction.on_commit(lambda: state_cache.put(head, kept), using=head.db)


def load_state(game, at: int | None = None) -> State:
    """The rule state after event ``at`` (default: the head), from the newest snapshot that
    holds (see :func:`_from_snapshot`) and the events after it."""
    target = game.version if at is None else at
    hit = state_cache.get(where(game), game.pk, target)
    if hit is not None:
        return hit[1]
    rules = get_rules(game.slug)
    if game.mode == GameMode.LOG:
        # An undo reaches back behind any snapshot: a table log (entered by hand, hundreds
        # of events at most) replays from the start, less the entries taken back.
        rows = list(
            Event.objects.using(where(game))
            .filter(game_id=game.pk, seq__lte=target)
            .order_by("seq")
            .values_list("seq", "kind", "data")
        )
        skipped, state = undone(rows), new_state(game)
        for seq, kind, data in rows:
            if seq not in skipped:
                apply_event(state, kind, data)
        return state
    found, start, unusable = _from_snapshot(game, rules, target)
    state = new_state(game) if found is None else found
    for seq, kind, data in (
        Event.objects.using(where(game))
        .filter(game_id=game.pk, seq__gt=start, seq__lte=target)
        .order_by("seq")
        .values_list("seq", "kind", "data")
    ):
        apply_event(state, kind, data)
        if seq in unusable:
            _replace_snapshot(game, rules, seq, unusable[seq], state)
    return state


def _from_snapshot(
    game, rules: ModuleType, target: int
) -> tuple[State | None, int, dict[int, str]]:
    """The state of the newest usable snapshot at or before ``target`` and its version (None
    and 0 if there is none), and those passed over on the way, each version with the hash of
    its event, for the replay to replace.

    Snapshots are a cache, the events the truth, and the app's database role may rewrite a
    snapshot's row: one is used only if it was taken at the chain's hash of its event and its
    keyed check (:func:`snapshot_mac`) holds. One that fails, or that no longer fits the
    rules' State (written before a refactor), is skipped for the next older one, with a
    warning naming the game. A row written before snapshots were sealed is passed over too.
    """
    below = target + 1
    unusable: dict[int, str] = {}
    logged = Event.objects.using(where(game)).filter(
        game_id=OuterRef("game_id"), seq=OuterRef("version")
    )
    while True:
        snap = (
            Snapshot.objects.using(where(game))
            .filter(game_id=game.pk, rules_version=rules.spec.version, version__lt=below)
            .order_by("-version")
            .annotate(logged_hash=Subquery(logged.values("hash")))
            .only("version", "state", "chain_hash", "mac")
            .first()
        )
        if snap is None:
            return None, 0, unusable
        below = snap.version
        fault = _snapshot_fault(game.pk, rules.spec.version, snap)
        if fault is None:
            try:
                return state_from_json(rules, json.loads(snap.state)), snap.version, unusable
            except (json.JSONDecodeError, StateFormatError) as exc:
                fault = str(exc)
        if not snap.mac:
            logger.info("game %s: snapshot at version %s unsealed, replaced", game.pk, snap.version)
        else:
            logger.warning(
                "game %s: snapshot at version %s ignored: %s",
                game.pk,
                snap.version,
                fault,
            )
        if snap.logged_hash:
            unusable[snap.version] = snap.logged_hash


def snapshot_mac(
    game_id: int,
    version: int,
    rules_version: int,
    chain_hash: str,
    state_text: str,
    *,
    secret: str | None = None,
) -> str:
    """A snapshot's keyed check: HMAC-SHA256 under a key drawn from ``secret`` (SECRET_KEY
    by default) over everything its row says, the state as the text the row holds. The app's
    database role can rewrite a row, never make the check of what it wrote."""
    message = f"{game_id}:{version}:{rules_version}:{chain_hash}:{state_text}".encode()
    return salted_hmac(_SNAPSHOT_SALT, message, secret, algorithm="sha256").hexdigest()


_SNAPSHOT_SALT = "games.store.snapshot"


def _snapshot_fault(game_id: int, rules_version: int, snap: Snapshot) -> str | None:
    """Why a snapshot row may not be used, or None if it holds."""
    if not snap.mac:
        return "written before snapshots were sealed"
    if snap.chain_hash != snap.logged_hash:
        return "taken at a chain hash that is not the log's at its version"
    # A key rotated out (SECRET_KEY_FALLBACKS) still vouches for what it sealed.
    for secret in (settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS):
        check = snapshot_mac(
            game_id, snap.version, rules_version, snap.chain_hash, snap.state, secret=secret
        )
        if constant_time_compare(check, snap.mac):
            return None
    return "its keyed check does not match what it holds: the row was changed"


def _snapshot_row(
    game, rules_version: int, version: int, chain_hash: str, state: State
) -> Snapshot:
    # The text is what the check covers, byte for byte, so a read checks what it reads
    # without encoding the state again (that cost as much as decoding it).
    text = logchain.canonical_text(state.to_json())
    return Snapshot(
        game_id=game.pk,
        version=version,
        rules_version=rules_version,
        state=text,
        chain_hash=chain_hash,
        mac=snapshot_mac(game.pk, version, rules_version, chain_hash, text),
    )


def maybe_snapshot(game, state: State, previous_version: int) -> None:
    """Write a snapshot when the append crossed a multiple of HADAL_SNAPSHOT_EVERY, sealed
    with the chain's hash at the head (``game.fingerprint``, the hash of event
    ``game.version``)."""
    every = settings.HADAL_SNAPSHOT_EVERY
    if game.mode == GameMode.LOG:
        return  # load_state replays a table log from the start
    if every <= 0 or game.version // every == previous_version // every:
        return
    # One statement: a snapshot someone wrote first is as good as ours (ON CONFLICT DO
    # NOTHING), where get_or_create read, then wrote in a savepoint of its own. A row that
    # is not (planted ahead of the game, say) is replaced by the first read past it.
    rules_version = get_rules(game.slug).spec.version
    Snapshot.objects.using(where(game)).bulk_create(
        [_snapshot_row(game, rules_version, game.version, game.fingerprint, state)],
        ignore_conflicts=True,
    )


def _replace_snapshot(game, rules: ModuleType, version: int, chain_hash: str, state: State) -> None:
    """Put the true state over a snapshot row found unusable, as the replay passes its
    version, so that it is not met again: a cache row rewritten, never an event. A read
    that cannot write (a lock, a read-only database) still answers."""
    row = _snapshot_row(game, rules.spec.version, version, chain_hash, state)
    try:
        with transaction.atomic(using=where(game)):
            Snapshot.objects.using(where(game)).bulk_create(
                [row],
                update_conflicts=True,
                unique_fields=["game", "version", "rules_version"],
                update_fields=["state", "chain_hash", "mac"],
            )
    except DatabaseError:
        logger.warning(
            "game %s: could not replace the snapshot at version %s", game.pk, version, exc_info=True
        )


# -- what each reader may see ---------------------------------------------------------------------


def visible_data(event, seats: set[int], game_over_public: bool) -> dict[str, Any]:
    """The event's data as a reader sitting at ``seats`` may see it."""
    data = event.data
    private_to = data.get("private_to")
    if private_to is None:
        return data
    if game_over_public or seats.intersection(private_to):
        return {"action": data["action"]}
    return {"action": data["public"]}
