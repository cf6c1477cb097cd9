"""A members-only club leaks nowhere: an outsider (signed in, or not at all) walks every listing
and every address of the service and finds none of its games, records, tournaments, standings
or members, while its members find all of them."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from games.models import Game, GameStatus
from league.models import RatingChange

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
CLUB, CUP = "Lantern Fish", "Lantern cup"


@pytest.fixture
def world(make_user, api_for, django_capture_on_commit_callbacks):
    """The club, its members, a confirmed record, a tournament game over and one under way."""
    users = {name: make_user(name) for name in ("olga", "mia", "max", "out")}
    olga = api_for(users["olga"])
    slug = olga.post(
        "/api/leagues/", {"name": CLUB, "visibility": "members"}, format="json"
    ).json()["slug"]
    code = olga.post(f"/api/leagues/{slug}/links/", {}, format="json").json()["code"]
    for name in ("mia", "max"):
        assert api_for(users[name]).post(f"/api/invites/{code}/").status_code == 201
    with django_capture_on_commit_callbacks(execute=True):
        record = (
            api_for(users["mia"])
            .post(
                "/api/matches/",
                {
                    "game": DSA,
                    "league": slug,
                    "played_at": "2026-11-20T19:00:00Z",
                    "results": [
                        {"player": "mia", "score": 20, "rank": 1},
                        {"player": "max", "score": 9, "rank": 2},
                    ],
                },
                format="json",
            )
            .json()["id"]
        )
        api_for(users["max"]).post(f"/api/matches/{record}/confirm/")
    tid = olga.post(
        "/api/tournaments/",
        {
            "name": CUP,
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 2,
            "mode": "online",
            "league": slug,
            "players": ["mia", "max"],
        },
        format="json",
    ).json()["id"]
    first = olga.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("mia", "max"):
            api_for(users[name]).post(f"/api/tournaments/{tid}/accept/")
        loser = users[first["seats"][1]]
        api_for(loser).post(f"/api/games/{first['game']}/resign/", {"seat": 1}, format="json")
    second = olga.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    games = [record, first["game"], second["game"]]
    assert Game.objects.get(pk=first["game"]).status == GameStatus.FINISHED
    assert Game.objects.get(pk=second["game"]).status == GameStatus.ACTIVE
    assert RatingChange.objects.filter(game_id__in=games).count() == 4  # the record and the cup
    return {"users": users, "slug": slug, "tid": tid, "games": games, "api_for": api_for}


LISTINGS = [
    "/api/games/?scope=all",
    "/api/games/?scope=all&status=finished",
    "/api/games/open/",
    "/api/leagues/",
    "/api/tournaments/",
    "/api/players/",
    "/api/players/mia/",
    "/api/players/max/",
    f"/api/ratings/?game={DSA}",
]
PAGES = ["/", "/lobby/", "/leagues/", "/tournaments/", "/players/mia/", f"/ratings/{DSA}/"]


def _ids_in(body) -> set[int]:
    """Every number under a key naming a game in a JSON answer."""
    found = set()
    if isinstance(body, dict):
        for key, value in body.items():
            if key in ("id", "game_id", "game") and isinstance(value, int):
                found.add(value)
            found |= _ids_in(value)
    elif isinstance(body, list):
        for item in body:
            found |= _ids_in(item)
    return found


def outsiders(world):
    signed_in = world["api_for"](world["users"]["out"])
    return {"out": signed_in, "anonymous": APIClient()}


def test_no_listing_shows_an_outsider_anything_of_the_club(world, client):
    games = set(world["games"])
    for who, api in outsiders(world).items():
        for path in LISTINGS:
            response = api.get(path)
            if who == "anonymous" and response.status_code == 401:
                continue  # a listing for the signed in only
            assert response.status_code == 200, (who, path, response.content[:200])
            text = response.content.decode()
            assert CLUB not in text and world["slug"] not in text and CUP not in text, (who, path)
            assert not (_ids_in(json.loads(text)) & games), (who, path)
    for who in ("out", None):
        if who:
            client.force_login(world["users"][who])
        for path in PAGES:
            page = client.get(path)
            assert page.status_code == 200, (who, path)
            text = page.content.decode()
            assert CLUB not in text and CUP not in text, (who, path)
            assert not any(f"/games/{pk}/" in text for pk in games), (who, path)
        client.logout()


def test_every_address_of_the_club_is_a_404_for_an_outsider(world, client):
    slug, tid = world["slug"], world["tid"]
    record, over, running = world["games"]
    addresses = [
        f"/api/leagues/{slug}/",
        f"/api/leagues/{slug}/standings/",
        f"/api/tournaments/{tid}/",
        f"/api/tournaments/{tid}/rounds/",
        f"/api/tournaments/{tid}/standings/",
        f"/api/tournaments/{tid}/standings.csv",
        f"/api/tournaments/{tid}/results.csv",
    ]
    for pk in world["games"]:
        addresses += [
            f"/api/games/{pk}/",
            f"/api/games/{pk}/state/",
            f"/api/games/{pk}/events/",
            f"/api/games/{pk}/export/",
            f"/api/games/{pk}/analysis/",
            f"/api/games/{pk}/stream/",
            f"/api/games/{pk}/actions/?seat=0",
        ]
    for who, api in outsiders(world).items():
        for path in addresses:
            response = api.get(path)
            expected = (
                401 if who == "anonymous" and ("analysis" in path or "actions" in path) else 404
            )
            assert response.status_code == expected, (who, path, response.status_code)
    # Acting on a club's game tells them no more: a move, a resignation, a confirmation.
    out = outsiders(world)["out"]
    for path, body in (
        (f"/api/games/{running}/actions/", {"seat": 0, "expected_version": 1, "action": {}}),
        (f"/api/games/{running}/resign/", {"seat": 0}),
        (f"/api/games/{running}/join/", {"seat": 0}),
        (f"/api/matches/{record}/confirm/", {}),
        (f"/api/tournaments/{tid}/enter/", {"player": "out"}),
    ):
        response = out.post(path, body, format="json")
        assert response.status_code == 404, (path, response.status_code, response.content[:200])
    client.force_login(world["users"]["out"])
    for path in (
        f"/leagues/{slug}/",
        f"/leagues/{slug}/standings.csv",
        f"/tournaments/{tid}/",
        f"/tournaments/{tid}/projector/",
        f"/games/{record}/",
        f"/games/{over}/",
        f"/games/{running}/",
    ):
        assert client.get(path).status_code == 404, path


def test_its_members_see_all_of_it(world, client):
    mia = world["api_for"](world["users"]["mia"])
    listed = _ids_in(mia.get("/api/games/?scope=all").json())
    assert set(world["games"]) <= listed
    assert [c["slug"] for c in mia.get("/api/leagues/").json()] == [world["slug"]]
    assert CUP in mia.get("/api/tournaments/").content.decode()
    history = mia.get("/api/players/max/").json()
    assert {h["game_id"] for r in history["ratings"] for h in r["history"]} == {
        world["games"][0],
        world["games"][1],
    }
    assert mia.get(f"/api/games/{world['games'][2]}/").status_code == 200
    client.force_login(world["users"]["mia"])
    assert CLUB in client.get(f"/leagues/{world['slug']}/").content.decode()
    # A player of its tournament who is not a member still sees their own game.
    olga = world["api_for"](world["users"]["olga"])
    assert olga.delete(f"/api/leagues/{world['slug']}/members/max/").status_code == 200
    maxi = world["api_for"](world["users"]["max"])
    assert maxi.get(f"/api/leagues/{world['slug']}/").status_code == 404
    assert maxi.get(f"/api/games/{world['games'][2]}/").status_code == 200
    assert maxi.get(f"/api/tournaments/{world['tid']}/").status_code == 200
