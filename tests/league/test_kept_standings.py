"""A league's standings kept between requests (league.selectors.kept_tables): carried on with
the games finished since, recomputed when a game already counted changes, and always the same
as a full recompute from every game."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from league import selectors
from league.selectors import KeptTables, kept_tables, standings_out, tables_recomputed
from league.services import leagues
from tests.league.members import join

pytestmark = pytest.mark.django_db


@pytest.fixture
def people(make_user):
    return {name: make_user(name) for name in ("org", "ann", "ben", "cat", "dan")}


@pytest.fixture
def club(people):
    league = leagues.league_create(name="Harbour club", created_by=people["org"])
    for name in ("ann", "ben", "cat", "dan"):
        join(league, name, by=people["org"])
    return league


def record(people, club, ranks: dict[str, int], *, game="oceans", on="2026-10-01"):
    return leagues.match_record(
        game=game,
        played_at=on,
        league=club.slug,
        results=[{"player": p, "rank": r, "score": 10 - r} for p, r in ranks.items()],
        recorded_by=people["org"],
    )


def same_as_recomputed(club, season=None) -> dict:
    kept = standings_out(kept_tables(club, season=season))
    assert kept == standings_out(tables_recomputed(club, season=season))
    return kept


def games_read() -> mock.MagicMock:
    """Counts the games taken into the standings."""
    return mock.patch.object(KeptTables, "add", autospec=True, side_effect=KeptTables.add)


def test_new_games_are_added_to_the_kept_standings_not_recounted(people, club):
    record(people, club, {"ann": 1, "ben": 2, "cat": 3})
    record(people, club, {"ben": 1, "ann": 2}, on="2026-10-02")
    same_as_recomputed(club)
    record(people, club, {"cat": 1, "dan": 2, "ann": 3}, game="deep-sea-adventure", on="2026-10-03")
    with games_read() as added:
        kept = standings_out(kept_tables(club))
    assert added.call_count == 1  # only the new game
    assert kept == standings_out(tables_recomputed(club))
    assert [t["game"] for t in kept["games"]] == ["deep-sea-adventure", "oceans"]


def test_unchanged_standings_cost_one_query(people, club):
    record(people, club, {"ann": 1, "ben": 2})
    kept_tables(club)
    with CaptureQueriesContext(connection) as queries, games_read() as added:
        kept_tables(club)
    assert len(queries) == 1 and added.call_count == 0


def test_a_correction_of_an_earlier_game_recomputes_the_standings(people, club):
    first = record(people, club, {"ann": 1, "ben": 2, "cat": 3})
    record(people, club, {"ben": 1, "ann": 2}, on="2026-10-02")
    before = same_as_recomputed(club)
    leagues.match_correct(
        game=first,
        results=[
            {"player": "cat", "rank": 1, "score": 9},
            {"player": "ben", "rank": 2, "score": 8},
            {"player": "ann", "rank": 3, "score": 7},
        ],
        by=people["org"],
        reason="the sheet was read upside down",
    )
    after = same_as_recomputed(club)
    assert after != before
    points = {row["player"]: row["points"] for row in after["overall"]}
    assert points == {"cat": 5, "ben": 3 + 1, "ann": 1 + 0}
    elo = {row["player"]: row["elo"] for row in after["overall"]}
    assert elo["cat"] > 1500  # the league Elo runs again over the corrected first game


def test_an_older_game_recorded_later_takes_its_place_in_the_order(people, club):
    record(people, club, {"ann": 1, "ben": 2}, on="2026-10-05")
    same_as_recomputed(club)
    record(people, club, {"ben": 1, "ann": 2}, on="2026-09-01")  # an older record, imported
    kept = same_as_recomputed(club)
    assert {row["player"]: row["games"] for row in kept["overall"]} == {"ann": 2, "ben": 2}


def test_a_seasons_days_moving_changes_its_standings(people, club):
    season = leagues.season_add(
        league=club, name="Autumn", starts_on="2026-09-01", ends_on="2026-09-30", by=people["org"]
    )
    record(people, club, {"ann": 1, "ben": 2}, on="2026-09-15")
    record(people, club, {"ben": 1, "cat": 2}, on="2026-10-15")
    assert len(same_as_recomputed(club, season)["overall"]) == 2
    season.ends_on = dt.date(2026, 10, 31)
    season.save()
    assert len(same_as_recomputed(club, season)["overall"]) == 3
    season.ends_on = dt.date(2026, 9, 30)  # a game counted before leaves the season
    season.save()
    assert len(same_as_recomputed(club, season)["overall"]) == 2


def test_the_league_page_shows_the_kept_standings(client, people, club):
    record(people, club, {"ann": 1, "ben": 2})
    client.get(f"/leagues/{club.slug}/?season=all")
    record(people, club, {"ben": 1, "cat": 2, "ann": 3}, on="2026-10-02")
    page = client.get(f"/leagues/{club.slug}/?season=all")
    rows = [{k: row[k] for k in selectors.STANDINGS_COLUMNS} for row in page.context["standings"]]
    recomputed = selectors.standings_out(tables_recomputed(club))["overall"]
    assert rows == [{k: row[k] for k in selectors.STANDINGS_COLUMNS} for row in recomputed]
    assert [r["player"] for r in rows][:1] == ["ben"]
