"""Every event's hash is chained over the one before it; a finished game exports as a bundle
that verify_log (the command and the bare-Python script) checks, and one changed byte fails."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from games import logchain
from games.models import Event, Game
from games.play import reads, services
from games.records.verify import BundleError, verify

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"
REPO = Path(__file__).resolve().parents[2]


def new_game(slug, users):
    return services.game_create(
        slug=slug,
        seats=[{"user": u.username} for u in users],
        options=None,
        created_by=users[0],
        seated=True,
    )


def play(game, users, moves=10_000):
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != "active":
            return game
        seat = game.current_player
        actions = reads.game_legal_actions(game=game, user=users[seat], seat=seat)
        # Turn back with loot when offered, so chips are revealed and scored.
        action = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        services.game_action_append(
            game=game, seat=seat, expected_version=game.version, action=action, user=users[seat]
        )
    return game


def recomputed_chain(game_id):
    """(computed, stored) hash of each event, under the game's chain format."""
    chain = Game.objects.get(pk=game_id).chain_version
    previous, hashes = logchain.GENESIS, []
    for e in Event.objects.filter(game_id=game_id).order_by("seq"):
        previous = logchain.event_hash(
            previous,
            e.seq,
            e.kind,
            e.data,
            e.seat,
            logchain.time_text(e.created_at),
            actor=e.actor_id,
            chain=chain,
        )
        hashes.append((previous, e.hash))
    return hashes


@pytest.fixture
def finished(alice, bob):
    return play(new_game(DSA, [alice, bob]), [alice, bob])


@pytest.fixture
def bundle(finished):
    response = APIClient().get(f"/api/games/{finished.pk}/export/")
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        f'attachment; filename="hadal-game-{finished.pk}.json"'
    )
    return response.content


def test_every_event_is_hashed_over_the_one_before_and_the_game_shows_the_last(alice, bob):
    game = play(new_game(DSA, [alice, bob]), [alice, bob], moves=6)
    chain = recomputed_chain(game.pk)
    assert len(chain) == game.version > 3
    assert all(computed == stored for computed, stored in chain)
    assert len({stored for _, stored in chain}) == len(chain)
    assert game.fingerprint == chain[-1][1]
    shown = APIClient().get(f"/api/games/{game.pk}/").json()["fingerprint"]
    assert shown == game.fingerprint and len(shown) == 64


def test_a_game_with_hidden_information_shows_its_fingerprint_only_once_it_is_over(alice, bob):
    game = new_game("abyss", [alice, bob])
    assert game.fingerprint  # kept all along ...
    for client in (APIClient(), None):  # ... but shown to nobody while it runs
        if client is None:
            client = APIClient()
            client.force_authenticate(alice)
        assert client.get(f"/api/games/{game.pk}/").json()["fingerprint"] is None
    assert APIClient().get(f"/api/games/{game.pk}/export/").status_code == 409


def test_a_finished_game_exports_a_bundle_that_verifies(finished, bundle, tmp_path, capsys):
    data = json.loads(bundle)
    assert data["fingerprint"] == finished.fingerprint
    assert data["rules"]["slug"] == DSA and data["game"]["status"] == "finished"
    assert len(data["events"]) == finished.version
    result = verify(bundle)
    assert result.replayed and result.events == finished.version

    path = tmp_path / "game.json"
    path.write_bytes(bundle)
    call_command("verify_log", str(path))
    assert logchain.short(finished.fingerprint) in capsys.readouterr().out


def test_the_standalone_script_needs_nothing_but_python(bundle, tmp_path):
    path = tmp_path / "game.json"
    path.write_bytes(bundle)
    script = REPO / "games" / "records" / "verify.py"
    # -I -S: no site-packages (so no Django), no environment, run from elsewhere.
    ok = subprocess.run(
        [sys.executable, "-I", "-S", str(script), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0, ok.stderr
    assert "every hash matches" in ok.stdout
    changed = bundle.replace(b'"turn_back"', b'"turn_bank"', 1)
    assert changed != bundle
    path.write_bytes(changed)
    bad = subprocess.run(
        [sys.executable, "-I", "-S", str(script), str(path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 1 and "FAILED: event" in bad.stderr


def test_a_changed_byte_anywhere_fails_and_says_where(bundle):
    positions = sorted({*range(0, len(bundle), max(1, len(bundle) // 400)), len(bundle) - 1})
    # The names beside the ids are outside every hash, on purpose (an erased member loses
    # their name, not their log): a changed letter of a name is the one change that passes.
    start = bundle.index(b'\n "people": {')
    names = range(start, bundle.index(b"\n }", start))
    for at in [at for at in positions if at not in names]:
        changed = bytearray(bundle)
        changed[at] = ord("x") if bundle[at] != ord("x") else ord("y")
        with pytest.raises(BundleError):
            verify(bytes(changed))


def test_what_the_failure_says(bundle):
    data = json.loads(bundle)
    move = next(e for e in data["events"] if e["kind"] == "ActionApplied")
    move["data"]["action"]["type"] = "swim"
    with pytest.raises(BundleError, match=rf"event {move['seq']} \(ActionApplied\): its hash"):
        verify(logchain.dump_bundle(data))

    data = json.loads(bundle)
    data["events"].pop(3)
    with pytest.raises(BundleError, match="event 4: numbered 5"):
        verify(logchain.dump_bundle(data))

    with pytest.raises(BundleError, match=r"byte \d+ \(line 4, column 1\) is not as exported"):
        verify(bundle.replace(b'\n "events"', b'\n\t"events"', 1))

    data = json.loads(bundle)
    data["fingerprint"] = "0" * 64
    with pytest.raises(BundleError, match="fingerprint does not match"):
        verify(logchain.dump_bundle(data))


def test_a_log_whose_hashes_were_recomputed_still_fails_on_the_rules(bundle):
    """Rewriting history and its hashes together moves the fingerprint off the score slip's,
    and a move the rules refuse is named even then."""
    data = json.loads(bundle)
    move = next(e for e in data["events"] if e["kind"] == "ActionApplied")
    move["data"]["action"] = {"type": "swim"}
    previous = logchain.GENESIS
    for e in data["events"]:
        e["hash"] = previous = logchain.event_hash(
            previous,
            e["seq"],
            e["kind"],
            e["data"],
            e["seat"],
            e["time"],
            actor=e["actor"],
            chain=data["chain_version"],
        )
    data["fingerprint"] = previous
    with pytest.raises(BundleError, match=rf"event {move['seq']}: the rules refuse this move"):
        verify(logchain.dump_bundle(data))


@pytest.mark.parametrize(
    "raw, says",
    [
        (b"\xff\xfe", "not UTF-8"),
        (b"{not json", "not JSON at line 1, column 2"),
        (b"[]", 'expected a JSON object with "format"'),
        (b'{"format": "hadal-game-log", "format_version": 9}', "reads versions 1 and 2"),
        (b'{"format": "hadal-game-log", "format_version": true}', "reads versions 1 and 2"),
        (b'{"format": "hadal-game-log", "format_version": 1}', "version 1 has exactly the fields"),
        (b'{"format": "hadal-game-log", "format_version": 2}', "version 2 has exactly the fields"),
    ],
)
def test_what_is_not_a_bundle_is_said_so(raw, says, tmp_path):
    with pytest.raises(BundleError, match=says):
        verify(raw)
    path = tmp_path / "x.json"
    path.write_bytes(raw)
    with pytest.raises(CommandError, match=says):
        call_command("verify_log", str(path))


def test_verify_log_says_when_there_is_no_file():
    with pytest.raises(CommandError, match="cannot read /nonexistent/bundle.json"):
        call_command("verify_log", "/nonexistent/bundle.json")


def test_export_of_an_unknown_game_is_404():
    assert APIClient().get("/api/games/999999/export/").status_code == 404


@pytest.mark.django_db(transaction=True)
def test_the_migration_chains_the_logs_written_before_it():
    executor = MigrationExecutor(connection)
    before = [("games", "0012_list_indexes")]
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldGame, OldEvent = old.get_model("games", "Game"), old.get_model("games", "Event")
    games = [
        OldGame.objects.create(slug=DSA, rules_version=1, num_players=2, version=3)
        for _ in range(2)
    ]
    for game in games:
        for seq in (1, 2, 3):
            OldEvent.objects.create(
                game=game,
                seq=seq,
                kind="GameCreated" if seq == 1 else "ActionApplied",
                data={"n": seq, "game": game.pk},
                batch=seq,
            )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    for game in games:
        chain = recomputed_chain(game.pk)
        assert len(chain) == 3 and all(computed == stored for computed, stored in chain)
        migrated = Game.objects.get(pk=game.pk)
        assert migrated.fingerprint == chain[-1][1]
        assert migrated.chain_version == 1  # logged before the actor was hashed
    with pytest.raises(Exception, match="append-only"):  # the guard is back
        with connection.cursor() as cursor:
            cursor.execute("UPDATE games_event SET hash = 'x' WHERE game_id = %s", [games[0].pk])


def test_the_game_page_shows_the_short_fingerprint_once_the_game_is_over(client, finished):
    page = client.get(f"/games/{finished.pk}/").content.decode()
    assert logchain.short(finished.fingerprint) in page
    assert f"/api/games/{finished.pk}/export/" in page


def test_a_running_game_page_shows_no_fingerprint(client, alice, bob):
    game = new_game(DSA, [alice, bob])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert logchain.short(game.fingerprint) not in page and "Fingerprint" not in page


@pytest.mark.parametrize("slug", ["oceans", "deep-vents"])
def test_a_club_record_exports_and_verifies_without_moves(api, api_for, bob, slug):
    body = {
        "game": slug,
        "played_at": "2026-11-20",
        "results": [
            {"player": "alice", "score": 80, "rank": 1},
            {"player": "bob", "score": 75, "rank": 2},
        ],
    }
    made = api.post("/api/matches/", body, format="json")
    assert made.status_code == 201, made.json()
    game_id = made.json()["id"]
    assert api.get(f"/api/games/{game_id}/export/").status_code == 409  # waiting for bob
    assert (
        api_for(bob).post(f"/api/matches/{game_id}/confirm/", {}, format="json").status_code == 201
    )
    raw = api.get(f"/api/games/{game_id}/export/").content
    result = verify(raw)
    assert not result.replayed and result.events == 4
    assert "a recorded result: no moves to replay" in result.summary()
    with pytest.raises(BundleError, match="its hash does not match"):
        verify(raw.replace(b'"score": 75', b'"score": 85', 1))
