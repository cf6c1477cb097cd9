"""Integrity beyond the events, on the compose deployment: a snapshot the app's own database
role rewrote is not served (42 of 42 reads were), and who made a move is covered by the hash
an exported bundle is checked against."""

from __future__ import annotations

import json
import subprocess
import sys

import psycopg
import pytest
import redis

from games.logchain import dump_bundle
from tests.reliability.stack import APP, DATABASE, ROOT

pytestmark = pytest.mark.reliability

LONG_GAME = """
import json
from django.contrib.auth import get_user_model
from games.play import services
from games.play import reads
User = get_user_model()
alice = User.objects.get(username="keeper")
while True:
    game = services.game_create(
        slug="deep-sea-adventure", seats=[{"user": "keeper"}, {"user": "other"}],
        options={}, created_by=alice,
    )
    while True:
        game.refresh_from_db()
        if game.status != "active" or game.version > 60:
            break
        seat = game.current_player
        user = game.seats.get(index=seat).user
        actions = reads.game_legal_actions(game=game, user=user, seat=seat)
        action = next((a for a in actions if a["type"] == "dive"), actions[0])
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=user
        )
    if game.status == "active":
        break
print(json.dumps({"game": game.pk, "version": game.version}))
"""


def as_app_role(stack):
    """A connection as the app's own database role, as a compromised app would hold."""
    return psycopg.connect(
        host=stack.pg_host,
        port=stack.pg_port,
        dbname=DATABASE,
        user=APP,
        password=stack.passwords[APP],
        autocommit=True,
    )


def forget_shared_heads(stack) -> None:
    """The heads the app's processes shared through Redis (games.store.sharing): without them a
    read of an old version goes to the snapshots."""
    shared = redis.Redis(port=stack.redis_port)
    for key in shared.scan_iter("*hadal:head:*"):
        shared.delete(key)


def test_a_snapshot_rewritten_by_the_apps_own_role_is_not_served(stack):
    stack.members(["keeper", "other"])
    made = stack.python(LONG_GAME)
    game, at = made["game"], 55
    path = f"/api/games/{game}/state/?at={at}"
    forget_shared_heads(stack)
    status, true_view = stack.get(path)
    assert status == 200, true_view
    with as_app_role(stack) as db:
        version, text = db.execute(
            "SELECT version, state FROM games_snapshot WHERE game_id = %s AND version <= %s "
            "ORDER BY version DESC LIMIT 1",
            [game, at],
        ).fetchone()
        forged = json.loads(text)
        forged["air"] = 1 if forged.get("air") != 1 else 2  # the divers all but out of air
        changed = db.execute(
            "UPDATE games_snapshot SET state = %s WHERE game_id = %s AND version = %s",
            [json.dumps(forged, sort_keys=True, separators=(",", ":")), game, version],
        ).rowcount
    assert changed == 1  # the role may: a snapshot is a cache
    forget_shared_heads(stack)
    for _ in range(10):  # whichever worker answers
        status, view = stack.get(path)
        assert status == 200 and view == true_view
    assert f"game {game}: snapshot at version {version} ignored" in stack.log("web")


def test_a_bundle_whose_moves_are_given_to_someone_else_does_not_verify(stack, tmp_path):
    from tests.reliability.test_analysis import FINISHED_GAMES

    tokens = stack.members(["analyst"])
    [game] = stack.python(FINISHED_GAMES.format(count=1))
    status, exported, _ = stack.request(
        "GET", f"/api/games/{game}/export/", headers={"Authorization": f"Token {tokens['analyst']}"}
    )
    assert status == 200, exported
    honest = tmp_path / "honest.json"
    honest.write_bytes(exported if isinstance(exported, bytes) else dump_bundle(exported))
    bundle = json.loads(honest.read_bytes())
    check = [sys.executable, "-I", "-S", str(ROOT / "games" / "records" / "verify.py")]
    assert subprocess.run([*check, str(honest)], capture_output=True).returncode == 0
    moved = next(e for e in bundle["events"] if e["actor"] is not None)
    moved["actor"] = moved["actor"] + 1000  # the same move, said to be another member's
    forged = tmp_path / "forged.json"
    forged.write_bytes(dump_bundle(bundle))
    done = subprocess.run([*check, str(forged)], capture_output=True, text=True)
    assert done.returncode != 0
    assert f"event {moved['seq']}" in done.stdout + done.stderr
