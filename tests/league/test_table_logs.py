"""A table-mode tournament's table played as a table log (league.services.table_logs): kept
move by move by a player there or an organiser, its result from the rules, no confirmation,
counted in the standings and rated."""

from __future__ import annotations

import random

import pytest

from games.models import Event, Game
from games.records.verify import verify
from league.models import RatingChange

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def players(make_user):
    return {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}


@pytest.fixture
def organiser(api_for, make_user):
    return api_for(make_user("org"))


def tournament(organiser) -> int:
    body = {
        "name": "Winter open",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "mode": "table",
        "players": ["ann", "ben", "cat", "dan"],
    }
    response = organiser.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def enter_to_the_end(client, game_id: int, rng: random.Random) -> None:
    while True:
        now = client.get(f"/api/games/{game_id}/log/").json()
        if now["due"] is None:
            return
        seat = "chance" if now["due"] == "chance" else now["seat"]
        response = client.post(
            f"/api/games/{game_id}/actions/",
            {
                "seat": seat,
                "expected_version": now["version"],
                "action": rng.choice(now["choices"]),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()


def test_a_table_played_as_a_log_counts_in_the_standings_without_confirmation(
    organiser, api_for, players, django_capture_on_commit_callbacks
):
    tid = tournament(organiser)
    for player in players.values():  # each accepts the organiser's entry: their games are rated
        assert api_for(player).post(f"/api/tournaments/{tid}/accept/").status_code == 201
    round1 = organiser.post(f"/api/tournaments/{tid}/rounds/", format="json").json()
    logged, reported = round1["tables"]
    keeper = players[logged["seats"][0]]
    response = api_for(keeper).post(
        f"/api/tournaments/{tid}/tables/{logged['id']}/log/", format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["mode"] == "log" and response.json()["scorekeeper"] == keeper.username

    with django_capture_on_commit_callbacks(execute=True):
        enter_to_the_end(api_for(keeper), logged["game"], random.Random(7))
    game = Game.objects.get(pk=logged["game"])
    assert game.status == "finished"
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds[:2] == ["GameCreated", "LogStarted"] and kinds[-1] == "GameFinished"
    assert "ResultReported" not in kinds and "ResultConfirmed" not in kinds
    # Its bundle replays offline from the log alone (the options are in LogStarted).
    assert verify(organiser.get(f"/api/games/{game.pk}/export/").content).replayed
    assert set(RatingChange.objects.filter(game=game).values_list("user__username", flat=True)) == {
        *logged["seats"]
    }

    # The other table reports and confirms as before.
    a, b = reported["seats"]
    url = f"/api/tournaments/{tid}/tables/{reported['id']}"
    results = [{"player": a, "score": 5, "rank": 1}, {"player": b, "score": 1, "rank": 2}]
    assert (
        api_for(players[a]).post(f"{url}/report/", {"results": results}, format="json").status_code
        == 201
    )
    assert (
        api_for(players[b]).post(f"{url}/confirm/", {"results": results}, format="json").status_code
        == 201
    )

    standings = organiser.get(f"/api/tournaments/{tid}/standings/").json()
    by_player = {row["player"]: row for row in standings}
    assert all(row["games"] == 1 for row in standings)
    ranks = {r["player"]: r["rank"] for r in game.result}
    winners = [name for name, rank in ranks.items() if rank == 1]
    assert [by_player[name]["wins"] for name in logged["seats"]] == [
        int(name in winners) for name in logged["seats"]
    ]
    if len(winners) == 1:  # a 2-player table scores 1 for the winner, 0 for the other
        assert [by_player[name]["points"] for name in logged["seats"]] == [
            float(ranks[name] == 1) for name in logged["seats"]
        ]
    # Both tables are done: the next round pairs.
    assert organiser.post(f"/api/tournaments/{tid}/rounds/", format="json").status_code == 201


def test_who_may_keep_a_tables_log(organiser, api_for, players, make_user):
    tid = tournament(organiser)
    table = organiser.post(f"/api/tournaments/{tid}/rounds/", format="json").json()["tables"][0]
    url = f"/api/tournaments/{tid}/tables/{table['id']}/log/"
    outsider = next(p for name, p in players.items() if name not in table["seats"])
    response = api_for(outsider).post(url, format="json")
    assert response.status_code == 403
    assert "a player at this table or an organiser" in response.json()["error"]
    assert Game.objects.get(pk=table["game"]).mode == "record"
    # An organiser may, and is then the scorekeeper; a second start is refused.
    response = organiser.post(url, format="json")
    assert response.status_code == 201 and response.json()["scorekeeper"] == "org"
    response = api_for(players[table["seats"][0]]).post(url, format="json")
    assert response.status_code == 409
    assert Event.objects.filter(game_id=table["game"], kind="LogStarted").count() == 1


def test_a_table_with_a_reported_result_is_not_logged(organiser, api_for, players):
    tid = tournament(organiser)
    table = organiser.post(f"/api/tournaments/{tid}/rounds/", format="json").json()["tables"][0]
    a, b = table["seats"]
    results = [{"player": a, "score": 5, "rank": 1}, {"player": b, "score": 1, "rank": 2}]
    api_for(players[a]).post(
        f"/api/tournaments/{tid}/tables/{table['id']}/report/", {"results": results}, format="json"
    )
    response = api_for(players[a]).post(
        f"/api/tournaments/{tid}/tables/{table['id']}/log/", format="json"
    )
    assert response.status_code == 409
    assert "a result has been reported" in response.json()["error"]
    assert Game.objects.get(pk=table["game"]).mode == "record"


def test_the_tournament_page_offers_the_log_and_takes_the_scorekeeper_there(
    organiser, client, players
):
    tid = tournament(organiser)
    table = organiser.post(f"/api/tournaments/{tid}/rounds/", format="json").json()["tables"][0]
    client.force_login(players[table["seats"][0]])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Keep this table&#x27;s log, move by move" in page or "Keep this table's log" in page
    response = client.post(f"/tournaments/{tid}/tables/{table['id']}/log/")
    assert response.status_code == 302
    assert response["Location"] == f"/games/{table['game']}/log/"
    page = client.get(response["Location"]).content.decode()
    assert "What to enter, and when" in page
    assert "Treasure values stay face down" in page
    after = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Played as a table log" in after
