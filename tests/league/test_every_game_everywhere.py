"""Every game Hadal knows, played here or only recorded (Oceans), has a leaderboard, a place
on player pages, league and tournament pages, and in the API: walking all of them, for every
game, gets no server error."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse

from games.catalog import game_types
from games.rules import registered
from league.models import League
from league.services import leagues, tournaments
from league.services.ratings import ratings_update
from league.tournament_spec import TournamentSpec
from tests.league.members import join

pytestmark = pytest.mark.django_db

SLUGS = sorted(set(game_types()) | set(registered()))


@pytest.fixture
def club_world(make_user):
    """A club whose members ann and ben have a record of every game, a season, and a table
    tournament of every game with its first round paired."""
    org, ann, ben = make_user("org"), make_user("ann"), make_user("ben")
    club = leagues.league_create(name="Harbour club", created_by=org)
    for name in ("ann", "ben"):
        join(club, name, by=org)
    season = leagues.season_add(league=club, name="Autumn", starts_on=dt.date(2026, 9, 1), by=org)
    cups = []
    for slug in SLUGS:
        kind = game_types()[slug]
        leagues.match_record(
            game=slug,
            played_at="2026-10-01",
            league=club.slug,
            results=[
                {"player": "ann", "score": 30, "rank": 1},
                {"player": "ben", "score": 20, "rank": 2},
            ],
            recorded_by=org,
        )
        ratings_update(slug=slug)
        cup = tournaments.tournament_create(
            spec=TournamentSpec(
                name=f"{kind.name} cup",
                game=slug,
                format="swiss",
                table_size=2,
                rounds=1,
                mode="table",
                players=["ann", "ben"],
                league=club,
            ),
            created_by=org,
        )
        tournaments.round_pair(tournament=cup, by=org)
        cups.append(cup)
    return {"club": club, "season": season, "cups": cups, "players": [org, ann, ben]}


def pages(world) -> list[str]:
    club: League = world["club"]
    urls = [
        reverse("game-list"),
        reverse("ratings"),
        reverse("leagues"),
        reverse("league-detail", args=[club.slug]),
        reverse("league-detail", args=[club.slug]) + f"?season={world['season'].pk}",
        reverse("league-detail", args=[club.slug]) + "?season=all",
        reverse("tournaments"),
        reverse("match-new"),
    ]
    for slug in SLUGS:
        urls += [
            reverse("leaderboard", args=[slug]),
            reverse("league-detail", args=[club.slug]) + f"?game={slug}",
        ]
    for user in world["players"]:
        player = reverse("player", args=[user.username])
        urls += [player, player + "?vs=ann", player + "?vs=nobody&result=won&league=x"]
        urls += [player + f"?game={slug}" for slug in SLUGS]
    urls += [reverse("tournament-detail", args=[cup.pk]) for cup in world["cups"]]
    return urls


def api_listings(world) -> list[str]:
    club: League = world["club"]
    urls = [
        "/api/games/types/",
        "/api/games/?scope=all",
        "/api/players/",
        "/api/leagues/",
        f"/api/leagues/{club.slug}/",
        f"/api/leagues/{club.slug}/standings/",
        f"/api/leagues/{club.slug}/standings/?season={world['season'].pk}",
        "/api/tournaments/",
    ]
    for slug in SLUGS:
        urls += [
            f"/api/ratings/?game={slug}",
            f"/api/games/?scope=all&game={slug}",
            f"/api/leagues/{club.slug}/standings/?game={slug}",
        ]
    urls += [f"/api/players/{user.username}/" for user in world["players"]]
    for cup in world["cups"]:
        urls += [
            f"/api/tournaments/{cup.pk}/",
            f"/api/tournaments/{cup.pk}/rounds/",
            f"/api/tournaments/{cup.pk}/standings/",
        ]
    return urls


def test_every_page_answers_for_every_game(client, club_world):
    for signed_in in (None, *club_world["players"]):
        client.logout()
        if signed_in is not None:
            client.force_login(signed_in)
        failing = {
            url: status
            for url in pages(club_world)
            if (status := client.get(url).status_code) >= 400
        }
        assert failing == {}, signed_in


def test_every_api_listing_answers_for_every_game(api_for, club_world):
    client = api_for(club_world["players"][1])
    failing = {
        url: (response.status_code, response.content[:200])
        for url in api_listings(club_world)
        if (response := client.get(url)).status_code != 200
    }
    assert failing == {}


def test_an_oceans_leaderboard_and_player_page(client, api_for, club_world):
    # a few games each: provisional (a deviation above 100), listed when asked for
    page = client.get(reverse("leaderboard", args=["oceans"]) + "?provisional=1")
    assert page.status_code == 200
    assert [row["player"] for row in page.context["rows"]] == ["ann", "ben"]
    hidden = client.get(reverse("leaderboard", args=["oceans"])).context
    assert hidden["rows"] == [] and hidden["provisional_count"] == 2
    body = api_for(club_world["players"][0]).get("/api/ratings/?game=oceans").json()
    assert [row["player"] for row in body["results"]] == ["ann", "ben"]
    player = client.get(reverse("player", args=["ann"]))
    assert player.status_code == 200
    assert "Oceans (with The Deep promo pack 2)" in player.content.decode()
