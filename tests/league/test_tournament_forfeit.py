"""When a player is absent: the organiser forfeits their table (a no-show, a walk-out) or
adjudicates it, a drop forfeits the dropped player's game in progress, and an override that
names no bid keeps the bid reported. Every step is an event of the table's game and of the
tournament's log; a bad request changes nothing."""

from __future__ import annotations

from functools import partial

import pytest

from games.models import Event, Game, GameStatus
from league.models import TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import DSA, forfeit, kinds, pair

pytestmark = pytest.mark.django_db
DV = "deep-vents"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")

# Played online unless a test says otherwise.
create = partial(tournament_steps.create, mode="online")


def events_of(game_id) -> list[str]:
    return list(Event.objects.filter(game_id=game_id).values_list("kind", flat=True))


# -- a no-show at an online table -------------------------------------------------------------


def test_a_no_show_at_an_online_table_of_two_loses_by_forfeit(org, users):
    tid = create(org)
    table = pair(org, tid)["tables"][0]
    absent, present = table["seats"]
    response = forfeit(org, tid, table["id"], player=absent, reason="did not come back")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=table["game"])
    assert game.status == GameStatus.FINISHED
    result = {r["player"]: r["rank"] for r in game.result}
    assert result == {present: 1, absent: 2}
    resigned = Event.objects.get(game=game, kind="SeatResigned")
    assert resigned.actor_id == users["org"].pk
    assert resigned.data["reason"] == "did not come back"
    assert kinds(tid)[-1] == "TableForfeited"
    logged = TournamentEvent.objects.filter(tournament_id=tid).last()
    assert logged.data == {
        "round": 1,
        "table": 1,
        "player": absent,
        "reason": "did not come back",
    }


def test_forfeits_finish_a_round_so_the_next_one_pairs(org):
    tid = create(org)
    for table in pair(org, tid)["tables"]:
        response = forfeit(org, tid, table["id"], player=table["seats"][1], reason="no-show")
        assert response.status_code == 201
    second = pair(org, tid)
    assert second["number"] == 2
    for table in second["tables"]:
        forfeit(org, tid, table["id"], player=table["seats"][0], reason="no-show")
    assert org.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"


def test_at_a_table_of_three_the_game_goes_on_without_the_absent_player(org):
    tid = create(org, table_size=3, players=["ann", "ben", "cat"], rounds=1)
    table = pair(org, tid)["tables"][0]
    absent = table["seats"][0]
    assert forfeit(org, tid, table["id"], player=absent, reason="left").status_code == 201
    game = Game.objects.get(pk=table["game"])
    assert game.seats.get(user__username=absent).resigned
    assert game.status == GameStatus.ACTIVE, "two players still play"
    again = forfeit(org, tid, table["id"], player=absent, reason="left")
    assert again.status_code == 422 and "already" in again.json()["error"]


@pytest.mark.parametrize(
    "body, status, words",
    [
        ({"player": "nobody", "reason": "x"}, 422, "not at table"),
        ({"player": "SEAT", "reason": ""}, 400, "reason"),
        ({"player": "SEAT", "reason": "\t"}, 400, "reason"),
        ({"player": "\t", "reason": "x"}, 400, "player"),
        ({"player": "SEAT"}, 400, "reason"),
        ({"reason": "x"}, 422, "results"),
        ({"player": "SEAT", "results": [{"player": "ann", "rank": 1}], "reason": "x"}, 422, "one"),
    ],
)
def test_a_bad_forfeit_is_refused_and_changes_nothing(org, body, status, words):
    tid = create(org)
    table = pair(org, tid)["tables"][0]
    if body.get("player") == "SEAT":
        body["player"] = table["seats"][0]
    before = (Event.objects.count(), TournamentEvent.objects.count())
    response = forfeit(org, tid, table["id"], **body)
    assert response.status_code == status and words in response.json()["error"]
    assert (Event.objects.count(), TournamentEvent.objects.count()) == before


def test_only_an_organiser_forfeits_and_not_a_finished_table(org, api_for, users):
    tid = create(org)
    table = pair(org, tid)["tables"][0]
    a, b = table["seats"]
    player = api_for(users[b])
    refused = forfeit(player, tid, table["id"], player=a, reason="gone")
    assert refused.status_code == 403 and "organisers" in refused.json()["error"]
    assert forfeit(org, tid, table["id"], player=a, reason="gone").status_code == 201
    over = forfeit(org, tid, table["id"], player=b, reason="gone")
    assert over.status_code == 422 and "finished" in over.json()["error"]
    assert forfeit(org, tid, 999999, player=a, reason="gone").status_code == 404


# -- adjudication ----------------------------------------------------------------------------


def test_the_organiser_adjudicates_an_online_table(org, users):
    tid = create(org, rounds=1, players=["ann", "ben"])
    table = pair(org, tid)["tables"][0]
    a, b = table["seats"]
    results = [{"player": a, "score": None, "rank": 2}, {"player": b, "score": None, "rank": 1}]
    response = forfeit(org, tid, table["id"], results=results, reason="time ran out at the venue")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=table["game"])
    assert game.status == GameStatus.FINISHED
    assert {r["player"]: r["rank"] for r in game.result} == {a: 2, b: 1}
    assert events_of(game.pk)[-2:] == ["ResultAdjudicated", "GameFinished"]
    assert Event.objects.get(game=game, kind="ResultAdjudicated").actor_id == users["org"].pk
    assert kinds(tid)[-2:] == ["TableAdjudicated", "TournamentFinished"]
    bad = forfeit(org, tid, table["id"], results=results, reason="again")
    assert bad.status_code == 422


def test_an_adjudication_naming_other_players_is_refused(org):
    tid = create(org, rounds=1, players=["ann", "ben"])
    table = pair(org, tid)["tables"][0]
    results = [{"player": "cat", "score": 1, "rank": 1}, {"player": "dan", "score": 0, "rank": 2}]
    before = Event.objects.count()
    response = forfeit(org, tid, table["id"], results=results, reason="x")
    assert response.status_code == 422 and "exactly the players" in response.json()["error"]
    assert Event.objects.count() == before


# -- a table played on a table ------------------------------------------------------------


def test_a_no_show_at_a_table_mode_table_is_placed_last_by_the_organiser(org, api_for, users):
    tid = create(org, mode="table", table_size=3, players=["ann", "ben", "cat"], rounds=1)
    table = pair(org, tid)["tables"][0]
    absent = table["seats"][1]
    response = forfeit(org, tid, table["id"], player=absent, reason="no-show")
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "finished"
    game = Game.objects.get(pk=table["game"])
    ranks = {r["player"]: r["rank"] for r in game.result}
    assert ranks[absent] == 3 and sorted(ranks.values()) == [1, 1, 3]
    assert events_of(game.pk)[-2:] == ["ResultOverridden", "GameFinished"]
    assert kinds(tid)[-2:] == ["TableForfeited", "TournamentFinished"]


def test_a_table_mode_forfeit_keeps_the_order_others_reported(org, api_for, users):
    tid = create(org, mode="table", table_size=3, players=["ann", "ben", "cat"], rounds=1)
    table = pair(org, tid)["tables"][0]
    x, y, z = table["seats"]
    reported = [
        {"player": z, "score": 9, "rank": 1},
        {"player": y, "score": 5, "rank": 2},
        {"player": x, "score": 1, "rank": 3},
    ]
    url = f"/api/tournaments/{tid}/tables/{table['id']}/report/"
    assert api_for(users[z]).post(url, {"results": reported}, format="json").status_code == 201
    assert forfeit(org, tid, table["id"], player=z, reason="left early").status_code == 201
    game = Game.objects.get(pk=table["game"])
    assert {r["player"]: r["rank"] for r in game.result} == {y: 1, x: 2, z: 3}


def test_a_no_show_at_a_table_kept_as_a_log_is_placed_last(org, api_for, users):
    tid = create(org, mode="table", players=["ann", "ben"], rounds=1)
    table = pair(org, tid)["tables"][0]
    keeper, absent = table["seats"]
    logged = api_for(users[keeper]).post(f"/api/tournaments/{tid}/tables/{table['id']}/log/")
    assert logged.status_code == 201, logged.json()
    response = forfeit(org, tid, table["id"], player=absent, reason="no-show")
    assert response.status_code == 201, response.json()
    game = Game.objects.get(pk=table["game"])
    assert {r["player"]: r["rank"] for r in game.result} == {keeper: 1, absent: 2}
    assert events_of(game.pk)[-2:] == ["ResultAdjudicated", "GameFinished"]


# -- a drop ---------------------------------------------------------------------------------


def test_a_drop_forfeits_the_dropped_players_game_in_progress(org, api_for, users):
    tid = create(org)
    table = pair(org, tid)["tables"][0]
    leaver, other = table["seats"]
    response = api_for(users[leaver]).post(
        f"/api/tournaments/{tid}/drop/", {"player": leaver}, format="json"
    )
    assert response.status_code == 201
    game = Game.objects.get(pk=table["game"])
    assert game.status == GameStatus.FINISHED
    assert {r["player"]: r["rank"] for r in game.result} == {other: 1, leaver: 2}
    resigned = Event.objects.get(game=game, kind="SeatResigned")
    assert resigned.data["reason"] == "dropped"
    assert kinds(tid)[-2:] == ["EntryDropped", "TableForfeited"]


# -- the starting bid at an override ------------------------------------------------------


def test_an_override_that_names_no_bid_keeps_the_bid_reported(org, api_for, users):
    tid = create(org, mode="table", game=DV, options={"starting_bid": True}, rounds=1)
    table = pair(org, tid)["tables"][0]
    a, b = table["seats"]
    url = f"/api/tournaments/{tid}/tables/{table['id']}"
    results = [{"player": a, "score": 30, "rank": 1}, {"player": b, "score": 20, "rank": 2}]
    bid = {"player": a, "amount": 4}
    api_for(users[a]).post(f"{url}/report/", {"results": results, "bid": bid}, format="json")
    settled = org.post(f"{url}/override/", {"results": results}, format="json")
    assert settled.status_code == 201 and settled.json()["bid"] == bid
    other = {"player": b, "amount": 6}
    corrected = org.post(f"{url}/override/", {"results": results, "bid": other}, format="json")
    assert corrected.json()["bid"] == other


# -- on the page ------------------------------------------------------------------------------


def test_the_organiser_forfeits_and_adjudicates_from_the_page(org, users, client):
    tid = create(org)
    first, second = pair(org, tid)["tables"]
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert page.count("No-show / forfeit") == 2 and page.count("Adjudicate") == 2
    response = client.post(
        f"/tournaments/{tid}/tables/{first['id']}/forfeit/",
        {"player": first["seats"][0], "reason": "no-show"},
    )
    assert response.status_code == 302
    a, b = second["seats"]
    response = client.post(
        f"/tournaments/{tid}/tables/{second['id']}/forfeit/",
        {"place_0": "2", "place_1": "1", "reason": "the venue closed"},
    )
    assert response.status_code == 302
    assert {r["player"]: r["rank"] for r in Game.objects.get(pk=second["game"]).result} == {
        a: 2,
        b: 1,
    }
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "No-show / forfeit" not in page
    refused = client.post(
        f"/tournaments/{tid}/tables/{first['id']}/forfeit/", {"player": a, "reason": "x"}
    )
    assert "table 1 has finished" in refused.content.decode()


def test_a_player_sees_no_forfeit_on_the_page(org, users, client):
    tid = create(org)
    pair(org, tid)
    client.force_login(users["ann"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "No-show / forfeit" not in page and "Adjudicate" not in page


def test_the_form_offers_a_live_clock_for_online_events(users, client):
    client.force_login(users["org"])
    form = client.get("/tournaments/new/").content.decode()
    assert 'name="bank_minutes" value="20"' in form
    assert 'name="increment_seconds" value="10"' in form
    assert '<option value="forfeit" selected>' in form
    assert "the others play on" in form
    post = {
        "name": "Evening online",
        "game": DSA,
        "format": "swiss",
        "table_size": "2",
        "rounds": "2",
        "advance": "1",
        "players": "ann\nben",
        "bye_points": "0",
        "bank_minutes": "20",
        "increment_seconds": "10",
        "on_timeout": "forfeit",
    }
    assert client.post("/tournaments/new/", {**post, "mode": "online"}).status_code == 302
    assert client.post("/tournaments/new/", {**post, "mode": "table"}).status_code == 302
    from league.models import Tournament

    online, table = Tournament.objects.order_by("pk")
    assert online.time_control == {
        "bank_seconds": 1200,
        "increment_seconds": 10,
        "on_timeout": "forfeit",
    }
    assert table.time_control is None
