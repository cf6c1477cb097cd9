"""A league's own standings: from its games only (recorded for it, and its tournaments'),
per season and per game, on its page, as CSV and through the API; seasons that never
overlap."""

from __future__ import annotations

import csv
import datetime as dt
import io

import pytest
from django.urls import reverse

from league import selectors
from league.models import Season
from league.ratings import EloLadder, Glicko2Ladder, day_number
from league.services import leagues, tournaments
from league.services.ratings import ratings_update
from league.tournament_spec import TournamentSpec
from tests.league.members import join

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("org", "ann", "ben", "cat")}


@pytest.fixture
def club(people):
    league = leagues.league_create(name="Harbour club", created_by=people["org"])
    for name in ("ann", "ben", "cat"):
        join(league, name, by=people["org"])
    return league


def record(people, club, ranks: dict[str, int], *, game="oceans", on="2026-10-01", league=True):
    """A confirmed record (an organiser records it) of the named players' ranks."""
    return leagues.match_record(
        game=game,
        played_at=on,
        league=club.slug if league else None,
        results=[{"player": p, "rank": r, "score": 10 - r} for p, r in ranks.items()],
        recorded_by=people["org"],
    )


def finished_cup(people, club, ranks: dict[str, int]):
    """A table tournament of the league with one table, settled by the organiser."""
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game=DSA,
            format="swiss",
            table_size=len(ranks),
            rounds=1,
            mode="table",
            players=list(ranks),
            league=club,
        ),
        created_by=people["org"],
    )
    round_ = tournaments.round_pair(tournament=cup, by=people["org"])
    table = round_.tables.get()
    tournaments.table_override(
        tournament=cup,
        table=table,
        by=people["org"],
        results=[{"player": p, "rank": r, "score": None} for p, r in ranks.items()],
    )
    return cup


def lines(rows) -> list[tuple]:
    return [(r["player"], r["games"], r["wins"], r["points"]) for r in rows]


def test_only_the_leagues_own_games_count(people, club, make_user):
    other = leagues.league_create(name="Other club", created_by=people["ann"])
    join(other, "ben", by=people["ann"])
    record(people, club, {"ann": 1, "ben": 2})
    record(people, club, {"ann": 2, "ben": 1}, league=False)  # no league
    leagues.match_record(
        game="oceans",
        played_at="2026-10-02",
        league=other.slug,
        results=[{"player": "ann", "rank": 2}, {"player": "ben", "rank": 1}],
        recorded_by=people["ann"],
    )
    finished_cup(people, club, {"cat": 1, "ann": 2})
    rows = selectors.league_table(club)
    # ann and cat: a point and a win each; cat's average place (1) is the better.
    assert lines(rows) == [("cat", 1, 1, 1), ("ann", 2, 1, 1), ("ben", 1, 0, 0)]
    by = {r["player"]: r for r in rows}
    assert by["ann"]["average_place"] == 1.5
    # The league Elo knows only these two games, not ann's global Oceans rating.
    ratings_update(slug="oceans")
    ladder = EloLadder()
    ladder.rate(["ann", "ben"], [1, 2])
    ladder.rate(["cat", "ann"], [1, 2])
    assert by["ann"]["elo"] == pytest.approx(ladder.rating("ann"))
    assert by["cat"]["elo"] == pytest.approx(ladder.rating("cat"))
    assert by["ben"]["elo"] == pytest.approx(1484)


def test_per_game_and_overall_with_a_guest_and_shared_places(people, club):
    record(people, club, {"ann": 1, "ben": 1, "cat": 3})  # ann, ben share 5 + 3
    leagues.match_record(
        game=DSA,
        played_at="2026-10-03",
        league=club.slug,
        results=[
            {"player": "Zoe", "rank": 1, "guest": True},
            {"player": "cat", "rank": 2},
            {"player": "ann", "rank": 3},
        ],
        recorded_by=people["org"],
    )
    oceans = selectors.league_table(club, slug="oceans")
    assert lines(oceans) == [("ann", 1, 1, 4), ("ben", 1, 1, 4), ("cat", 1, 0, 1)]
    dsa = selectors.league_table(club, slug=DSA)
    assert lines(dsa) == [("cat", 1, 0, 3), ("ann", 1, 0, 1)]  # the guest is not listed
    overall = selectors.league_table(club)
    assert lines(overall) == [("ann", 2, 1, 5), ("ben", 1, 1, 4), ("cat", 2, 0, 4)]


def test_a_season_counts_its_days_and_its_tournaments(people, club):
    autumn = leagues.season_add(
        league=club,
        name="Autumn",
        starts_on=dt.date(2026, 9, 1),
        ends_on=dt.date(2026, 10, 31),
        by=people["org"],
    )
    winter = leagues.season_add(
        league=club, name="Winter", starts_on=dt.date(2026, 11, 1), by=people["org"]
    )
    record(people, club, {"ann": 1, "ben": 2}, on="2026-10-01")
    record(people, club, {"ben": 1, "cat": 2}, on="2026-08-01")  # before any season
    cup = finished_cup(people, club, {"cat": 1, "ann": 2})  # played today, in winter's days
    assert lines(selectors.league_table(club, season=autumn)) == [
        ("ann", 1, 1, 1),
        ("ben", 1, 0, 0),
    ]
    assert lines(selectors.league_table(club, season=winter)) == [
        ("cat", 1, 1, 1),
        ("ann", 1, 0, 0),
    ]
    leagues.season_tournament_add(season=autumn, tournament=cup, by=people["org"])
    assert [r["player"] for r in selectors.league_table(club, season=autumn)] == [
        "cat",
        "ann",
        "ben",
    ]
    assert selectors.league_table(club, season=winter) == []
    assert selectors.current_season(club) == winter


def test_seasons_never_overlap_and_end_after_they_start(people, club):
    add = leagues.season_add
    add(league=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-10-31", by=people["org"])
    for starts, ends in [
        ("2026-10-31", "2026-12-31"),
        ("2026-08-01", "2026-09-01"),
        ("2026-01-01", None),
    ]:
        with pytest.raises(Exception, match="may not overlap"):
            add(league=club, name="Clash", starts_on=starts, ends_on=ends, by=people["org"])
    with pytest.raises(Exception, match="cannot end before it starts"):
        add(
            league=club, name="Back", starts_on="2026-12-05", ends_on="2026-12-01", by=people["org"]
        )
    add(league=club, name="Winter", starts_on="2026-11-01", by=people["org"])
    with pytest.raises(Exception, match="may not overlap"):
        add(league=club, name="Later", starts_on="2027-06-01", by=people["org"])  # winter is open
    other = leagues.league_create(name="Other", created_by=people["org"])
    add(league=other, name="Autumn", starts_on="2026-09-01", by=people["org"])  # another league
    assert list(Season.objects.filter(league=club).values_list("name", flat=True)) == [
        "Winter",
        "Autumn",
    ]


def test_a_tournament_joins_only_a_season_of_its_own_league(people, club):
    other = leagues.league_create(name="Other", created_by=people["org"])
    season = leagues.season_add(league=other, name="S", starts_on="2026-01-01", by=people["org"])
    cup = finished_cup(people, club, {"ann": 1, "ben": 2})
    with pytest.raises(Exception, match="is not a tournament of Other"):
        leagues.season_tournament_add(season=season, tournament=cup, by=people["org"])
    mine = leagues.season_add(league=club, name="S", starts_on="2026-01-01", by=people["org"])
    with pytest.raises(Exception, match="only the league's organisers"):
        leagues.season_tournament_add(season=mine, tournament=cup, by=people["ann"])
    cup.refresh_from_db()
    assert cup.season is None


# -- the page ------------------------------------------------------------------------------------


def test_the_page_shows_the_current_season_then_others_on_request(client, people, club):
    autumn = leagues.season_add(
        league=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-10-31", by=people["org"]
    )
    leagues.season_add(league=club, name="Winter", starts_on="2026-11-01", by=people["org"])
    record(people, club, {"ann": 1, "ben": 2}, on="2026-10-01")
    record(people, club, {"cat": 1, "ben": 2}, on="2026-11-20", game=DSA)
    url = reverse("league-detail", args=[club.slug])
    page = client.get(url)
    assert page.context["choice"].season.name == "Winter"
    assert [r["player"] for r in page.context["standings"]] == ["cat", "ben"]
    page = client.get(url, {"season": autumn.pk})
    assert [r["player"] for r in page.context["standings"]] == ["ann", "ben"]
    page = client.get(url, {"season": "all", "game": DSA})
    assert [r["player"] for r in page.context["standings"]] == ["cat", "ben"]
    body = page.content.decode()
    assert "Deep Sea Adventure" in body and "Autumn" in body and "All time" in body
    for bad in ({"season": "999"}, {"season": "x"}, {"game": "chess"}):
        assert client.get(url, bad).status_code == 404


def test_the_csv_export_is_the_standings_shown(client, people, club):
    record(people, club, {"ann": 1, "ben": 2, "cat": 3})
    response = client.get(reverse("league-standings-csv", args=[club.slug]), {"season": "all"})
    assert response["Content-Type"] == "text/csv"
    assert "harbour-club-all-standings.csv" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == [
        "place",
        "player",
        "games",
        "wins",
        "points",
        "average_place",
        "elo",
        "rating",
        "deviation",
    ]
    assert [r[:5] for r in rows[1:]] == [
        ["1", "ann", "1", "1", "5"],
        ["2", "ben", "1", "0", "3"],
        ["3", "cat", "1", "0", "1"],
    ]


def test_an_organiser_adds_a_season_and_a_clash_stores_nothing(client, people, club):
    leagues.season_add(league=club, name="Autumn", starts_on="2026-09-01", by=people["org"])
    client.force_login(people["org"])
    response = client.post(
        reverse("league-season-add", args=[club.slug]),
        {"name": "Clash", "starts_on": "2026-10-01", "ends_on": "2026-10-31"},
    )
    assert response.status_code == 200
    assert "may not overlap" in response.content.decode()
    assert not Season.objects.filter(name="Clash").exists()


# -- the API -------------------------------------------------------------------------------------


def test_the_standings_api(api_for, people, club):
    autumn = leagues.season_add(
        league=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-10-31", by=people["org"]
    )
    record(people, club, {"ann": 1, "ben": 2}, on="2026-10-01")
    record(people, club, {"cat": 1, "ann": 2, "ben": 3}, on="2026-11-02", game=DSA)
    api = api_for(people["ben"])
    url = f"/api/leagues/{club.slug}/standings/"
    body = api.get(url).json()
    assert [r["player"] for r in body] == ["cat", "ann", "ben"]
    assert set(body[0]) == {
        "player",
        "games",
        "wins",
        "points",
        "average_place",
        "elo",
        "rating",
        "deviation",
        "provisional",
    }
    assert body[1] == {
        "player": "ann",
        "games": 2,
        "wins": 1,
        "points": 4.0,
        "average_place": 1.5,
        "elo": pytest.approx(body[1]["elo"]),
        "rating": pytest.approx(body[1]["rating"]),
        "deviation": pytest.approx(body[1]["deviation"]),
        "provisional": True,
    }
    # The league's own ladder in the site's model: Glicko-2 over these two games, in order,
    # ann's deviation aged from her last game here to today.
    ladder = Glicko2Ladder()
    ladder.rate(["ann", "ben"], [1, 2], when=day_number(dt.datetime(2026, 10, 1, tzinfo=dt.UTC)))
    ladder.rate(
        ["cat", "ann", "ben"], [1, 2, 3], when=day_number(dt.datetime(2026, 11, 2, tzinfo=dt.UTC))
    )
    rating, deviation, _ = ladder.rating("ann")
    assert body[1]["rating"] == pytest.approx(rating)
    assert body[1]["deviation"] >= deviation > 0
    assert body[1]["rating"] != pytest.approx(body[1]["elo"])
    assert [r["player"] for r in api.get(url, {"game": DSA}).json()] == ["cat", "ann", "ben"]
    assert [r["player"] for r in api.get(url, {"season": autumn.pk}).json()] == ["ann", "ben"]


@pytest.mark.parametrize(
    "query, status, message",
    [
        ({"game": "chess"}, 400, "unknown game 'chess'"),
        ({"season": "999"}, 404, "Harbour club has no season 999"),
        ({"season": "x"}, 400, "season"),
    ],
)
def test_bad_standings_queries_are_clear_json_errors(api_for, people, club, query, status, message):
    response = api_for(people["ann"]).get(f"/api/leagues/{club.slug}/standings/", query)
    assert response.status_code == status
    assert message in response.json()["error"]


def test_an_unknown_league_or_another_leagues_season(api_for, people, club):
    other = leagues.league_create(name="Other", created_by=people["org"])
    season = leagues.season_add(league=other, name="S", starts_on="2026-01-01", by=people["org"])
    api = api_for(people["ann"])
    response = api.get("/api/leagues/nowhere/standings/")
    assert response.status_code == 404 and response.json() == {"error": "no league 'nowhere'"}
    response = api.get(f"/api/leagues/{club.slug}/standings/", {"season": season.pk})
    assert response.status_code == 404


def test_the_schema_documents_the_standings(client):
    schema = client.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/leagues/{slug}/standings/"]["get"]
    assert {p["name"] for p in operation["parameters"]} >= {"slug", "game", "season"}
    assert set(operation["responses"]) >= {"200", "400", "404"}
    row = schema["components"]["schemas"]["LeagueStandingOut"]
    assert set(row["properties"]) == {
        "player",
        "games",
        "wins",
        "points",
        "average_place",
        "elo",
        "rating",
        "deviation",
        "provisional",
    }


def test_the_admin_refuses_an_overlapping_season_and_stores_nothing(client, people, club):
    leagues.season_add(
        league=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-10-31", by=people["org"]
    )
    people["org"].is_staff = people["org"].is_superuser = True
    people["org"].save()
    client.force_login(people["org"])
    assert client.get("/admin/league/season/").status_code == 200
    for starts, ends, message in [
        ("2026-10-15", "2026-11-30", "may not overlap"),
        ("2026-12-31", "2026-12-01", "cannot end before it starts"),
    ]:
        response = client.post(
            "/admin/league/season/add/",
            {"league": club.pk, "name": "Clash", "starts_on": starts, "ends_on": ends},
        )
        assert response.status_code == 200 and message in response.content.decode()
    assert not Season.objects.filter(name="Clash").exists()
    response = client.post(
        "/admin/league/season/add/",
        {"league": club.pk, "name": "Winter", "starts_on": "2026-11-01", "ends_on": ""},
    )
    assert response.status_code == 302 and Season.objects.filter(name="Winter").exists()


def test_an_organiser_counts_a_tournament_in_a_season_from_the_page(client, people, club):
    season = leagues.season_add(
        league=club, name="Autumn", starts_on="2026-09-01", by=people["org"]
    )
    cup = finished_cup(people, club, {"ann": 1, "ben": 2})
    url = reverse("league-season-tournament", args=[club.slug])
    client.force_login(people["ann"])
    assert (
        'id="season-tournament"'
        not in client.get(reverse("league-detail", args=[club.slug])).content.decode()
    )
    response = client.post(url, {"tournament": cup.pk, "season": season.pk})
    assert response.status_code == 403
    client.force_login(people["org"])
    assert client.post(url, {"tournament": cup.pk, "season": 999}).status_code == 200
    cup.refresh_from_db()
    assert cup.season is None
    response = client.post(url, {"tournament": cup.pk, "season": season.pk})
    assert response.status_code == 302
    cup.refresh_from_db()
    assert cup.season == season
    page = client.get(reverse("league-detail", args=[club.slug]))
    assert "Cup" in page.content.decode()


def test_the_page_shows_the_clubs_own_ladder_of_a_game(client, people, club):
    """The standings' rating is the club's own, and a game's ladder ranks it as the site's
    leaderboards do; with two game types the ladder waits for one to be chosen."""
    for _ in range(3):
        record(people, club, {"ann": 1, "ben": 2, "cat": 3}, on="2026-10-01")
    client.force_login(people["ann"])
    page = client.get(reverse("league-detail", args=[club.slug])).content.decode()
    assert "Club ladder: Oceans" in page
    assert page.count(" ± ") >= 6  # three standings rows and three ladder rows
    assert ">Elo<" not in page
    record(people, club, {"cat": 1, "ben": 2}, on="2026-10-02", game=DSA)
    page = client.get(reverse("league-detail", args=[club.slug])).content.decode()
    assert "Club ladder" not in page
    page = client.get(reverse("league-detail", args=[club.slug]), {"game": DSA}).content.decode()
    assert "Club ladder: Deep Sea Adventure" in page
