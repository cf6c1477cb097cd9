"""Club records for all five games, corrections as events, and leagues."""

from __future__ import annotations

import pytest

from games.models import Event, Game
from league.models import RatingChange
from league.services.ratings import ratings_update
from tests.games.shown import shown

pytestmark = pytest.mark.django_db


def record(client, game="oceans", **overrides):
    body = {
        "game": game,
        "played_at": "2026-11-20",
        "results": [
            {"player": "alice", "score": 80, "rank": 1},
            {"player": "bob", "score": 75, "rank": 2},
            {"player": "Zoe", "score": 60, "rank": 3, "guest": True},
        ],
        "notes": "club night",
    }
    body.update(overrides)
    return client.post("/api/matches/", body, format="json")


def confirmed(client, response):
    """The record, once the other member named in it (bob) has confirmed it."""
    assert response.status_code == 201, response.json()
    done = client.post(f"/api/matches/{response.json()['id']}/confirm/", {}, format="json")
    assert done.status_code == 201, done.json()
    return done


@pytest.mark.parametrize(
    "slug", ["deep-vents", "ventlife", "abyss", "deep-sea-adventure", "oceans"]
)
def test_a_club_record_for_each_game_is_a_finished_stream(api, api_for, bob, slug):
    response = record(api, game=slug)
    assert response.status_code == 201, response.json()
    waiting = response.json()
    assert waiting["status"] == "active" and waiting["result"] is None
    assert waiting["record"]["waiting_for"] == ["bob"]
    body = confirmed(api_for(bob), response).json()
    assert body["status"] == "finished" and body["mode"] == "record"
    assert [s["guest"] for s in body["seats"]] == [None, None, "Zoe"]
    assert [r["rank"] for r in body["result"]] == [1, 2, 3]
    kinds = list(Event.objects.filter(game_id=body["id"]).values_list("kind", flat=True))
    assert kinds == ["GameCreated", "ResultRecorded", "ResultConfirmed", "GameFinished"]


def test_a_recorded_game_feeds_the_ratings_without_its_guests(api, api_for, bob):
    confirmed(api_for(bob), record(api))
    ratings_update(slug="oceans")
    changes = {c.user.username: c.after - c.before for c in RatingChange.objects.all()}
    assert changes == {"alice": pytest.approx(16), "bob": pytest.approx(-16)}


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"game": "chess"}, "unknown game"),
        ({"played_at": "yesterday"}, "played_at"),
        ({"played_at": "2999-01-01"}, "future"),
        ({"results": [{"player": "alice", "score": 1, "rank": 1}]}, "2 to 4 players"),
        (
            {
                "results": [
                    {"player": "alice", "score": 1, "rank": 1},
                    {"player": "nobody", "score": 1, "rank": 1},
                ]
            },
            "no member 'nobody'",
        ),
        (
            {
                "results": [
                    {"player": "alice", "score": 1, "rank": 2},
                    {"player": "bob", "score": 2, "rank": 2},
                ]
            },
            "competition order",
        ),
        (
            {
                "results": [
                    {"player": "alice", "score": 1, "rank": 1},
                    {"player": "bob", "score": 2, "rank": 2},
                ]
            },
            "scored more",
        ),
        ({"results": [{"player": "alice", "rank": 1}, {"player": "alice", "rank": 2}]}, "twice"),
        ({"league": "no-such-club"}, "no league"),
    ],
)
def test_bad_records_are_refused_and_create_nothing(api, bob, overrides, message):
    response = record(api, **overrides)
    # 404 for a name that names nothing, as for an address; 422 for what the schema cannot say
    meanings = {"future", "competition order", "scored more", "twice", "2 to 4 players"}
    status = 404 if message.startswith(("no member", "no league")) else 400
    status = 422 if message in meanings else status
    assert response.status_code == status, response.json()
    assert message in response.json()["error"]
    assert not Game.objects.exists()


def test_a_correction_is_an_event_and_the_ratings_follow(api, api_for, bob):
    game_id = confirmed(api_for(bob), record(api)).json()["id"]
    ratings_update(slug="oceans")
    corrected = [
        {"player": "alice", "score": 70, "rank": 2},
        {"player": "bob", "score": 75, "rank": 1},
        {"player": "Zoe", "score": 60, "rank": 3},
    ]
    assert (
        api_for(bob)
        .post(f"/api/matches/{game_id}/correct/", {"results": corrected}, format="json")
        .status_code
        == 403
    )
    response = api.post(
        f"/api/matches/{game_id}/correct/",
        {"results": corrected, "reason": "scores swapped"},
        format="json",
    )
    # The recorder's correction waits for bob too; until then the confirmed result stands.
    assert response.status_code == 201 and response.json()["result"][1]["rank"] == 2
    assert response.json()["record"]["reported"][1]["rank"] == 1
    response = api_for(bob).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert response.status_code == 201 and response.json()["result"][1]["rank"] == 1
    kinds = list(Event.objects.filter(game_id=game_id).values_list("kind", flat=True))
    assert kinds[-3:] == ["ResultCorrected", "ResultConfirmed", "GameFinished"]
    ratings_update(slug="oceans")
    changes = {c.user.username: c.after - c.before for c in RatingChange.objects.all()}
    assert changes == {"alice": pytest.approx(-16), "bob": pytest.approx(16)}


def test_leagues_members_seasons_and_their_games(api, api_for, bob):
    created = api.post("/api/leagues/", {"name": "Abyssal Club"}, format="json")
    assert created.status_code == 201 and created.json()["slug"] == "abyssal-club"
    assert api.post("/api/leagues/", {"name": "Abyssal Club"}, format="json").status_code == 409
    assert (
        api_for(bob)
        .post("/api/leagues/abyssal-club/members/", {"player": "bob"}, format="json")
        .status_code
        == 403
    )
    assert record(api_for(bob), league="abyssal-club").status_code == 403
    invited = api.post("/api/leagues/abyssal-club/members/", {"player": "bob"}, format="json")
    assert invited.status_code == 201
    assert invited.json()["added"] == {"player": "bob", "role": "member", "status": "invited"}
    assert [m["player"] for m in invited.json()["members"]] == ["alice"]
    assert [i["player"] for i in invited.json()["invited"]] == ["bob"]
    assert api_for(bob).post("/api/leagues/abyssal-club/accept/").status_code == 201
    assert (
        api.post(
            "/api/leagues/abyssal-club/seasons/",
            {"name": "Winter", "starts_on": "2026-12-01", "ends_on": "2026-11-01"},
            format="json",
        ).status_code
        == 422  # ends before it starts: well-formed, refused
    )
    assert (
        api.post(
            "/api/leagues/abyssal-club/seasons/",
            {"name": "Winter", "starts_on": "2026-12-01"},
            format="json",
        ).status_code
        == 201
    )
    confirmed(api, record(api_for(bob), league="abyssal-club"))  # alice organises the club
    ratings_update(slug="oceans")
    body = api.get("/api/leagues/abyssal-club/").json()
    assert [m["player"] for m in body["members"]] == ["alice", "bob"]
    assert body["seasons"][0]["name"] == "Winter"
    assert len(body["recent_games"]) == 1
    assert body["standings"][0]["game"] == "oceans"
    assert [r["player"] for r in body["standings"][0]["ratings"]] == ["alice", "bob"]


def test_a_recorded_game_has_a_page_and_refuses_moves(api, client, bob):
    game_id = record(api).json()["id"]
    page = client.get(f"/games/{game_id}/").content.decode()
    assert "Played on a table" in page and "Zoe (guest)" in page and "club night" in page
    assert api.get(f"/api/games/{game_id}/state/").status_code == 422
    assert api.get(f"/api/games/{game_id}/actions/?seat=0").json() == []
    move = api.post(
        f"/api/games/{game_id}/actions/",
        {"seat": 0, "expected_version": 3, "action": {"type": "continue"}},
        format="json",
    )
    assert move.status_code == 422 and "played on a table" in move.json()["error"]
    assert api.post(f"/api/games/{game_id}/resign/", {"seat": 0}, format="json").status_code == 422
    listing = client.get("/").content.decode()
    assert "Oceans" in listing and "Zoe (guest)" in listing


def test_a_winning_bid_is_checked_before_it_is_recorded(api, bob):
    results = [
        {"player": "alice", "score": 40, "rank": 1},
        {"player": "bob", "score": 30, "rank": 2},
    ]
    bad = record(api, game="deep-vents", results=results, bid={"player": "zed", "amount": 3})
    assert bad.status_code == 400 and "bid" in bad.json()["error"]
    assert record(api, results=results, bid={"player": "alice", "amount": 3}).status_code == 422
    good = record(api, game="deep-vents", results=results, bid={"player": "bob", "amount": 3})
    assert good.status_code == 201
    recorded = Event.objects.get(game_id=good.json()["id"], kind="ResultRecorded")
    assert shown(recorded)["bid"] == {"player": "bob", "amount": 3}
