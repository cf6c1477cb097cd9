"""Time controls: a person's move is due a set time after the last append; then the random
bot plays it, or the seat forfeits. The beat sweep and a countdown task both enforce it."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db.models import F

from games import tasks
from games.models import Event, Game
from games.play import seating, services

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def clocked_game(alice, bob, on_timeout="random"):
    """Alice's game against bob, who has accepted it: the clock runs."""
    game = services.game_create(
        slug=DSA,
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
        time_control={"move_seconds": 60, "on_timeout": on_timeout},
    )
    seating.game_accept(game=game, seat=1, user=bob)
    return Game.objects.get(pk=game.pk)


def age(game, seconds: float) -> None:
    """Pretend the last append happened ``seconds`` earlier: every time on the row moves."""
    ago = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        moved_at=F("moved_at") - ago, updated_at=F("updated_at") - ago, deadline=F("deadline") - ago
    )


def test_the_clock_is_part_of_the_game_and_its_api(api, api_for, alice, bob):
    response = api.post(
        "/api/games/",
        {
            "game": DSA,
            "seats": [{"user": "alice"}, {"user": "bob"}],
            "time_control": {"move_seconds": 60},
        },
        format="json",
    )
    assert response.status_code == 201
    clock = response.json()["time_control"]
    assert clock["move_seconds"] == 60 and clock["on_timeout"] == "random"
    assert clock["deadline"] is None  # bob has not taken his seat yet
    game_id = response.json()["id"]
    assert (
        api_for(bob).post(f"/api/games/{game_id}/accept/", {"seat": 1}, format="json").status_code
        == 201
    )
    assert api.get(f"/api/games/{game_id}/").json()["time_control"]["deadline"] is not None
    created = Event.objects.get(game_id=game_id, seq=1)
    assert created.data["time_control"] == {"move_seconds": 60, "on_timeout": "random"}


@pytest.mark.parametrize(
    "clock",
    [
        {"move_seconds": 1},
        {"move_seconds": "60"},
        {"move_seconds": 60, "on_timeout": "nap"},
        {"minutes": 1},
        "fast",
    ],
)
def test_a_bad_clock_is_a_400(api, bob, clock):
    response = api.post(
        "/api/games/",
        {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}], "time_control": clock},
        format="json",
    )
    assert response.status_code == 400 and "time_control" in response.json()["error"]
    assert not Game.objects.exists()


def test_before_the_deadline_nothing_happens(alice, bob):
    game = clocked_game(alice, bob)
    age(game, 30)
    assert tasks.move_timeout.apply(args=(game.pk, 0, game.version)).get() is None
    assert tasks.sweep_stalled_bots.apply().get() == 0
    assert Game.objects.get(pk=game.pk).version == game.version


def test_when_the_clock_runs_out_the_random_bot_moves_for_the_seat(alice, bob):
    game = clocked_game(alice, bob)
    age(game, 61)
    assert tasks.move_timeout.apply(args=(game.pk, 0, game.version)).get() is not None
    move = Event.objects.get(game=game, seq=game.version + 1)
    assert move.kind == "ActionApplied" and move.seat == 0 and move.actor is None
    assert move.data == {"action": {"type": "continue"}, "timeout": True}
    # The same expiry delivered again does nothing.
    assert tasks.move_timeout.apply(args=(game.pk, 0, game.version)).get() is None


def test_with_forfeit_the_seat_resigns_and_a_two_player_game_ends(alice, bob):
    game = clocked_game(alice, bob, on_timeout="forfeit")
    age(game, 61)
    assert tasks.sweep_stalled_bots.apply().get() == 1
    game.refresh_from_db()
    assert game.status == "finished"
    assert [(r["player"], r["rank"]) for r in game.result] == [("alice", 2), ("bob", 1)]
    resigned = Event.objects.get(game=game, kind="SeatResigned")
    assert resigned.data == {"reason": "timeout"} and resigned.actor is None


def test_a_tournament_passes_its_clock_to_every_online_table(api_for, make_user):
    organiser = api_for(make_user("org"))
    for name in ("ann", "ben"):
        make_user(name)
    tid = organiser.post(
        "/api/tournaments/",
        {
            "name": "Blitz",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
            "time_control": {"move_seconds": 30, "on_timeout": "random"},
        },
        format="json",
    ).json()["id"]
    table = organiser.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    game = Game.objects.get(pk=table["game"])
    assert (game.move_seconds, game.on_timeout) == (30, "random")
