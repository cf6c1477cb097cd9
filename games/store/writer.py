"""The one writer: :func:`write` appends events after an expected version, projects them on the
game's row and changes its seats, atomically; :func:`append` is the same for a Game row, and
:func:`create_streams` writes many new games at once. Those who want to hear of a write
subscribe with :func:`on_write`, or, to write something of their own in the same transaction,
with :func:`within_write`; the writer knows none of them.

The version check is part of the write itself: the head's row is updated only ``WHERE
version = expected`` (and only while the write's guard holds), and the events are inserted
only if that update matched, so there is no second read of the head and no lock to take
first. A unique ``(game, seq)`` and ``(game, idempotency_key)`` catch whatever slips between.
Each backend's statements are in a module of its own (games.store.postgresql, .sqlite).
"""

from __future__ import annotations

import functools
import json
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, connections, transaction
from django.utils import timezone

from games import logchain
from games.models import Event, Game, GameStatus, Seat
from games.store import postgresql, sqlite
from games.store.columns import JSON_COLUMNS
from games.store.heads import head_of
from games.store.types import (
    AppendResult,
    Guard,
    Head,
    LoggedEvent,
    NewEvent,
    VersionConflict,
    where,
)

logger = logging.getLogger(__name__)

# How stale a game's updated_at (the lists' order) may get before a write moves it. Indexed
# columns left alone let PostgreSQL update the row in place (HOT, no index writes): a move then
# costs about a third of one that rewrites the row's six index entries (bench_store.py).
ACTIVITY_GRAIN = timedelta(seconds=60)

_WRITERS = {"postgresql": postgresql.write, "sqlite": sqlite.write}


# -- who hears of a write -------------------------------------------------------------------------

Receiver = Callable[[Head, Head, list[LoggedEvent], Any], None]
_receivers: list[Receiver] = []


def on_write(receiver: Receiver) -> None:
    """Call ``receiver(before, after, events, connection)`` after every write that committed:
    the heads before and after it, the events it logged and the connection that wrote them
    (looking a connection up by its alias costs 2 us). It runs in the writer's thread once
    the write's transaction has committed (at once for a write alone), so it must be quick;
    what it raises is logged, and the write stands. Subscribing twice is subscribing once.

    A list and a loop rather than a Signal: it runs on every move, and with one receiver
    Signal.send costs 1.9 us where the loop costs 0.1 us (timeit, 2026-12-04)."""
    if receiver not in _receivers:
        _receivers.append(receiver)


def _announce(connection, before: Head, after: Head, events: list[LoggedEvent]) -> None:
    def tell() -> None:
        for receiver in _receivers:
            try:
                receiver(before, after, events, connection)
            except Exception:
                logger.exception("game %s: %r failed on hearing of a write", after.id, receiver)

    if connection.in_atomic_block:
        connection.on_commit(tell)
    else:
        tell()  # the write, alone, has committed already


Kinds = frozenset[str]
_within: list[tuple[Receiver, Kinds]] = []
_within_kinds: set[str] = set()


def within_write(receiver: Receiver, kinds: Kinds) -> None:
    """Call ``receiver(before, after, events, connection)`` inside the transaction of every
    write that logs an event of one of ``kinds``, once the events are in: what it writes
    commits with them or not at all, and what it raises undoes the write. A write of such an
    event that was alone (not in a caller's transaction) is given one of its own; the others,
    the moves in between, stay single statements. For an outbox (league.webhooks.outbox):
    the news of a game's end must never go missing, nor be sent for an end rolled back."""
    if all(r is not receiver for r, _ in _within):
        _within.append((receiver, frozenset(kinds)))
        _within_kinds.update(kinds)


def _wanted_within(events: list[NewEvent]) -> bool:
    return bool(_within_kinds) and any(e.kind in _within_kinds for e in events)


def _tell_within(connection, before: Head, after: Head, events: list[LoggedEvent]) -> None:
    logged = {e.kind for e in events}
    for receiver, kinds in _within:
        if kinds & logged:
            receiver(before, after, events, connection)


# -- writing --------------------------------------------------------------------------------------


def write(
    head: Head,
    expected_version: int,
    events: list[NewEvent],
    *,
    idempotency_key: str | None = None,
    projection: dict[str, Any] | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    now: datetime | None = None,
    guard: Guard | None = None,
) -> tuple[AppendResult, Head]:
    """Append ``events`` after ``expected_version`` (at ``now``, by default the present),
    project them on the game's row (the columns in ``projection``; version and moved_at;
    updated_at once it is ACTIVITY_GRAIN old or the status changes; finished_at once finished)
    and change seats (``seat_changes``: index -> {field: value}), all atomically, and only
    while ``guard``'s condition holds, if one is given.

    Returns the result and the new head. A stale ``expected_version`` (or a guard that does
    not hold) raises VersionConflict and writes nothing; an ``idempotency_key`` already used
    returns that first result (``replayed``) and writes nothing.
    """
    if not events:
        raise ValueError("nothing to append")
    write_them = functools.partial(
        _write,
        head,
        expected_version,
        events,
        idempotency_key=idempotency_key,
        projection=projection,
        seat_changes=seat_changes,
        now=now,
        guard=guard,
    )
    if _wanted_within(events) and not connections[head.db].in_atomic_block:
        # An in-transaction hook wants this write: it gets a transaction of its own.
        with transaction.atomic(using=head.db):
            return write_them()
    return write_them()


def _write(
    head: Head,
    expected_version: int,
    events: list[NewEvent],
    *,
    idempotency_key: str | None = None,
    projection: dict[str, Any] | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    now: datetime | None = None,
    guard: Guard | None = None,
) -> tuple[AppendResult, Head]:
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
    values = [  # each event's, in the order of games.store.columns.EVENT_COLUMNS
        [head.id, seq, kind, text, seat, actor, stamp, first, key, digest]
        for (seq, kind, _, seat, actor, key, digest), text in zip(rows, texts)
    ]
    sets = {name: _column_value(connection, name, value) for name, value in columns.items()}
    writer = _WRITERS[connection.vendor]
    args = (connection, head.id, expected_version, sets, values, seat_changes, guard)
    try:
        # Inside a caller's transaction the write gets a savepoint, so that a refused write
        # leaves the caller's transaction usable. Alone, PostgreSQL's single statement is
        # atomic, and SQLite's writer makes its own transaction.
        if connection.in_atomic_block:
            with transaction.atomic(using=head.db):
                ids = writer(*args)
        else:
            ids = writer(*args)
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
    if _within:
        _tell_within(connection, head, new, logged)
    if _receivers:
        _announce(connection, head, new, logged)
    return AppendResult(version=version, events=logged, head=new), new


def _column_value(connection, name: str, value: Any) -> Any:
    if name in JSON_COLUMNS and value is not None:
        return json.dumps(value)
    if isinstance(value, datetime):
        return connection.ops.adapt_datetimefield_value(value)
    return value


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
    guard: Guard | None = None,
) -> AppendResult:
    """:func:`write` for a Game row, which is updated in place to the new head (for the rare
    writers that hold one: creation, table results, voiding)."""
    result, new = write(
        head_of(game),
        expected_version,
        events,
        idempotency_key=idempotency_key,
        projection=projection,
        guard=guard,
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
    "paused",
)


def batch_for_key(game, key: str) -> AppendResult | None:
    """The result of the append that first used ``key``, or None."""
    events = Event.objects.using(where(game))
    first = events.filter(game_id=game.pk, idempotency_key=key).first()
    if first is None:
        return None
    rows = list(events.filter(game_id=game.pk, batch=first.batch).order_by("seq"))
    return AppendResult(version=rows[-1].seq, events=rows, replayed=True)


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
