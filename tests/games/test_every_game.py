"""Every registered game, end to end through the services and the store: random legal moves
by seated users, snapshots on, and the stored log replaying to the same head."""

from __future__ import annotations

import random

import pytest

from games import store
from games.play import reads, services
from games.rules import registered

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("slug", sorted(registered()))
def test_a_whole_game_through_the_services_replays_to_the_same_head(slug, make_user, settings):
    settings.HADAL_SNAPSHOT_EVERY = 10
    spec = registered()[slug].spec
    users = [make_user(f"player{i}") for i in range(spec.max_players)]
    game = services.game_create(
        slug=slug, seats=[{"user": u.username} for u in users], options={}, created_by=users[0]
    )
    rng = random.Random(slug)
    for _ in range(20_000):
        if game.status == "finished":
            break
        seat = game.current_player
        actions = reads.game_legal_actions(game=game, user=users[seat], seat=seat)
        services.game_action_append(
            game=game,
            seat=seat,
            expected_version=game.version,
            action=rng.choice(actions),
            user=users[seat],
        )
    assert game.status == "finished" and game.current_player is None
    assert game.snapshots.exists()
    replayed = store.replay(game, game.events.order_by("seq"))
    assert replayed.is_terminal()
    assert [(r["score"], r["rank"]) for r in game.result] == [
        (r["score"], r["rank"]) for r in replayed.result()
    ]
    assert [r["player"] for r in game.result] == [u.username for u in users]
    store.state_cache.clear()
    for seat in (*range(spec.max_players), None):
        assert store.load_state(game).view(seat) == replayed.view(seat)
