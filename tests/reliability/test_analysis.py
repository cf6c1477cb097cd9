"""Analyses on the compose deployment: nobody signed out starts one, a member starts only so
many, and however many wait, a bot still answers (146 anonymous requests in 5 s had turned a
0.2 s bot reply into 80 s: analyses and bots shared one queue)."""

from __future__ import annotations

import time

import pytest
import redis

pytestmark = pytest.mark.reliability

FINISHED_GAMES = """
import json, random
from django.contrib.auth import get_user_model
from games.play import services
from games.models import Game
from games.play import reads
User = get_user_model()
alice = User.objects.get(username="analyst")
made = []
for _ in range({count}):
    game = services.game_create(
        slug="deep-sea-adventure", seats=[{{"user": "analyst"}}, {{"user": "analyst"}}],
        options={{}}, created_by=alice,
    )
    while True:
        game.refresh_from_db()
        if game.status != "active":
            break
        seat = game.current_player
        actions = reads.game_legal_actions(game=game, user=alice, seat=seat)
        action = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=alice
        )
    made.append(game.pk)
print(json.dumps(made))
"""


def queued(stack, queue: str) -> int:
    return redis.Redis(port=stack.redis_port).llen(queue)


def test_analyses_wait_in_their_own_queue_and_a_bot_still_answers(stack):
    tokens = stack.members(["analyst", "second", "player"])
    games = stack.python(FINISHED_GAMES.format(count=6))
    for game in games:  # signed out: asked to sign in, and nothing starts
        status, answer = stack.get(f"/api/games/{game}/analysis/")
        assert status == 401, answer
    assert queued(stack, "analysis") == 0

    statuses = []
    for name in ("analyst", "second"):
        auth = {"Authorization": f"Token {tokens[name]}"}
        statuses += [stack.get(f"/api/games/{g}/analysis/", auth)[0] for g in games]
    # Each member has two computed at once; the others wait for a later request.
    assert statuses == [202, 202, 429, 429, 429, 429, 202, 202, 202, 202, 429, 429]
    assert queued(stack, "analysis") >= 2  # one worker, one at a time: the rest wait

    # Meanwhile a bot's game goes on: its moves are not queued behind the analyses.
    auth = {"Authorization": f"Token {tokens['player']}"}
    status, game = stack.post(
        "/api/games/",
        {"game": "deep-sea-adventure", "seats": [{"user": "player"}, {"bot": "greedy"}]},
        auth,
    )
    assert status == 201, game
    seat = game["current_player"]
    status, actions = stack.get(f"/api/games/{game['id']}/actions/?seat={seat}", auth)
    body = {"seat": seat, "expected_version": game["version"], "action": actions[0]}
    status, moved = stack.post(f"/api/games/{game['id']}/actions/", body, auth)
    assert status == 201, moved
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        status, now = stack.get(f"/api/games/{game['id']}/", auth)
        if now["current_player"] == 0 or now["status"] != "active":
            break
        time.sleep(0.2)
    else:
        raise AssertionError(f"the bot did not move; analyses queued: {queued(stack, 'analysis')}")
    assert queued(stack, "analysis") >= 1  # still waiting, and the bot answered all the same
