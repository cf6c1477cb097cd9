"""Who made each event is in its hash for the games logged from now on (chain format 2), while
every game logged before keeps its chain exactly as it is (format 1): the store's check, the
export, ``manage.py verify_log`` and the bare-Python script each read a game's own format, and
the script reads the bundles of both versions (issue 33, item 9)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from rest_framework.test import APIClient

from games import logchain, store
from games.models import Event, EventKind, Game, Seat
from games.records.verify import BundleError, verify
from games.rules import get_rules
from games.store import NewEvent
from games.store.guards import OPERATIONS, ensure_sqlite_triggers
from tests.games.test_fingerprint import DSA, new_game, play

pytestmark = pytest.mark.django_db

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "games" / "records" / "verify.py"
GOLDEN_V1 = sorted((REPO / "tests" / "golden" / "bundle_v1").glob("*.json"))


def owner_rewrites(sql: str, params: list) -> None:
    """What only the tables' owner can do (the app's role cannot, tests/games/test_append_only):
    lift the append-only guard, change the log, put the guard back."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
            cursor.execute(sql, params)
            cursor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
        else:
            for op in OPERATIONS:
                cursor.execute(f"DROP TRIGGER games_event_append_only_{op.lower()}")
            cursor.execute(sql, params)
    ensure_sqlite_triggers(connection)


def bundle_of(game) -> dict:
    response = APIClient().get(f"/api/games/{game.pk}/export/")
    assert response.status_code == 200
    return json.loads(response.content)


def run_script(tmp_path, raw: bytes) -> subprocess.CompletedProcess:
    path = tmp_path / "bundle.json"
    path.write_bytes(raw)
    return subprocess.run(
        [sys.executable, "-I", "-S", str(SCRIPT), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )


@pytest.fixture
def finished(alice, bob):
    return play(new_game(DSA, [alice, bob]), [alice, bob])


def a_move_by(game, user) -> Event:
    return Event.objects.filter(game=game, kind=EventKind.ACTION_APPLIED, actor=user).first()


# -- format 2: the actor in the hash ------------------------------------------------------------


def test_a_new_game_hashes_who_made_each_event(alice, bob):
    game = play(new_game(DSA, [alice, bob]), [alice, bob], moves=6)
    assert game.chain_version == logchain.CHAIN_VERSION == 2
    assert store.verify_chain(game) == game.fingerprint
    actors = set(Event.objects.filter(game=game).values_list("actor_id", flat=True))
    assert {alice.pk, bob.pk} <= actors  # the moves, and None for the dice
    move = a_move_by(game, bob)
    previous = Event.objects.get(game=game, seq=move.seq - 1).hash

    def hashed(actor):
        time = logchain.time_text(move.created_at)
        return logchain.event_hash(
            previous, move.seq, move.kind, move.data, move.seat, time, actor=actor, chain=2
        )

    assert hashed(bob.pk) == move.hash != hashed(alice.pk)


def test_an_actor_changed_in_the_log_fails_the_stores_check_naming_the_event(finished, alice, bob):
    """Before chain format 2 this went unnoticed: the chain held, the bundle had no actor."""
    move = a_move_by(finished, bob)
    owner_rewrites("UPDATE games_event SET actor_id = %s WHERE id = %s", [alice.pk, move.pk])
    says = rf"event {move.seq} \(ActionApplied\): its hash does not match what it holds"
    with pytest.raises(store.ChainBroken, match=says):
        store.verify_chain(finished)
    with pytest.raises(CommandError, match=says):
        call_command("verify_log", "--game", str(finished.pk))
    bundle = bundle_of(finished)
    with pytest.raises(BundleError, match=says.replace(" what it holds", "")):
        verify(logchain.dump_bundle(bundle))


def test_an_actor_changed_in_a_bundle_fails_naming_the_event(finished, bob, tmp_path):
    bundle = bundle_of(finished)
    assert bundle["format_version"] == 3 and bundle["chain_version"] == 2
    move = a_move_by(finished, bob)
    event = bundle["events"][move.seq - 1]
    assert event["actor"] == bob.pk
    assert (
        "chain format 2: each hash covers who made the event"
        in verify(logchain.dump_bundle(bundle)).summary()
    )
    event["actor"] = bob.pk + 1
    with pytest.raises(BundleError, match=rf"event {move.seq} \(ActionApplied\): its hash"):
        verify(logchain.dump_bundle(bundle))
    failed = run_script(tmp_path, logchain.dump_bundle(bundle))
    assert failed.returncode == 1
    assert f"FAILED: event {move.seq} (ActionApplied): its hash" in failed.stderr


def test_a_bundle_claiming_another_chain_format_fails(finished):
    bundle = bundle_of(finished)
    bundle["chain_version"] = 1  # to pass the actors off as not covered
    with pytest.raises(BundleError, match=r"event 1 \(GameCreated\): its hash does not match"):
        verify(logchain.dump_bundle(bundle))
    for unknown in (3, "2", None):
        bundle["chain_version"] = unknown
        with pytest.raises(BundleError, match=f"chain format {unknown!r}: this checker knows"):
            verify(logchain.dump_bundle(bundle))


def test_a_game_whose_recorded_format_is_changed_fails_the_stores_check(finished):
    Game.objects.filter(pk=finished.pk).update(chain_version=1)  # the app's role could
    finished.refresh_from_db()
    with pytest.raises(store.ChainBroken, match=r"event 1 \(GameCreated\).*chain format 1"):
        store.verify_chain(finished)


def test_a_game_imported_in_bulk_hashes_its_actors(alice, bob):
    rules = get_rules(DSA)
    game = Game(slug=DSA, rules_version=rules.spec.version, options={}, num_players=2)
    seats = [Seat(index=0, user=alice), Seat(index=1, user=bob)]
    events = [
        [NewEvent(EventKind.GAME_CREATED, {"game": DSA}, actor_id=alice.pk)],
        [NewEvent(EventKind.RESULT_CONFIRMED, {}, actor_id=bob.pk)],
    ]
    store.create_streams([(game, seats, events)])
    assert game.chain_version == 2 and store.verify_chain(game) == game.fingerprint
    owner_rewrites(
        "UPDATE games_event SET actor_id = %s WHERE game_id = %s AND seq = 2", [alice.pk, game.pk]
    )
    with pytest.raises(store.ChainBroken, match=r"event 2 \(ResultConfirmed\)"):
        store.verify_chain(game)


# -- format 1: the games logged before, side by side ---------------------------------------------


@pytest.fixture
def old_game(alice, bob):
    """A game logged before actors were hashed: format 1, events appended by the store."""
    rules = get_rules(DSA)
    game = Game.objects.create(
        slug=DSA, rules_version=rules.spec.version, options={}, num_players=2, chain_version=1
    )
    Seat.objects.bulk_create(
        [Seat(game=game, index=0, user=alice), Seat(game=game, index=1, user=bob)]
    )
    created = {
        "game": DSA,
        "rules_version": rules.spec.version,
        "num_players": 2,
        "options": {},
        "seats": [{"user": "alice", "bot": None}, {"user": "bob", "bot": None}],
    }
    store.append(
        game,
        0,
        [NewEvent(EventKind.GAME_CREATED, created, actor_id=alice.pk)],
        projection={"current_player": 0},
    )
    return game


def test_an_old_game_and_a_new_one_verify_side_by_side(old_game, alice, bob):
    new = new_game(DSA, [alice, bob])
    state = store.load_state(old_game)
    events = [NewEvent(EventKind.ACTION_APPLIED, {"action": {"type": "continue"}}, 0, bob.pk)]
    state.apply(events[0].data["action"])
    store.append(old_game, old_game.version, events)
    assert (old_game.chain_version, new.chain_version) == (1, 2)
    assert store.verify_chain(old_game) == old_game.fingerprint
    assert store.verify_chain(new) == new.fingerprint
    # Format 1 is the chain as it always was: the actor is in no hash of the old game.
    move = Event.objects.get(game=old_game, seq=2)
    assert move.hash == logchain.event_hash(
        Event.objects.get(game=old_game, seq=1).hash,
        2,
        move.kind,
        move.data,
        move.seat,
        logchain.time_text(move.created_at),
        chain=1,
    )


def test_an_old_game_exports_a_current_bundle_that_says_its_actors_are_not_covered(
    old_game, alice, bob, tmp_path
):
    voided = NewEvent(EventKind.GAME_VOIDED, {"reason": "cancelled"}, actor_id=bob.pk)
    store.append(old_game, 1, [voided], projection={"status": "void"})
    bundle = bundle_of(old_game)
    assert (bundle["format_version"], bundle["chain_version"]) == (3, 1)
    assert [e["actor"] for e in bundle["events"]] == [alice.pk, bob.pk]
    result = verify(logchain.dump_bundle(bundle))
    assert "who made each event is not covered" in result.summary()
    ok = run_script(tmp_path, logchain.dump_bundle(bundle))
    assert ok.returncode == 0, ok.stderr
    assert "chain format 1" in ok.stdout
    # What format 1 does not cover, it cannot vouch for: the report says so rather than fail.
    bundle["events"][1]["actor"] = None
    assert verify(logchain.dump_bundle(bundle)).chain_version == 1


# -- bundles of version 1, exported before -------------------------------------------------------


def test_there_are_golden_bundles_of_version_1():
    assert len(GOLDEN_V1) >= 5
    for path in GOLDEN_V1:
        assert json.loads(path.read_bytes())["format_version"] == 1


@pytest.mark.parametrize("path", GOLDEN_V1, ids=lambda p: p.stem)
def test_a_version_1_bundle_exported_before_still_verifies(path, tmp_path):
    raw = path.read_bytes()
    result = verify(raw)
    assert result.chain_version == 1
    assert "chain format 1" in result.summary()
    ok = run_script(tmp_path, raw)
    assert ok.returncode == 0, ok.stderr
    assert "every hash matches" in ok.stdout
    data = json.loads(raw)
    data["events"][0]["data"]["changed"] = True
    with pytest.raises(BundleError, match=r"event 1 \(GameCreated\): its hash"):
        verify(logchain.dump_bundle(data))


def test_a_version_1_bundle_does_not_carry_actors(tmp_path):
    data = json.loads(GOLDEN_V1[0].read_bytes())
    data["events"][0]["actor"] = 1
    with pytest.raises(BundleError, match="event 1: expected exactly the fields"):
        verify(logchain.dump_bundle(data))
    data = json.loads(GOLDEN_V1[0].read_bytes())
    data["chain_version"] = 2
    with pytest.raises(BundleError, match="format version 1 has exactly the fields"):
        verify(logchain.dump_bundle(data))


def test_a_bundle_of_a_version_to_come_is_refused_saying_which_are_read(tmp_path):
    data = json.loads(GOLDEN_V1[0].read_bytes())
    data["format_version"] = 4
    raw = logchain.dump_bundle(data)
    with pytest.raises(BundleError, match="bundle format version 4: this checker reads versions"):
        verify(raw)
    failed = run_script(tmp_path, raw)
    assert failed.returncode == 1
    assert "this checker reads versions 1 and 2" in failed.stderr
    assert "needs a newer copy of games/verify_log.py" in failed.stderr


def test_verify_log_checks_a_stored_game(finished, capsys):
    call_command("verify_log", "--game", str(finished.pk))
    out = capsys.readouterr().out
    assert f"game {finished.pk}: {finished.version} events, every hash matches" in out
    assert "chain format 2" in out and logchain.short(finished.fingerprint) in out
    with pytest.raises(CommandError, match="there is no game 999999"):
        call_command("verify_log", "--game", "999999")
    with pytest.raises(CommandError, match="one of the two"):
        call_command("verify_log")
