"""The event store's contract on every backend, in the manner of pyeventsourcing's recorder
tests: one suite, run against SQLite and PostgreSQL (PostgreSQL in CI), with real concurrent
connections.

- Writers racing at one version: exactly one wins, the rest conflict, the log has no gaps.
- Writers racing with one idempotency key: one batch is written, every writer gets it back.
- Events cannot be updated, deleted or truncated, by any route.
- Replaying the log gives the state the projection says.
- A snapshot changed in the database is never served as the state.
"""

from __future__ import annotations

import json
import logging
import os
import random
import threading

import pytest
from django.conf import settings
from django.db import DatabaseError, connections, transaction

from games import store
from games.models import Event, EventKind, Game, Snapshot
from games.rules import CHANCE, get_rules, registered
from games.store import NewEvent, VersionConflict

DSA = "deep-sea-adventure"
WRITERS = 8
APPENDS = 25


NO_POSTGRES = not (
    os.environ.get("DATABASE_URL", "").startswith("postgres")
    or os.environ.get("HADAL_STORE_POSTGRES_URL")
)


def backend(alias, *marks):
    return pytest.param(
        alias,
        id=alias.removeprefix("store_"),
        marks=[*marks, pytest.mark.django_db(transaction=True, databases=[alias])],
    )


@pytest.fixture(
    params=[
        backend("store_sqlite"),
        backend(
            "store_postgres",
            pytest.mark.skipif(
                NO_POSTGRES,
                reason="needs PostgreSQL: set DATABASE_URL=postgres://... (.ci/run does) or "
                "HADAL_STORE_POSTGRES_URL",
            ),
        ),
    ]
)
def db_alias(request):
    assert request.param in settings.DATABASES
    return request.param


def new_stream(alias: str, slug: str = DSA) -> Game:
    rules = get_rules(slug)
    game = Game.objects.using(alias).create(
        slug=slug, rules_version=rules.spec.version, options={}, num_players=2
    )
    store.append(
        game,
        0,
        [NewEvent(EventKind.GAME_CREATED, {"game": slug})],
        projection={"current_player": 0},
    )
    return game


def head(alias: str, game: Game) -> Game:
    return Game.objects.using(alias).get(pk=game.pk)


def race(alias: str, attempt, writers: int = WRITERS) -> list:
    """Run ``attempt()`` in ``writers`` threads at once, each on its own connection."""
    barrier = threading.Barrier(writers)
    outcomes: list = []
    lock = threading.Lock()

    def writer():
        try:
            barrier.wait()
            outcome = attempt()
        except VersionConflict as exc:
            outcome = exc
        finally:
            connections[alias].close()
        with lock:
            outcomes.append(outcome)

    threads = [threading.Thread(target=writer) for _ in range(writers)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return outcomes


def continue_event() -> NewEvent:
    return NewEvent(EventKind.ACTION_APPLIED, {"action": {"type": "continue"}}, seat=0)


def test_writers_racing_at_one_version_exactly_one_wins(db_alias):
    game = new_stream(db_alias)
    outcomes = race(
        db_alias,
        lambda: store.append(head(db_alias, game), 1, [continue_event(), continue_event()]),
    )
    won = [o for o in outcomes if isinstance(o, store.AppendResult)]
    lost = [o for o in outcomes if isinstance(o, VersionConflict)]
    assert len(won) == 1 and len(lost) == WRITERS - 1
    assert all(o.current == 3 or o.current == 1 for o in lost)
    seqs = list(
        Event.objects.using(db_alias)
        .filter(game=game)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert seqs == [1, 2, 3]
    assert head(db_alias, game).version == 3


def test_every_racing_writer_at_its_own_version_gets_in_in_turn(db_alias):
    """Writers that each retry on a conflict all get in, one after another, with no gaps."""
    game = new_stream(db_alias)

    def append_with_retry():
        while True:
            current = head(db_alias, game)
            try:
                return store.append(current, current.version, [continue_event()])
            except VersionConflict:
                continue

    outcomes = race(db_alias, append_with_retry)
    assert sorted(o.version for o in outcomes) == list(range(2, WRITERS + 2))
    seqs = list(
        Event.objects.using(db_alias)
        .filter(game=game)
        .order_by("seq")
        .values_list("seq", flat=True)
    )
    assert seqs == list(range(1, WRITERS + 2))


def test_writers_on_streams_of_their_own_never_fail(db_alias):
    """Many writers at once, none getting in another's way: every append goes in (on SQLite,
    IMMEDIATE transactions queue them instead of failing with "database is locked")."""
    streams = [new_stream(db_alias) for _ in range(WRITERS)]
    failures: list[Exception] = []

    def appends(game):
        for _ in range(APPENDS):
            try:
                # A transaction that reads before it writes, as a service's may: on SQLite a
                # deferred one cannot take the write lock while another writer holds it.
                with transaction.atomic(using=db_alias):
                    current = head(db_alias, game)
                    store.append(current, current.version, [continue_event()])
            except Exception as exc:  # noqa: BLE001 - the failure is the finding
                failures.append(exc)
        connections[db_alias].close()

    threads = [threading.Thread(target=appends, args=(g,)) for g in streams]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    assert [head(db_alias, g).version for g in streams] == [1 + APPENDS] * WRITERS


def test_writers_racing_with_one_key_write_one_batch(db_alias):
    game = new_stream(db_alias)
    outcomes = race(
        db_alias,
        lambda: store.append(
            head(db_alias, game), 1, [continue_event(), continue_event()], idempotency_key="k"
        ),
    )
    results = [o for o in outcomes if isinstance(o, store.AppendResult)]
    # The key is looked up under the lock before the version is checked, so even a writer
    # that read the head after the winner committed gets the winner's batch back.
    assert len(results) == WRITERS
    assert sum(not r.replayed for r in results) == 1
    assert {r.version for r in results} == {3}
    assert {tuple(e.pk for e in r.events) for r in results} == {
        tuple(
            Event.objects.using(db_alias)
            .filter(game=game, seq__gt=1)
            .order_by("seq")
            .values_list("pk", flat=True)
        )
    }
    assert Event.objects.using(db_alias).filter(game=game).count() == 3


def test_a_write_refused_after_its_head_was_updated_leaves_nothing(db_alias):
    """Alone (no caller's transaction), a write is a transaction of its own: when its events
    are refused after the head's row was updated (a key logged earlier, met by the unique
    index), the row is as it was and the first batch comes back. SQLite's write goes straight
    to sqlite3 there, around Django's cursor, and must still roll back and still have its
    error translated for the store to see the duplicate."""
    from tests.sql import through_djangos_cursor

    game = new_stream(db_alias)
    first = store.append(head(db_alias, game), 1, [continue_event()], idempotency_key="k")
    store.append(head(db_alias, game), 2, [continue_event()])
    before = head(db_alias, game)
    assert not connections[db_alias].in_atomic_block

    with through_djangos_cursor() as through_django:
        again = store.append(before, 3, [continue_event(), continue_event()], idempotency_key="k")
    assert not [sql for sql in through_django if "games_event (" in sql]
    assert again.replayed and [e.pk for e in again.events] == [e.pk for e in first.events]
    after = head(db_alias, game)
    assert (after.version, after.fingerprint, after.moved_at) == (
        3,
        before.fingerprint,
        before.moved_at,
    )
    assert Event.objects.using(db_alias).filter(game=game).count() == 3


def test_a_write_takes_one_path_whether_or_not_its_queries_are_watched(db_alias):
    """Counted (CaptureQueriesContext, as assertNumQueries and django_assert_num_queries
    count), a write still goes straight to the driver, and every statement it sends is
    counted: alone, PostgreSQL's one statement, SQLite's transaction and its two statements;
    in a caller's transaction, the savepoint around them too."""
    from django.test.utils import CaptureQueriesContext

    from tests.sql import through_djangos_cursor

    game = new_stream(db_alias)
    connection = connections[db_alias]
    at = store.head_of(head(db_alias, game))  # read before the count: the write alone
    with through_djangos_cursor() as through_django, CaptureQueriesContext(connection) as seen:
        _, at = store.write(at, 1, [continue_event()])
    assert through_django == []
    sent = [q["sql"].split(" ")[0] for q in seen.captured_queries]
    if connection.vendor == "postgresql":
        assert sent == ["WITH"]
    else:
        assert sent == ["BEGIN", "UPDATE", "INSERT", "COMMIT"]
        assert f"WHERE id = {game.pk} AND version = 1" in seen.captured_queries[1]["sql"]

    with CaptureQueriesContext(connection) as seen, transaction.atomic(using=db_alias):
        with through_djangos_cursor() as through_django:
            store.write(at, 2, [continue_event()])
    assert [sql.split(" ")[0] for sql in through_django] == ["SAVEPOINT", "RELEASE"]
    sent = [q["sql"].split(" ")[0] for q in seen.captured_queries]
    written = ["WITH"] if connection.vendor == "postgresql" else ["UPDATE", "INSERT"]
    assert sent == ["BEGIN", "SAVEPOINT", *written, "RELEASE", "COMMIT"]


# A condition for a guarded write that tests can make hold or fail: the game has that many seats.
SEATS_ARE = 'EXISTS (SELECT 1 FROM games_game g WHERE g."id" = %s AND g.num_players = %s)'


def test_a_guarded_write_writes_only_while_its_guard_holds(db_alias):
    game = new_stream(db_alias)
    holds, fails = store.Guard(SEATS_ARE, (game.pk, 2)), store.Guard(SEATS_ARE, (game.pk, 3))
    first = store.append(head(db_alias, game), 1, [continue_event()], guard=holds)
    assert first.version == 2
    with pytest.raises(VersionConflict) as refused:
        store.append(head(db_alias, game), 2, [continue_event()], guard=fails)
    assert (refused.value.expected, refused.value.current) == (2, 2)
    assert head(db_alias, game).version == 2
    assert Event.objects.using(db_alias).filter(game=game).count() == 2
    # Refused as a stale version is: a key used before still gives its first result.
    keyed = store.append(head(db_alias, game), 2, [continue_event()], idempotency_key="k")
    again = store.append(head(db_alias, game), 3, [continue_event()], idempotency_key="k")
    assert again.replayed and [e.pk for e in again.events] == [e.pk for e in keyed.events]
    with transaction.atomic(using=db_alias):  # and in a caller's transaction, which goes on
        with pytest.raises(VersionConflict):
            store.append(head(db_alias, game), 3, [continue_event()], guard=fails)
        store.append(head(db_alias, game), 3, [continue_event()], guard=holds)
    assert head(db_alias, game).version == 4


def test_a_receiver_hears_of_a_write_once_it_has_committed(db_alias, monkeypatch):
    """Alone and in a caller's transaction: what a receiver is told is in the database for
    every other connection to read, and a write rolled back is never told."""
    from games.store import writer

    game = new_stream(db_alias)
    heard: list[tuple] = []

    def committed_events() -> int:
        counted: list[int] = []

        def count() -> None:
            counted.append(Event.objects.using(db_alias).filter(game_id=game.pk).count())
            connections[db_alias].close()

        reader = threading.Thread(target=count)  # a connection of its own
        reader.start()
        reader.join()
        return counted[0]

    def receiver(before, after, events, connection) -> None:
        heard.append((before.version, after.version, [e.seq for e in events], committed_events()))
        assert connection is connections[db_alias]

    monkeypatch.setattr(writer, "_receivers", [receiver])
    store.append(head(db_alias, game), 1, [continue_event(), continue_event()])
    assert heard == [(1, 3, [2, 3], 3)]
    with transaction.atomic(using=db_alias):
        store.append(head(db_alias, game), 3, [continue_event()])
        assert len(heard) == 1
    assert heard[1:] == [(3, 4, [4], 4)]
    with pytest.raises(RuntimeError), transaction.atomic(using=db_alias):
        store.append(head(db_alias, game), 4, [continue_event()])
        raise RuntimeError("the request failed after the write")
    assert len(heard) == 2


ATTEMPTS = {
    "update": "UPDATE games_event SET kind = 'Forged' WHERE game_id = %s",
    "delete": "DELETE FROM games_event WHERE game_id = %s",
    "truncate": "TRUNCATE games_event CASCADE",
}


@pytest.mark.parametrize("attempt", ATTEMPTS)
def test_events_cannot_be_updated_deleted_or_truncated(db_alias, attempt):
    game = new_stream(db_alias)
    store.append(head(db_alias, game), 1, [continue_event()])
    before = list(Event.objects.using(db_alias).filter(game=game).order_by("seq").values())
    connection = connections[db_alias]
    sql = ATTEMPTS[attempt]
    if attempt == "truncate" and connection.vendor == "sqlite":
        sql = ATTEMPTS["delete"]  # SQLite's TRUNCATE is a DELETE without a WHERE
        sql = sql.split(" WHERE")[0]
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic(using=db_alias), connection.cursor() as cursor:
            cursor.execute(sql, [game.pk] * sql.count("%s"))
    with pytest.raises(Exception, match="append-only"):
        with transaction.atomic(using=db_alias):
            Event._base_manager.using(db_alias).filter(game=game).update(kind="Forged")
    after = list(Event.objects.using(db_alias).filter(game=game).order_by("seq").values())
    assert after == before


def test_replaying_the_log_gives_the_state_the_projection_says(db_alias):
    game = new_stream(db_alias)
    rng = random.Random(7)
    state = store.new_state(game)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcome = rng.choice(state.legal_actions())
            kind, seat = EventKind.CHANCE_RESOLVED, None
        else:
            outcome = rng.choice(state.legal_actions())
            kind, seat = EventKind.ACTION_APPLIED, state.current_player
        state.apply(outcome)
        projection = {"current_player": None if state.is_terminal() else state.current_player}
        store.append(
            head(db_alias, game),
            head(db_alias, game).version,
            [NewEvent(kind, {"action": outcome}, seat=seat)],
            projection=projection,
        )
    final = head(db_alias, game)
    replayed = store.replay(final, Event.objects.using(db_alias).filter(game=game).order_by("seq"))
    assert replayed.is_terminal() and final.current_player is None
    assert replayed.view(None) == state.view(None)
    assert final.version == Event.objects.using(db_alias).filter(game=game).count()
    store.state_cache.clear()
    assert store.load_state(final).view(None) == state.view(None)


def play_with_snapshots(alias: str, every: int, slug: str = DSA) -> tuple[Game, object]:
    """A stream played with random legal moves through store.append, a snapshot written
    wherever an append crosses a multiple of ``every`` (as a move's service writes them)."""
    game = new_stream(alias, slug)
    rng = random.Random(11)
    state = store.new_state(game)
    while not state.is_terminal() and head(alias, game).version < 4 * every:
        outcome = rng.choice(state.legal_actions())
        chance = state.current_player == CHANCE
        seat = None if chance else state.current_player
        state.apply(outcome)
        kind = EventKind.CHANCE_RESOLVED if chance else EventKind.ACTION_APPLIED
        current = head(alias, game)
        previous = current.version
        store.append(current, previous, [NewEvent(kind, {"action": outcome}, seat=seat)])
        store.maybe_snapshot(current, state, previous)  # append moved it to the new head
    return head(alias, game), state


def test_a_snapshot_changed_in_the_database_is_not_served(db_alias, settings, caplog):
    """The app's role may rewrite a snapshot's row: a forged one is not used, the read gives
    the log's state, says so once and puts the true state in the row's place."""
    settings.HADAL_SNAPSHOT_EVERY = 5
    game, state = play_with_snapshots(db_alias, 5)
    snapshots = Snapshot.objects.using(db_alias).filter(game_id=game.pk)
    newest = snapshots.latest("version")
    assert newest.version > 15 and newest.mac and newest.chain_hash
    forged = {**json.loads(newest.state), "_air": 1}
    snapshots.filter(pk=newest.pk).update(state=json.dumps(forged))
    with caplog.at_level(logging.WARNING, logger="games.store"):
        for _ in range(3):
            store.state_cache.clear()
            assert store.load_state(game).to_json() == state.to_json()
    assert caplog.text.count(f"game {game.pk}: snapshot at version {newest.version} ignored") == 1
    replaced = json.loads(snapshots.get(pk=newest.pk).state)
    assert replaced == store.load_state(game, at=newest.version).to_json()


@pytest.mark.parametrize("slug", sorted(registered()))
def test_every_snapshot_the_store_writes_reads_back_sealed(db_alias, slug, settings, caplog):
    """What a database gives back still matches the check the store sealed it with, for every
    game's state: the text as written (jsonb would reorder keys and spell numbers its way)."""
    settings.HADAL_SNAPSHOT_EVERY = 5
    game, state = play_with_snapshots(db_alias, 5, slug)
    snapshots = Snapshot.objects.using(db_alias).filter(game_id=game.pk)
    assert snapshots.count() >= 3
    for snapshot in snapshots:
        store.state_cache.clear()
        with caplog.at_level(logging.INFO, logger="games.store"):
            store.load_state(game, at=snapshot.version)
    assert caplog.text == ""
