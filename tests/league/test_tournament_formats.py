"""Double elimination, and pools then a playoff, run through the API from sign-up to the
champion, with drops, ties and bad settings."""

from __future__ import annotations

import pytest

from league.models import TournamentEvent
from tests.league.tournament_steps import override, pair, ranked

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gil", "hal")


def create(client, **overrides):
    body = {
        "name": "Trench cup",
        "game": DSA,
        "format": "double-elimination",
        "table_size": 2,
        "mode": "table",
        "players": list(NAMES[:6]),
    }
    body.update(overrides)
    return client.post("/api/tournaments/", body, format="json")


def settle(client, tid, table, winner):
    """The organiser enters the table's result: ``winner`` first."""
    seats = sorted(table["seats"], key=lambda p: p != winner)
    response = override(client, tid, table["id"], ranked(*seats))
    assert response.status_code == 201, response.json()


def better_seed(table):
    return min(table["seats"], key=NAMES.index)


def run(client, tid, pick=better_seed, *, before_round=None):
    """Pair and settle rounds until the event ends; returns the rounds paired."""
    rounds = []
    for _ in range(30):
        if client.get(f"/api/tournaments/{tid}/").json()["status"] == "finished":
            return rounds
        if before_round:
            before_round(len(rounds) + 1)
        body = pair(client, tid)
        rounds.append(body)
        for table in body["tables"]:
            settle(client, tid, table, pick(table))
    raise AssertionError("the event did not end")


# -- double elimination ---------------------------------------------------------------------------


def test_double_elimination_runs_to_a_champion_through_the_losers_bracket(org):
    """Six players, the top two seeds with byes; the second seed loses once early and fights
    back through the losers' bracket to win the grand final twice (the reset)."""
    tid = create(org).json()["id"]

    def pick(table):
        if table["bracket"] == "Winners' bracket round 2" and "ben" in table["seats"]:
            return next(p for p in table["seats"] if p != "ben")  # ben's first loss
        if table["bracket"].startswith("Grand final"):
            return "ben"
        return better_seed(table)

    rounds = run(org, tid, pick)
    first = rounds[0]
    assert [t["seats"] for t in first["tables"]] and all(
        t["bracket"] == "Winners' bracket round 1" for t in first["tables"]
    )
    assert not {"ann", "ben"} & {p for t in first["tables"] for p in t["seats"]}  # byes
    detail = org.get(f"/api/tournaments/{tid}/").json()
    assert detail["champion"] == "ben"
    bracket = org.get(f"/api/tournaments/{tid}/bracket/").json()
    assert [side["name"] for side in bracket["sides"]] == [
        "Winners' bracket",
        "Losers' bracket",
        "Grand final",
    ]
    finals = bracket["sides"][2]["rounds"]
    assert [r["name"] for r in finals] == ["Grand final", "Grand final, second game"]
    assert finals[1]["tables"][0]["through"] == "ben"
    assert bracket["placings"][:2] == [
        {"player": "ben", "place": "1st"},
        {"player": "ann", "place": "2nd"},
    ]
    byes = [m["through"] for m in bracket["sides"][0]["rounds"][0]["tables"] if m["state"] == "bye"]
    assert sorted(byes) == ["ann", "ben"]
    log = TournamentEvent.objects.filter(tournament_id=tid, kind="TournamentFinished").get()
    assert log.data["champion"] == "ben"


def test_a_drop_is_a_walkover_and_the_event_still_ends_with_a_champion(org):
    tid = create(org, players=list(NAMES)).json()["id"]

    def drops(number):
        if number == 2:
            assert (
                org.post(
                    f"/api/tournaments/{tid}/drop/", {"player": "ann"}, format="json"
                ).status_code
                == 201
            )
        if number == 4:
            assert (
                org.post(
                    f"/api/tournaments/{tid}/drop/", {"player": "cat"}, format="json"
                ).status_code
                == 201
            )

    run(org, tid, before_round=drops)
    bracket = org.get(f"/api/tournaments/{tid}/bracket/").json()
    walkovers = [
        m
        for side in bracket["sides"]
        for r in side["rounds"]
        for m in r["tables"]
        if m["state"] == "walkover"
    ]
    assert walkovers and all(m["through"] not in ("ann", "cat") for m in walkovers)
    champion = org.get(f"/api/tournaments/{tid}/").json()["champion"]
    assert champion not in (None, "ann", "cat")
    assert sorted(p["player"] for p in bracket["placings"]) == sorted(NAMES)


def test_a_tie_at_a_table_is_refused_at_report(org, api_for, users):
    tid = create(org, players=["ann", "ben"]).json()["id"]
    table = pair(org, tid)["tables"][0]
    tie = [{"player": p, "score": 5, "rank": 1} for p in table["seats"]]
    response = api_for(users[table["seats"][0]]).post(
        f"/api/tournaments/{tid}/tables/{table['id']}/report/", {"results": tie}, format="json"
    )
    assert response.status_code == 422
    assert "play it off and report the winner" in response.json()["error"]
    response = org.post(
        f"/api/tournaments/{tid}/tables/{table['id']}/override/", {"results": tie}, format="json"
    )
    assert response.status_code == 422


def test_a_tied_table_stops_the_next_pairing_until_an_organiser_settles_it(org, users):
    """An online game can end in a tie, which no report is there to refuse: the next round
    is then refused, changing nothing, until the organiser enters the play-off's winner."""
    from games.records import table_results
    from league.models import Round, Table

    tid = create(org, players=["ann", "ben", "cat", "dan"]).json()["id"]
    first, second = pair(org, tid)["tables"]
    settle(org, tid, second, better_seed(second))
    tie = [{"player": p, "score": 5, "rank": 1} for p in first["seats"]]
    table_results.result_override(
        game=Table.objects.get(pk=first["id"]).game, by=users["org"], results=tie
    )
    response = org.post(f"/api/tournaments/{tid}/rounds/")
    assert response.status_code == 422
    assert "table 1 (Winners' bracket round 1) ended in a tie" in response.json()["error"]
    assert Round.objects.filter(tournament_id=tid).count() == 1
    settle(org, tid, first, better_seed(first))
    assert [t["bracket"] for t in pair(org, tid)["tables"]] == [
        "Winners' bracket round 2",
        "Losers' bracket round 1",
    ]


def test_two_players_play_a_final_and_without_reset_the_first_decides(org):
    tid = create(org, players=["ann", "ben"], grand_final_reset=False).json()["id"]
    rounds = run(org, tid, lambda t: "ben")
    assert [t["bracket"] for r in rounds for t in r["tables"]] == [
        "Winners' bracket round 1",
        "Grand final",
    ]
    assert org.get(f"/api/tournaments/{tid}/").json()["champion"] == "ben"


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"table_size": 3}, "double elimination is played at tables of 2"),
        ({"pools": 2}, "pools and pool_advance are for format pools"),
    ],
)
def test_bad_double_elimination_settings_are_refused(org, overrides, words):
    response = create(org, **overrides)
    assert response.status_code == 422
    assert words in response.json()["error"]


def test_no_bracket_for_another_format(org):
    tid = create(org, format="swiss", rounds=2).json()["id"]
    assert org.get(f"/api/tournaments/{tid}/bracket/").status_code == 404


# -- pools, then a playoff -----------------------------------------------------------------------


def pools_event(org, **overrides):
    body = {"format": "pools", "pools": 2, "pool_advance": 2, "players": list(NAMES)}
    body.update(overrides)
    return create(org, **body)


def test_pools_play_their_round_robins_then_a_playoff_to_a_champion(org):
    response = pools_event(org)
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    rounds = run(org, tid)
    pools = TournamentEvent.objects.get(tournament_id=tid, kind="PoolsDrawn").data
    assert pools == {
        "pools": {"A": ["ann", "dan", "eve", "hal"], "B": ["ben", "cat", "fay", "gil"]},
        "rounds": 3,
    }
    pool_of = {p: name for name, members in pools["pools"].items() for p in members}
    stages = [r["stage"] for r in rounds]
    assert stages == ["main"] * 3 + ["cut"] * 2
    for round_ in rounds[:3]:
        assert len(round_["tables"]) == 4  # every pool's round together
        for table in round_["tables"]:
            assert len({pool_of[p] for p in table["seats"]}) == 1  # pool mates only
    semis = rounds[3]["tables"]
    assert all(len({pool_of[p] for p in t["seats"]}) == 2 for t in semis)  # across pools
    assert {p for t in semis for p in t["seats"]} == {"ann", "dan", "ben", "cat"}
    standings = org.get(f"/api/tournaments/{tid}/standings/").json()
    assert {row["player"]: row["pool"] for row in standings} == pool_of
    assert org.get(f"/api/tournaments/{tid}/").json()["champion"] == "ann"
    # Pool winners first; of the runners-up, cat stands higher, but seed 3 meets seed 2
    # (ben, pool B): so dan (pool A) takes seed 3 and no pool mates meet in the semi-finals.
    started = TournamentEvent.objects.get(tournament_id=tid, kind="StageStarted").data
    assert started["players"] == ["ann", "ben", "dan", "cat"]


def test_a_drop_in_a_pool_leaves_a_bye_and_the_playoff_takes_who_is_left(org):
    tid = pools_event(org).json()["id"]

    def drops(number):
        if number == 2:
            assert (
                org.post(
                    f"/api/tournaments/{tid}/drop/", {"player": "ann"}, format="json"
                ).status_code
                == 201
            )

    rounds = run(org, tid, before_round=drops)
    assert rounds[1]["byes"] and "ann" not in {p for t in rounds[1]["tables"] for p in t["seats"]}
    semis = {p for t in rounds[3]["tables"] for p in t["seats"]}
    assert "ann" not in semis and len(semis) == 4
    assert org.get(f"/api/tournaments/{tid}/").json()["champion"] in semis


@pytest.mark.parametrize(
    "overrides, words",
    [
        ({"pools": 1}, "at least 2 pools"),
        ({"pool_advance": 0}, "pool_advance: at least 1"),
        ({"pools": 4}, "each of the 4 pools needs at least 3 players"),
        ({"pool_advance": 4}, "pool_advance must be below 4"),
        ({"top_cut": 4}, "leave top_cut out"),
    ],
)
def test_bad_pool_settings_are_refused_and_nothing_is_made(org, overrides, words):
    if overrides.get("pools") == 4:
        overrides["table_size"] = 3
    response = pools_event(org, **overrides)
    assert response.status_code == 422, response.json()
    assert words in response.json()["error"]
    assert not org.get("/api/tournaments/").json()


# -- the page -------------------------------------------------------------------------------------


def test_the_page_shows_both_brackets_in_words(org, client, users):
    tid = create(org, players=list(NAMES[:5])).json()["id"]
    run(org, tid)
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    for words in ("Winners&#x27;", "Losers&#x27; bracket", "Grand final", "bye", "Final placings"):
        assert words in page, words
    assert page.index("Winners&#x27; bracket</h3>") < page.index("Losers&#x27; bracket</h3>")
    assert "W1-1" not in page and "GF1" not in page


def test_the_page_shows_the_standings_pool_by_pool(org, client, users):
    tid = pools_event(org).json()["id"]
    pair(org, tid)
    client.force_login(users["org"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert page.index("Pool A") < page.index("Pool B")


def test_pools_at_tables_of_3_with_uneven_pools_reach_a_champion(org):
    """Seven players in two pools (4 and 3) at tables of 3: the larger pool falls back to
    tables of 2 where it must; the pool winners meet in the playoff."""
    response = pools_event(org, table_size=3, players=list(NAMES[:7]), pool_advance=1)
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    rounds = run(org, tid)
    assert rounds[-1]["stage"] == "cut" and len(rounds[-1]["tables"]) == 1
    final = set(rounds[-1]["tables"][0]["seats"])
    pools = TournamentEvent.objects.get(tournament_id=tid, kind="PoolsDrawn").data["pools"]
    assert [len(final & set(members)) for members in pools.values()] == [1, 1]
    assert org.get(f"/api/tournaments/{tid}/").json()["champion"] in final
