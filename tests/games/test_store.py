"""The event store's contract, on whichever database the suite runs against (SQLite by
default, PostgreSQL in CI)."""

from __future__ import annotations

import dataclasses
import json
import logging
import threading

import pytest
from django.db import connection, transaction

from games import logchain, store
from games.models import AppendOnlyError, Event, EventKind, Game, Snapshot
from games.play import reads, services
from games.rules import get_rules
from games.rules.base import state_from_json
from games.store import NewEvent, VersionConflict, states
from tests.games.shown import shown

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )


def continue_event(seat: int = 0) -> NewEvent:
    return NewEvent(EventKind.ACTION_APPLIED, {"action": {"type": "continue"}}, seat=seat)


def roll_event(a: int, b: int) -> NewEvent:
    return NewEvent(EventKind.CHANCE_RESOLVED, {"action": {"type": "roll", "dice": [a, b]}})


def test_game_created_is_event_one_and_the_head_projects_it(game):
    events = list(game.events.all())
    assert [e.kind for e in events] == ["GameCreated"]
    assert events[0].seq == 1 and shown(events[0])["seats"][1]["user"] == "bob"
    assert game.version == 1 and game.current_player == 0 and game.status == "active"


def test_append_numbers_events_without_gaps_and_moves_the_head(game):
    result = store.append(
        game, 1, [continue_event(), roll_event(1, 2)], projection={"current_player": 0}
    )
    assert result.version == 3
    assert list(game.events.values_list("seq", flat=True)) == [1, 2, 3]
    assert Game.objects.get(pk=game.pk).version == 3
    assert {e.batch for e in result.events} == {2}


def test_a_stale_version_conflicts_and_writes_nothing(game):
    store.append(game, 1, [continue_event()])
    with pytest.raises(VersionConflict) as caught:
        store.append(game, 1, [continue_event()], projection={"current_player": 1})
    assert caught.value.current == 2
    assert Event.objects.filter(game=game).count() == 2
    head = Game.objects.get(pk=game.pk)
    assert head.version == 2 and head.current_player == 0


def test_a_repeated_idempotency_key_returns_the_first_result(game):
    first = store.append(game, 1, [continue_event(), roll_event(2, 2)], idempotency_key="k1")
    again = store.append(game, 1, [continue_event()], idempotency_key="k1")
    assert again.replayed and again.version == first.version == 3
    assert [e.seq for e in again.events] == [2, 3]
    assert Event.objects.filter(game=game).count() == 3


def test_a_changed_head_is_what_dataclasses_replace_would_make(game):
    head = store.head_of(game)
    changes = {"version": 9, "current_player": 1, "fingerprint": "f" * 64, "seats": ()}
    new = head.changed(**changes)
    assert new == dataclasses.replace(head, **changes)
    assert head.version == game.version and head.seats  # the old head is untouched
    with pytest.raises(TypeError, match="no colour"):
        head.changed(colour="red")
    with pytest.raises(dataclasses.FrozenInstanceError):
        new.version = 10  # type: ignore[misc]


def test_events_refuse_update_and_delete_through_the_model(game):
    event = game.events.get(seq=1)
    event.kind = "Tampered"
    with pytest.raises(AppendOnlyError):
        event.save()
    with pytest.raises(AppendOnlyError):
        event.delete()
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).update(kind="Tampered")
    with pytest.raises(AppendOnlyError):
        Event.objects.filter(game=game).delete()
    assert game.events.get(seq=1).kind == "GameCreated"


def play_random_moves(game, count: int) -> None:
    """Drive a game through the service with the first legal action of whoever is to act."""
    seat_users = {s.index: s.user for s in game.seats.all()}
    for _ in range(count):
        game.refresh_from_db()
        if game.status != "active":
            return
        seat = game.current_player
        action = reads.game_legal_actions(game=game, user=seat_users[seat], seat=seat)[0]
        services.game_action_append(
            game=game,
            seat=seat,
            expected_version=game.version,
            action=action,
            user=seat_users[seat],
        )


def test_snapshots_are_written_every_n_events_and_reads_match_a_full_replay(game, settings):
    settings.HADAL_SNAPSHOT_EVERY = 5
    play_random_moves(game, 12)
    game.refresh_from_db()
    versions = list(Snapshot.objects.filter(game=game).values_list("version", flat=True))
    assert versions and all(v >= 5 for v in versions)
    assert len(versions) == len({v // 5 for v in versions})
    full = store.replay(game, game.events.order_by("seq"))
    for seat in (0, 1, None):
        assert store.load_state(game).view(seat) == full.view(seat)
    middle = game.version - 3
    partial = store.replay(game, game.events.filter(seq__lte=middle).order_by("seq"))
    assert store.load_state(game, at=middle).view(None) == partial.view(None)


def test_a_snapshot_written_twice_keeps_the_first_and_the_transaction_goes_on(game, settings):
    """Two writers crossing the same multiple (a retry, a bot and a sweep) both try to keep a
    snapshot: the second changes nothing and raises nothing, even inside a transaction."""
    from django.db import transaction

    settings.HADAL_SNAPSHOT_EVERY = 5
    play_random_moves(game, 6)
    game.refresh_from_db()
    snapshots = Snapshot.objects.filter(game=game)
    first, count = snapshots.order_by("version").first(), snapshots.count()
    state = store.load_state(game, at=first.version)
    with transaction.atomic():
        store.maybe_snapshot(game_at(game, first.version), state, first.version - 1)
        assert snapshots.count() == count
    kept = snapshots.get(version=first.version)
    assert (kept.pk, kept.state) == (first.pk, first.state)


def game_at(game, version):
    """The game's row as it was at ``version`` (for a write that crossed it)."""
    game.version = version
    return game


def test_a_snapshot_of_another_rules_version_is_never_read(game, settings, monkeypatch):
    settings.HADAL_SNAPSHOT_EVERY = 3
    play_random_moves(game, 6)
    game.refresh_from_db()
    assert game.rules_version == get_rules("deep-sea-adventure").spec.version
    snaps = Snapshot.objects.filter(game=game, rules_version=game.rules_version)
    assert snaps.exists()
    snaps.update(rules_version=game.rules_version - 1)  # as if taken under version 1's rules
    calls = []
    original = states.new_state
    monkeypatch.setattr(states, "new_state", lambda g: calls.append(g.pk) or original(g))
    state = store.load_state(game)
    assert calls == [game.pk]  # replayed from the start, not from the other version's snapshot
    assert state.view(None) == store.replay(game, game.events.order_by("seq")).view(None)


def test_a_snapshot_is_written_at_the_fiftieth_event_as_json(game, settings):
    settings.HADAL_SNAPSHOT_EVERY = 50
    while game.version < 50:
        play_random_moves(game, 1)
    snap = Snapshot.objects.get(game=game)
    assert 50 <= snap.version == game.version  # the append that crossed 50, at its end
    with connection.cursor() as cursor:
        cursor.execute("SELECT state FROM games_snapshot WHERE id = %s", [snap.pk])
        (column,) = cursor.fetchone()
    # The canonical JSON text in the column (what its check covers), not a pickle's bytes.
    full = store.replay(game, game.events.filter(seq__lte=snap.version).order_by("seq"))
    assert column == snap.state == logchain.canonical_text(full.to_json())
    rules = get_rules(game.slug)
    rebuilt = state_from_json(rules, json.loads(column))
    for seat in (0, 1, None):
        assert rebuilt.view(seat) == full.view(seat)


def count_full_replays(monkeypatch) -> list[int]:
    calls: list[int] = []
    original = states.new_state
    monkeypatch.setattr(states, "new_state", lambda g: calls.append(g.pk) or original(g))
    return calls


def test_a_snapshot_that_does_not_rebuild_gives_way_to_an_older_one(
    game, settings, caplog, monkeypatch
):
    settings.HADAL_SNAPSHOT_EVERY = 5
    play_random_moves(game, 12)
    game.refresh_from_db()
    newest = Snapshot.objects.filter(game=game).latest("version")
    assert Snapshot.objects.filter(game=game, version__lt=newest.version).exists()
    renamed = {k: v for k, v in json.loads(newest.state).items() if k != "_air"}
    stale = logchain.canonical_text(renamed)  # a field since renamed
    # Sealed as the store seals: written by the store before a refactor, not forged.
    mac = store.snapshot_mac(
        game.pk, newest.version, newest.rules_version, newest.chain_hash, stale
    )
    Snapshot.objects.filter(pk=newest.pk).update(state=stale, mac=mac)
    replays = count_full_replays(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="games.store"):
        state = store.load_state(game)
    assert replays == []  # rebuilt from the older snapshot, not from the start
    assert f"snapshot at version {newest.version} ignored" in caplog.text
    assert "_air" in caplog.text
    full = store.replay(game, game.events.order_by("seq"))
    for seat in (0, 1, None):
        assert state.view(seat) == full.view(seat)
    # The read put the current form of the state in its place.
    replaced = json.loads(Snapshot.objects.get(pk=newest.pk).state)
    assert replaced == store.replay(game, game.events.filter(seq__lte=newest.version)).to_json()


def test_with_no_snapshot_that_rebuilds_the_store_replays_the_events(
    game, settings, caplog, monkeypatch
):
    settings.HADAL_SNAPSHOT_EVERY = 5
    play_random_moves(game, 12)
    game.refresh_from_db()
    count = Snapshot.objects.filter(game=game).count()
    assert count >= 2
    Snapshot.objects.filter(game=game).update(state='{"tuple": "not a state"}')
    replays = count_full_replays(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="games.store"):
        state = store.load_state(game)
    assert replays == [game.pk]
    assert caplog.text.count("ignored") == count
    assert state.view(None) == store.replay(game, game.events.order_by("seq")).view(None)


def test_the_projection_matches_the_replayed_state(game):
    play_random_moves(game, 20)
    game.refresh_from_db()
    state = store.replay(game, game.events.order_by("seq"))
    assert game.version == game.events.count()
    assert game.current_player == state.current_player


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_concurrent_writers_at_one_version_one_wins_one_conflicts(alice, bob):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def writer():
        try:
            barrier.wait()
            store.append(Game.objects.get(pk=game.pk), 1, [continue_event()])
            outcomes.append("ok")
        except VersionConflict:
            outcomes.append("conflict")
        finally:
            connection.close()

    threads = [threading.Thread(target=writer) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["conflict", "ok"]
    assert Event.objects.filter(game=game).count() == 2


def test_the_state_cache_serves_committed_heads_as_clones(
    game, django_capture_on_commit_callbacks, django_assert_num_queries
):
    store.state_cache.clear()
    with django_capture_on_commit_callbacks(execute=True):
        play_random_moves(game, 1)
    game.refresh_from_db()
    with django_assert_num_queries(0):
        cached = store.load_state(game)
    full = store.replay(game, game.events.order_by("seq"))
    assert cached.view(None) == full.view(None)
    cached.apply(cached.legal_actions()[0])  # the caller's copy, not the cache's
    assert store.load_state(game).view(None) == full.view(None)


def test_a_rolled_back_append_leaves_nothing_in_the_state_cache(game):
    store.state_cache.clear()
    seat_user = game.seats.get(index=0).user
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            services.game_action_append(
                game=game, seat=0, expected_version=1, action={"type": "continue"}, user=seat_user
            )
            raise RuntimeError("the request failed after the append")
    assert store.state_cache.get(store.where(game), game.pk, 2) is None
    assert len(store.state_cache._entries) == 0


def test_a_move_stamps_moved_at_and_leaves_the_lists_order_for_a_minute(game):
    created = Game.objects.get(pk=game.pk)
    store.append(game, 1, [continue_event()], projection={"current_player": 0})
    moved = Game.objects.get(pk=game.pk)
    assert moved.moved_at > created.moved_at  # the clock starts again at every append
    assert moved.updated_at == created.updated_at  # the lists' order moves at most once a minute

    stale = created.updated_at - store.ACTIVITY_GRAIN
    Game.objects.filter(pk=game.pk).update(updated_at=stale)
    store.append(Game.objects.get(pk=game.pk), 2, [continue_event()])
    assert Game.objects.get(pk=game.pk).updated_at > stale


def test_a_status_change_always_moves_the_lists_order(game):
    before = Game.objects.get(pk=game.pk).updated_at
    store.append(game, 1, [continue_event()], projection={"status": "finished"})
    after = Game.objects.get(pk=game.pk)
    assert after.updated_at > before and after.finished_at == after.updated_at


@pytest.mark.postgres
def test_on_postgresql_a_move_updates_the_game_row_in_place(game):
    """A HOT update: no indexed column changes, so no index entry is written for the row."""

    def hot_updates() -> tuple[int, int]:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_xact_user_tables"
                " WHERE relname = 'games_game'"
            )
            return cursor.fetchone()

    updates, hot = hot_updates()
    head = store.load_head(game.pk)
    for n in range(5):
        _, head = store.write(
            head, head.version, [continue_event()], projection={"current_player": n % 2}
        )
    after_updates, after_hot = hot_updates()
    assert after_updates - updates == 5
    assert after_hot - hot == 5


@pytest.mark.postgres
def test_on_postgresql_a_move_written_again_and_again_is_planned_once(game):
    """Django leaves psycopg's preparing off unless asked: the settings ask, so the write's
    statement becomes a prepared statement on the connection after a few runs."""

    def prepared_writes() -> int:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_prepared_statements"
                " WHERE statement LIKE %s AND statement LIKE %s",
                ["%UPDATE games_game%", "%INSERT INTO games_event%"],
            )
            return cursor.fetchone()[0]

    head = store.load_head(game.pk)  # (an earlier test on this connection may have prepared it)
    for n in range(8):
        _, head = store.write(
            head, head.version, [continue_event()], projection={"current_player": n % 2}
        )
    assert prepared_writes() == 1
    assert Event.objects.filter(game=game).count() == 9


@pytest.mark.postgres
def test_on_postgresql_a_write_goes_straight_to_psycopg_and_is_counted(game):
    """The write's statement skips Django's cursor wrapper, yet still gets Django's error
    translation: a key used before, met by the database's unique index, is an IntegrityError,
    and so the first batch comes back. Under a query capture (DEBUG, the tests' counts) it goes
    the same way, and is counted: one statement (in the savepoint the test's transaction
    gives it)."""
    from django.test.utils import CaptureQueriesContext

    from tests.sql import through_djangos_cursor

    head = store.load_head(game.pk)
    first, head = store.write(head, head.version, [continue_event()], idempotency_key="k1")
    _, head = store.write(head, head.version, [continue_event(1)])

    with through_djangos_cursor() as through_django:
        _, head = store.write(head, head.version, [continue_event()])
        again, _ = store.write(head, head.version, [continue_event()], idempotency_key="k1")
    assert through_django and not [s for s in through_django if "INSERT INTO games_event" in s]
    assert again.replayed and [e.seq for e in again.events] == [e.seq for e in first.events]
    assert Event.objects.filter(game=game).count() == 4

    with through_djangos_cursor() as through_django, CaptureQueriesContext(connection) as seen:
        store.write(head, head.version, [continue_event(1)])
    assert [sql.split(" ")[0] for sql in through_django] == ["SAVEPOINT", "RELEASE"]
    counted = [q["sql"] for q in seen.captured_queries]
    assert [sql.split(" ")[0] for sql in counted] == ["SAVEPOINT", "WITH", "RELEASE"]
    assert "INSERT INTO games_event" in counted[1]


# -- who hears of a write -------------------------------------------------------------------------


def test_a_receiver_that_fails_is_logged_and_the_write_stands(
    game, monkeypatch, caplog, django_capture_on_commit_callbacks
):
    from games.store import writer

    heard = []

    def failing(before, after, events, connection):
        raise RuntimeError("the receiver broke")

    def listening(before, after, events, connection):
        heard.append(after.version)

    monkeypatch.setattr(writer, "_receivers", [])
    for receiver in (failing, listening, failing):  # subscribing twice is subscribing once
        store.on_write(receiver)
    assert writer._receivers == [failing, listening]
    with django_capture_on_commit_callbacks(execute=True):
        result = store.append(game, 1, [continue_event()])
        assert heard == []  # not before the commit
    assert heard == [2] and result.version == 2
    assert Game.objects.get(pk=game.pk).version == 2
    (failure,) = [r for r in caplog.records if r.name == "games.store.writer"]
    assert f"game {game.pk}" in failure.getMessage() and "failing" in failure.getMessage()


def test_the_live_streams_hear_of_writes_through_the_hook():
    from games.live import push
    from games.store import writer

    assert push.after_write in writer._receivers
