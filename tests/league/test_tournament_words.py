"""A tournament's pages and exports in players' words (issue 39, item 8): the player panel stops
asking for a report once the event is over, a bye is worth "1 point" (not "1 points"), and a
CSV column writes its numbers alike ("30", never "30.0" beside "25")."""

from __future__ import annotations

import csv
import html
import io
from functools import partial

import pytest

from league.services import leagues
from tests.league import tournament_steps
from tests.league.tournament_steps import override, pair, ranked

pytestmark = pytest.mark.django_db
NAMES = ("ann", "ben", "cat", "dan")
create = partial(tournament_steps.create, players=["ann", "ben", "cat"], rounds=1)


def page_of(client, user, tid) -> str:
    client.force_login(user)
    return html.unescape(client.get(f"/tournaments/{tid}/").content.decode())


def test_a_bye_is_worth_one_point_in_the_singular(org, client, users):
    tid = create(org, bye_points=1)
    round_1 = pair(org, tid)
    (bye,) = round_1["byes"]
    page = page_of(client, users[bye], tid)
    assert "points</dd>" not in page and "1 point</dd>" in page  # the event's facts
    assert f"Bye: {bye} (1 point)" in page  # the round
    assert "and take 1 point." in page  # the panel of the player who sits out
    assert "1 points" not in page


def test_a_bye_of_more_points_says_points(org, client, users):
    tid = create(org, bye_points=1.5)
    pair(org, tid)
    page = page_of(client, users["org"], tid)
    assert "1.5 points</dd>" in page


def test_the_panel_asks_for_a_report_only_while_the_event_runs(org, client, users):
    tid = create(org)
    round_1 = pair(org, tid)
    (table,) = round_1["tables"]
    player = users[table["seats"][0]]
    assert "Report your table's result" in page_of(client, player, tid)
    assert override(org, tid, table["id"], ranked(*table["seats"])).status_code in (200, 201)
    assert org.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"  # its one round
    page = page_of(client, player, tid)
    panel = page[page.index('id="my-entry"') :]
    assert "Report your table's result" not in panel
    assert "The event is over" in panel


def test_a_csv_column_writes_whole_scores_alike(org, users):
    tid = create(org, players=["ann", "ben", "cat", "dan"], rounds=1)
    first, second = pair(org, tid)["tables"]
    override(org, tid, first["id"], ranked(*first["seats"], scores=[30.0, 25]))
    override(org, tid, second["id"], ranked(*second["seats"], scores=[12.5, 12]))
    text = org.get(f"/api/tournaments/{tid}/results.csv").content.decode()
    scores = [row["score"] for row in csv.DictReader(io.StringIO(text))]
    assert scores == ["30", "25", "12.5", "12"]


def test_the_league_plays_export_writes_whole_scores_alike(api, client, alice):
    club = leagues.league_create(name="Reef club", created_by=alice)
    for scores in ((30.0, 25), (7, 6.5)):
        made = api.post(
            "/api/matches/",
            {
                "game": "abyss",
                "played_at": "2026-11-20",
                "league": club.slug,
                "results": [
                    {"player": "alice", "rank": 1, "score": scores[0]},
                    {"player": "guest Mina", "guest": True, "rank": 2, "score": scores[1]},
                ],
            },
            format="json",
        )
        assert made.status_code == 201, made.json()
    client.force_login(alice)
    text = client.get(f"/leagues/{club.slug}/export/?format=csv").content.decode()
    assert [row["score"] for row in csv.DictReader(io.StringIO(text))] == ["30", "25", "7", "6.5"]


def test_a_players_best_result_counts_its_points_in_words(api, client, alice):
    made = api.post(
        "/api/matches/",
        {
            "game": "abyss",
            "played_at": "2026-11-20",
            "results": [
                {"player": "alice", "rank": 1, "score": 1.0},
                {"player": "Mina", "guest": True, "rank": 2, "score": 0},
            ],
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    page = html.unescape(client.get(f"/players/{alice.username}/").content.decode())
    assert ", 1 point</dd>" in page and "1.0 points" not in page
