"""A game an organiser ends: a seat resigned for an absent player (SeatResigned, its actor the
organiser) or a result adjudicated (ResultAdjudicated, then GameFinished "adjudicated"). Each
exports, verifies offline, replays and passes check_history like a game the rules ended."""

from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from games import history, store
from games.models import Event, Game
from games.play import reads, seating, services
from games.records import table_results
from games.records.verify import verify

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def started(make_user):
    """Alice and Bob a few moves into a game; their organiser looks on."""
    alice, bob, org = make_user("alice"), make_user("bob"), make_user("org")
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=org
    )
    seating.game_accept(game=game, seat=0, user=alice)
    seating.game_accept(game=game, seat=1, user=bob)
    users = {0: alice, 1: bob}
    for _ in range(3):
        game = Game.objects.get(pk=game.pk)
        seat = game.current_player
        action = reads.game_legal_actions(game=game, user=users[seat], seat=seat)[0]
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=users[seat]
        )
    return Game.objects.get(pk=game.pk), org


def checked(game: Game) -> None:
    """Exported, verified offline, replayed and checked against its head."""
    exported = APIClient().get(f"/api/games/{game.pk}/export/")
    assert exported.status_code == 200, exported.content
    verified = verify(exported.content)
    assert verified.replayed and verified.events == game.version
    [report] = history.check_batch(using="default", ids=[game.pk])
    assert report.differences == []
    assert store.load_state(store.load_head(game.pk)) is not None


def test_an_organiser_resigns_an_absent_players_seat(started):
    game, org = started
    services.game_seat_forfeit(game=game, seat=1, by=org, reason="no-show")
    game.refresh_from_db()
    assert game.status == "finished" and [r["rank"] for r in game.result] == [1, 2]
    resigned = Event.objects.get(game=game, kind="SeatResigned")
    assert resigned.actor_id == org.pk and resigned.data == {"reason": "no-show"}
    checked(game)


def test_an_adjudicated_game_ends_with_the_organisers_result(started, client):
    game, org = started
    results = [
        {"player": "alice", "score": None, "rank": 2},
        {"player": "bob", "score": None, "rank": 1},
    ]
    table_results.result_adjudicate(game=game, by=org, results=results, reason="venue closed")
    game.refresh_from_db()
    assert game.status == "finished" and game.current_player is None
    assert [r["rank"] for r in game.result] == [2, 1]
    last = list(Event.objects.filter(game=game).order_by("seq"))[-2:]
    assert [e.kind for e in last] == ["ResultAdjudicated", "GameFinished"]
    assert last[1].data["reason"] == "adjudicated" and last[0].actor_id == org.pk
    checked(game)
    page = client.get(reverse("game-detail", args=[game.pk])).content.decode()
    assert "result set by the organiser" in page and "by forfeit" not in page
