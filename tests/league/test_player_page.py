"""The player page: per game the rating and its chart, the record and best result; the game
history with filters; head to head. And the player and league pages read the same number of
queries for 10 games as for 1,000."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Rating, RatingChange
from league.services import leagues
from league.services.ratings import ratings_update
from tests.league.bulk import finished_records
from tests.league.members import join

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def people(make_user):
    made = {name: make_user(name) for name in ("org", "ann", "ben", "cat")}
    made["org"].is_staff = True  # records by staff are final at once, in a league or not
    made["org"].save()
    return made


@pytest.fixture
def club(people):
    league = leagues.league_create(name="Harbour club", created_by=people["org"])
    for name in ("ann", "ben", "cat"):
        join(league, name, by=people["org"])
    return league


def record(people, results, *, game="oceans", on="2026-10-01", league=None):
    return leagues.match_record(
        game=game,
        played_at=on,
        league=league.slug if league else None,
        results=results,
        recorded_by=people["org"],
    )


def text(response) -> str:
    return response.content.decode()


@pytest.fixture
def anns_games(people, club):
    """ann: three Oceans games (won 2, one shared first; scores 30, 25, 18) and one Deep Sea
    Adventure game (3rd of 3, no score), the first two in the club."""
    games = [
        record(
            people,
            [{"player": "ann", "rank": 1, "score": 30}, {"player": "ben", "rank": 2, "score": 20}],
            on="2026-10-01",
            league=club,
        ),
        record(
            people,
            [
                {"player": "ann", "rank": 1, "score": 25},
                {"player": "cat", "rank": 1, "score": 25},
                {"player": "Zoe", "rank": 3, "score": 10, "guest": True},
            ],
            on="2026-10-08",
            league=club,
        ),
        record(
            people,
            [{"player": "ben", "rank": 1, "score": 40}, {"player": "ann", "rank": 2, "score": 18}],
            on="2026-10-15",
        ),
        record(
            people,
            [
                {"player": "ben", "rank": 1},
                {"player": "cat", "rank": 2},
                {"player": "ann", "rank": 3},
            ],
            game=DSA,
            on="2026-10-22",
        ),
    ]
    ratings_update(slug="oceans")
    ratings_update(slug=DSA)
    return games


def test_per_game_record_and_best_result(client, anns_games):
    page = client.get(reverse("player", args=["ann"]))
    cards = {card["game"]: card for card in page.context["cards"]}
    oceans = cards["oceans"]["summary"]
    assert (oceans["games"], oceans["wins"]) == (3, 2)
    assert oceans["win_rate"] == pytest.approx(2 / 3)
    assert oceans["average_score"] == pytest.approx((30 + 25 + 18) / 3)
    assert oceans["average_place"] == pytest.approx(4 / 3)
    assert cards["oceans"]["best"] == "1st of 2" and oceans["best"].score == 30
    dsa = cards[DSA]["summary"]
    assert (dsa["games"], dsa["wins"], dsa["average_score"], dsa["average_place"]) == (
        1,
        0,
        None,
        3,
    )
    body = text(page)
    assert "Win rate" in body and "67%" in body and "1st of 2" in body
    assert cards["oceans"]["rating"] == Rating.objects.get(user__username="ann", slug="oceans")


def test_the_chart_has_dates_on_its_axis_and_values_on_hover(client, anns_games):
    page = client.get(reverse("player", args=["ann"]))
    chart = next(c for c in page.context["cards"] if c["game"] == "oceans")["chart"]
    assert len(chart.points) == 3
    body = text(page)
    assert "1 Oct 2026" in body and "15 Oct 2026" in body
    row = Rating.objects.get(user__username="ann", slug="oceans")
    after = row.glicko_rating  # the rating shown, not the Elo
    assert round(after) != round(row.rating)
    assert f"<title>15 Oct 2026: {after:.0f}</title>" in body  # a rating: a whole number
    assert chart.band  # the margin drawn about the line


def test_the_chart_shows_the_last_hundred_games_and_pages_back(client, people):
    finished_records(130, [people["ann"], people["ben"]], slugs=("oceans",))
    Rating.objects.create(
        user=people["ann"],
        slug="oceans",
        rating=1630,
        games=130,
        openskill_mu=25,
        openskill_sigma=8,
    )
    url = reverse("player", args=["ann"])
    card = next(c for c in client.get(url).context["cards"] if c["game"] == "oceans")
    chart = card["chart"]
    assert (len(chart.points), chart.first, chart.last, chart.pages) == (100, 31, 130, 2)
    last = RatingChange.objects.filter(user=people["ann"], slug="oceans").last()
    assert chart.points[-1].value == last.glicko_rating_after  # the rating shown
    assert card["earlier"] == "?chart-oceans=2" and card["later"] is None
    card = next(
        c for c in client.get(url + card["earlier"]).context["cards"] if c["game"] == "oceans"
    )
    assert (len(card["chart"].points), card["chart"].first, card["chart"].last) == (30, 1, 30)
    assert card["later"] == "?chart-oceans=1"


def test_the_history_filters_by_game_league_and_result(client, anns_games, club):
    url = reverse("player", args=["ann"])

    def shown(**query):
        return [row["played"].game.pk for row in client.get(url, query).context["history"]]

    ids = [g.pk for g in anns_games]
    assert shown() == ids[::-1]
    assert shown(game=DSA) == [ids[3]]
    assert shown(league=club.slug) == [ids[1], ids[0]]
    assert shown(result="won") == [ids[1], ids[0]]
    assert shown(result="lost", game="oceans") == [ids[2]]
    assert shown(game="chess", league="nowhere", result="maybe") == ids[::-1]  # ignored
    page = client.get(url)
    rows = {row["played"].game.pk: row for row in page.context["history"]}
    assert rows[ids[1]]["place"] == "1st= of 3"
    assert rows[ids[1]]["against"] == ["cat", "Zoe (guest)"]
    assert "Harbour club" in text(page)


def test_the_history_pages_by_twenty_five(client, people):
    finished_records(60, [people["ann"], people["ben"]])
    url = reverse("player", args=["ann"])
    page = client.get(url)
    assert len(page.context["history"]) == 25 and page.context["older"] == "?page=2"
    last = client.get(url, {"page": 3})
    assert len(last.context["history"]) == 10 and last.context["older"] is None


def test_head_to_head(client, anns_games):
    url = reverse("player", args=["ann"])
    versus = client.get(url, {"vs": "ben"}).context["versus"]
    assert versus["total"] == {"games": 3, "ahead": 1, "behind": 2, "level": 0}
    assert [(r["game"], r["ahead"], r["behind"]) for r in versus["games"]] == [
        (DSA, 0, 1),
        ("oceans", 1, 1),
    ]
    versus = client.get(url, {"vs": "cat"}).context["versus"]
    assert versus["total"] == {"games": 2, "ahead": 0, "behind": 1, "level": 1}
    page = client.get(url, {"vs": "nobody"})
    assert page.status_code == 200 and "There is no member called nobody." in text(page)
    assert client.get(url, {"vs": "ann"}).context["versus"] is None


def test_the_page_speaks_the_games_words(client, anns_games):
    body = text(client.get(reverse("player", args=["ann"])))
    for word in ("Seat", "seat ", "version", "ResultRecorded", "GameFinished", "oceans #"):
        assert word not in body
    assert not re.search(r">\s*deep-sea-adventure\s*<", body)


# -- queries --------------------------------------------------------------------------------------


def queries(client, url: str) -> int:
    with CaptureQueriesContext(connection) as done:
        assert client.get(url).status_code == 200
    return len(done.captured_queries)


@pytest.mark.parametrize("page", ["player", "player-vs", "league"])
def test_the_pages_read_as_many_queries_for_a_thousand_games_as_for_ten(
    client, people, make_user, page
):
    counts = []
    for size in (10, 1000):
        ann, ben = make_user(f"ann{size}"), make_user(f"ben{size}")
        league = leagues.league_create(name=f"Club {size}", created_by=ann)
        join(league, ben.username, by=ann)
        leagues.season_add(league=league, name="All year", starts_on="2025-01-01", by=ann)
        finished_records(size, [ann, ben], league=league)
        for slug in ("oceans", DSA):
            Rating.objects.create(
                user=ann, slug=slug, rating=1600, games=size, openskill_mu=25, openskill_sigma=8
            )
        url = {
            "player": reverse("player", args=[ann.username]),
            "player-vs": reverse("player", args=[ann.username]) + f"?vs={ben.username}&page=2",
            "league": reverse("league-detail", args=[league.slug]),
        }[page]
        client.force_login(ann)
        counts.append(queries(client, url))
    assert counts[0] == counts[1]


def test_the_api_gives_the_record_per_game_oceans_included(api_for, people, anns_games):
    body = api_for(people["ben"]).get("/api/players/ann/").json()
    games = {row["game"]: row for row in body["games"]}
    assert games["oceans"] == {
        "game": "oceans",
        "games": 3,
        "wins": 2,
        "win_rate": pytest.approx(2 / 3),
        "average_score": pytest.approx(73 / 3),
        "average_place": pytest.approx(4 / 3),
    }
    assert games[DSA]["average_score"] is None
    assert {row["game"] for row in body["ratings"]} == {"oceans", DSA}
