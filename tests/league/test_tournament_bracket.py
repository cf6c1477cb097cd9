"""Elimination events and top cuts on the day, through the API: a real bracket (byes in round 1
only, to the top seeds; a fixed path), walkovers for players who drop out, a champion every
time, ties at the line refused or played off, and the final placings."""

from __future__ import annotations

import csv
import io
from functools import partial

import pytest

from league.models import Tournament, TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import pair

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")


create = partial(tournament_steps.create, name="Knockout", format="elimination", rounds=1)


def report(api_for, users, tid, table, order, ranks=None):
    """The table's result in ``order`` (best first; ``ranks`` to tie), reported by the first
    seat and confirmed by the others. Returns the report's response."""
    ranks = ranks or list(range(1, len(order) + 1))
    results = [
        {"player": p, "score": 10 - rank, "rank": rank}
        for p, rank in zip(order, ranks, strict=True)
    ]
    url = f"/api/tournaments/{tid}/tables/{table['id']}"
    reporter, *others = table["seats"]
    response = api_for(users[reporter]).post(f"{url}/report/", {"results": results}, format="json")
    if response.status_code != 201:
        return response
    for name in others:
        confirmed = api_for(users[name]).post(
            f"{url}/confirm/", {"results": results}, format="json"
        )
        assert confirmed.status_code == 201, confirmed.json()
    return response


def best_seed_wins(api_for, users, tid, round_body, seeds):
    for table in round_body["tables"]:
        order = sorted(table["seats"], key=seeds.index)
        assert report(api_for, users, tid, table, order).status_code == 201


def detail(client, tid):
    return client.get(f"/api/tournaments/{tid}/").json()


# -- the bracket: byes in round 1 only, a fixed path -----------------------------------------


def test_five_players_three_byes_to_the_top_seeds_and_none_after(org, api_for, users):
    """Defect 6: byes after round 1 went to a random winner and could repeat. Now seeds 1-3
    have byes in round 1 and nobody after; seeds 1 and 2 meet only in the final."""
    seeds = list(NAMES[:5])
    tid = create(org, seeds)
    first = pair(org, tid)
    assert first["byes"] == ["ann", "ben", "cat"]
    assert [sorted(t["seats"]) for t in first["tables"]] == [["dan", "eve"]]
    report(api_for, users, tid, first["tables"][0], ["eve", "dan"])  # the fifth seed wins
    semis = pair(org, tid)
    assert semis["byes"] == [], "no bye after round 1"
    assert sorted(map(sorted, (t["seats"] for t in semis["tables"]))) == [
        ["ann", "eve"],
        ["ben", "cat"],
    ]
    best_seed_wins(api_for, users, tid, semis, seeds)
    final = pair(org, tid)
    assert sorted(final["tables"][0]["seats"]) == ["ann", "ben"]
    drawn = TournamentEvent.objects.filter(tournament_id=tid, kind="BracketDrawn")
    assert drawn.count() == 1 and drawn.get().data["round"] == 1


# -- drops: walkovers, and always a champion ---------------------------------------------------


def test_a_knocked_out_player_stays_out_when_their_winner_drops(org, api_for, users):
    """Defect 5: dan lost to ann, ann dropped, and dan came back. Now ann's place is empty
    and ben goes through to be champion by walkover."""
    seeds = list(NAMES[:4])
    tid = create(org, seeds)
    first = pair(org, tid)
    best_seed_wins(api_for, users, tid, first, seeds)  # ann beats dan, ben beats cat
    assert (
        org.post(f"/api/tournaments/{tid}/drop/", {"player": "ann"}, format="json").status_code
        == 201
    )
    response = org.post(f"/api/tournaments/{tid}/rounds/")
    assert response.status_code == 422  # nothing left to play: ben is through by walkover
    assert response.json()["error"] == "the tournament is over: ben is the champion"
    body = detail(org, tid)
    assert body["status"] == "finished" and body["champion"] == "ben"
    assert len(body["rounds_played"]) == 1, "no final was played: dan never came back"
    bracket = org.get(f"/api/tournaments/{tid}/bracket/").json()
    final = bracket["rounds"][-1]["tables"][0]
    assert final["status"] == "walkover" and final["through"] == ["ben"]
    assert [p["player"] for p in final["places"]] == [None, "ben"]


def test_drops_leaving_one_player_after_a_round_of_several_tables_crown_them(org, api_for, users):
    """Defect 4: such an event finished with no champion."""
    seeds = list(NAMES[:6])
    tid = create(org, seeds, table_size=3)
    first = pair(org, tid)
    assert len(first["tables"]) == 2
    best_seed_wins(api_for, users, tid, first, seeds)  # ann and ben win
    org.post(f"/api/tournaments/{tid}/drop/", {"player": "ben"}, format="json")
    org.post(f"/api/tournaments/{tid}/rounds/")
    body = detail(org, tid)
    assert body["status"] == "finished" and body["champion"] == "ann"


def test_drops_in_every_round_still_end_with_the_last_player_standing(org, api_for, users):
    seeds = list(NAMES)
    tid = create(org, seeds)
    first = pair(org, tid)
    best_seed_wins(api_for, users, tid, first, seeds)  # ann, ben, cat, dan
    org.post(f"/api/tournaments/{tid}/drop/", {"player": "dan"}, format="json")
    semis = pair(org, tid)
    assert [sorted(t["seats"]) for t in semis["tables"]] == [["ben", "cat"]]
    assert semis["byes"] == ["ann"], "ann through by walkover: dan left an empty place"
    best_seed_wins(api_for, users, tid, semis, seeds)
    org.post(f"/api/tournaments/{tid}/drop/", {"player": "ann"}, format="json")
    org.post(f"/api/tournaments/{tid}/rounds/")
    assert detail(org, tid)["champion"] == "ben"


# -- ties at the line --------------------------------------------------------------------------


def test_a_tied_final_is_refused_and_must_be_reported_in_order(org, api_for, users):
    """Defect 3: a tied final crowned the first seat."""
    tid = create(org, ["ann", "ben"])
    final = pair(org, tid)["tables"][0]
    response = report(api_for, users, tid, final, ["ben", "ann"], ranks=[1, 1])
    assert response.status_code == 422
    assert (
        "a tie for the place that goes through must be played off: report the order"
        in (response.json()["error"])
    )
    assert detail(org, tid)["status"] == "running", "nothing changed"
    override = org.post(
        f"/api/tournaments/{tid}/tables/{final['id']}/override/",
        {"results": [{"player": "ann", "rank": 1}, {"player": "ben", "rank": 1}]},
        format="json",
    )
    assert override.status_code == 422
    assert report(api_for, users, tid, final, ["ben", "ann"]).status_code == 201
    assert detail(org, tid)["champion"] == "ben"


def test_at_tables_of_three_only_a_tie_across_the_line_is_refused(org, api_for, users):
    tid = create(org, list(NAMES[:6]), table_size=3)  # one of each table goes through
    first, second = pair(org, tid)["tables"]
    order = sorted(first["seats"], key=NAMES.index)
    refused = report(api_for, users, tid, first, order, ranks=[1, 1, 3])
    assert refused.status_code == 422 and "must be played off" in refused.json()["error"]
    assert report(api_for, users, tid, first, order, ranks=[1, 2, 2]).status_code == 201
    order = sorted(second["seats"], key=NAMES.index)
    assert report(api_for, users, tid, second, order, ranks=[1, 2, 3]).status_code == 201
    assert sorted(pair(org, tid)["tables"][0]["seats"]) == ["ann", "ben"]


def test_a_tie_across_the_line_blocks_the_next_round_until_an_organiser_breaks_it(
    org, api_for, users
):
    """A result tied across the line that reached the event (as an online game's does when
    it ends tied) stops the next round, naming the table, until an organiser records the
    play-off's order; that decision is an event of the tournament, the game is untouched."""
    seeds = list(NAMES[:4])
    tid = create(org, seeds, elimination_ties="seed")
    first = pair(org, tid)
    tied, other = first["tables"]
    assert report(api_for, users, tid, tied, tied["seats"], ranks=[1, 1]).status_code == 201
    best_seed_wins(api_for, users, tid, {"tables": [other]}, seeds)
    Tournament.objects.filter(pk=tid).update(elimination_ties="playoff")

    blocked = org.post(f"/api/tournaments/{tid}/rounds/")
    assert blocked.status_code == 422
    assert "table 1 is tied for the place that goes through" in blocked.json()["error"]

    url = f"/api/tournaments/{tid}/tables/{tied['id']}/tiebreak/"
    assert (
        api_for(users["ann"]).post(url, {"order": ["dan", "ann"]}, format="json").status_code == 403
    )
    wrong = org.post(url, {"order": ["dan", "eve"]}, format="json")
    assert wrong.status_code == 400 and "ann, dan" in wrong.json()["error"]
    decided = org.post(url, {"order": ["dan", "ann"]}, format="json")
    assert decided.status_code == 201, decided.json()
    assert decided.json() == {"round": 1, "table": 1, "order": ["dan", "ann"]}
    event = TournamentEvent.objects.get(tournament_id=tid, kind="TableTiebroken")
    assert event.data["order"] == ["dan", "ann"] and event.actor == users["org"]

    final = pair(org, tid)
    assert sorted(final["tables"][0]["seats"]) == ["ben", "dan"]
    assert org.post(url, {"order": ["ann", "dan"]}, format="json").status_code == 422  # too late


@pytest.mark.parametrize(("rule", "through"), [("seed", "ann"), ("score", "dan")])
def test_the_event_states_how_a_tie_is_settled(org, api_for, users, rule, through):
    tid = create(org, list(NAMES[:4]), elimination_ties=rule)
    assert detail(org, tid)["elimination_ties"] == rule
    table = pair(org, tid)["tables"][0]  # ann (seed 1) against dan (seed 4)
    dan_scored = 5 if rule == "score" else 3  # tied in rank either way
    results = [
        {"player": "ann", "score": 3, "rank": 1},
        {"player": "dan", "score": dan_scored, "rank": 1},
    ]
    response = org.post(
        f"/api/tournaments/{tid}/tables/{table['id']}/override/",
        {"results": results},
        format="json",
    )
    assert response.status_code == 201, response.json()
    bracket = org.get(f"/api/tournaments/{tid}/bracket/").json()
    assert bracket["rounds"][0]["tables"][0]["through"] == [through]


def test_a_bad_tie_rule_is_refused(org):
    response = org.post(
        "/api/tournaments/",
        {
            "name": "K",
            "game": DSA,
            "format": "elimination",
            "table_size": 2,
            "rounds": 1,
            "mode": "table",
            "players": ["ann", "ben"],
            "elimination_ties": "coin",
        },
        format="json",
    )
    assert response.status_code == 400 and "elimination_ties" in str(response.json())


# -- final placings ----------------------------------------------------------------------------


def test_final_placings_by_the_round_a_player_went_out_in(org, api_for, users, client):
    seeds = list(NAMES)
    tid = create(org, seeds)
    while detail(org, tid)["status"] != "finished":
        best_seed_wins(api_for, users, tid, pair(org, tid), seeds)
    rows = {
        r["player"]: (r["place"], r["place_to"])
        for r in org.get(f"/api/tournaments/{tid}/standings/").json()
    }
    assert rows == {
        "ann": (1, 1),
        "ben": (2, 2),
        "cat": (3, 4),
        "dan": (3, 4),
        **{p: (5, 8) for p in ("eve", "fay", "gus", "hal")},
    }
    table = list(
        csv.DictReader(
            io.StringIO(org.get(f"/api/tournaments/{tid}/standings.csv").content.decode())
        )
    )
    assert {r["player"]: r["place"] for r in table}["cat"] == "3-4"
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Final placings" in page and "3rd–4th" in page


def test_placings_after_a_top_cut_then_the_swiss_standings(org, api_for, users):
    tid = create(org, list(NAMES[:6]), format="swiss", rounds=2, top_cut=4)
    for _ in range(2):
        round_ = pair(org, tid)
        for table in round_["tables"]:
            report(api_for, users, tid, table, sorted(table["seats"], key=NAMES.index))
    standings = [r["player"] for r in org.get(f"/api/tournaments/{tid}/standings/").json()]
    while detail(org, tid)["status"] != "finished":
        round_ = pair(org, tid)
        assert round_["stage"] == "cut"
        for table in round_["tables"]:
            report(api_for, users, tid, table, sorted(table["seats"], key=standings.index))
    rows = org.get(f"/api/tournaments/{tid}/standings/").json()
    places = {r["player"]: (r["place"], r["place_to"]) for r in rows}
    assert places[standings[0]] == (1, 1) and places[standings[1]] == (2, 2)
    assert places[standings[2]] == (3, 4) and places[standings[3]] == (3, 4)
    assert places[standings[4]] == (5, 5) and places[standings[5]] == (6, 6)


def test_the_organiser_records_a_play_off_on_the_page(org, api_for, users, client):
    seeds = list(NAMES[:4])
    tid = create(org, seeds, elimination_ties="seed")
    tied, other = pair(org, tid)["tables"]
    report(api_for, users, tid, tied, tied["seats"], ranks=[1, 1])
    best_seed_wins(api_for, users, tid, {"tables": [other]}, seeds)
    Tournament.objects.filter(pk=tid).update(elimination_ties="playoff")  # as an online tie

    client.force_login(users["ann"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "tied for the place that goes through: to be played off" in page
    assert "Record the play-off" not in page, "only organisers record it"
    client.force_login(users["org"])
    assert "Record the play-off" in client.get(f"/tournaments/{tid}/").content.decode()
    url = f"/tournaments/{tid}/tables/{tied['id']}/tiebreak/"
    response = client.post(url, {"order": ["dan", "dan"]})
    assert "order must list the players at the table" in response.content.decode()
    assert not TournamentEvent.objects.filter(tournament_id=tid, kind="TableTiebroken").exists()
    response = client.post(url, {"order": ["dan", "ann"]}, follow=True)
    assert "the play-off&#x27;s order is dan, ann" in response.content.decode()
    assert sorted(pair(org, tid)["tables"][0]["seats"]) == ["ben", "dan"]


# -- an event under way when brackets came ------------------------------------------------------


def as_before_brackets(tid, *, reseed: bool = False) -> None:
    """The event as one paired before brackets were drawn (issue 38): no stored bracket, no
    BracketDrawn; with ``reseed``, its seeds in another order, as its first round was not the
    seeded bracket's."""
    Tournament.objects.filter(pk=tid).update(bracket=None)
    TournamentEvent.objects.filter(tournament_id=tid, kind="BracketDrawn").delete()
    if reseed:
        tournament = Tournament.objects.get(pk=tid)
        entries = list(tournament.entries.order_by("seed"))
        for entry, seed in zip(entries, reversed([e.seed for e in entries]), strict=True):
            tournament.entries.filter(pk=entry.pk).update(seed=seed + 100)
        for entry in tournament.entries.all():
            tournament.entries.filter(pk=entry.pk).update(seed=entry.seed - 100)


def test_an_event_paired_before_brackets_goes_on_from_who_is_still_in(org, api_for, users):
    tid = create(org, NAMES)
    round_1 = pair(org, tid)
    winners = []
    for table in round_1["tables"]:
        report(api_for, users, tid, table, table["seats"])  # the first seat wins
        winners.append(table["seats"][0])
    as_before_brackets(tid, reseed=True)
    assert org.get(f"/api/tournaments/{tid}/bracket/").json()["seeds"] == [
        p for p in reversed(NAMES) if p in winners
    ]  # as it would be drawn now: those still in, in seed order

    round_2 = pair(org, tid)
    assert sorted(p for t in round_2["tables"] for p in t["seats"]) == sorted(winners)
    drawn = TournamentEvent.objects.get(tournament_id=tid, kind="BracketDrawn")
    assert drawn.data["round"] == 2 and drawn.data["carried_over"] == [1]
    assert Tournament.objects.get(pk=tid).bracket["first_round"] == 2
    bracket = org.get(f"/api/tournaments/{tid}/bracket/").json()
    assert [(r["name"], r["number"]) for r in bracket["rounds"]] == [
        ("Semi-finals", 2),
        ("Final", None),
    ]
    for table in round_2["tables"]:
        report(api_for, users, tid, table, table["seats"])
    final = pair(org, tid)["tables"][0]
    report(api_for, users, tid, final, final["seats"])
    body = org.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished"
    finished = TournamentEvent.objects.get(tournament_id=tid, kind="TournamentFinished")
    assert finished.data["champion"] == final["seats"][0]
    placed = [p["player"] for p in finished.data["placings"]]
    assert sorted(placed) == sorted(NAMES)  # the bracket's four, then the rest
    assert placed[:2] == final["seats"]


def test_a_final_paired_before_brackets_crowns_its_winner(org, api_for, users):
    tid = create(org, NAMES[:2])
    final = pair(org, tid)["tables"][0]
    as_before_brackets(tid)
    report(api_for, users, tid, final, list(reversed(final["seats"])))
    finished = TournamentEvent.objects.get(tournament_id=tid, kind="TournamentFinished")
    assert finished.data["champion"] == final["seats"][1]
    assert [p["player"] for p in finished.data["placings"]] == list(reversed(final["seats"]))
