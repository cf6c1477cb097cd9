"""Tournaments through the API: creation, pairing, table-mode results and disputes, drops,
late entry, re-pairing, standings and export; and a whole bot-played Swiss with starting bids."""

from __future__ import annotations

import csv
import io
from collections import Counter
from functools import partial
from itertools import combinations

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game
from league import pairing
from league.models import Rating, Tournament, TournamentEvent
from tests.league import tournament_steps
from tests.league.tournament_steps import pair, ranked

pytestmark = pytest.mark.django_db
DSA, DV = "deep-sea-adventure", "deep-vents"


@pytest.fixture
def players(make_user):
    return [make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")]


@pytest.fixture
def organiser(api_for, make_user):
    return api_for(make_user("org"))


# The response, not the id: some tests here look at a refusal.
create = partial(tournament_steps.set_up, name="Autumn open", rounds=3)


def report_all(api_for, users, tid, round_body, *, confirm=True):
    """Every table: the first seat wins, reported by the first seat, confirmed by the others."""
    for table in round_body["tables"]:
        results = ranked(*table["seats"])
        reporter = api_for(users[table["seats"][0]])
        assert (
            reporter.post(
                f"/api/tournaments/{tid}/tables/{table['id']}/report/",
                {"results": results},
                format="json",
            ).status_code
            == 201
        )
        if confirm:
            for name in table["seats"][1:]:
                response = api_for(users[name]).post(
                    f"/api/tournaments/{tid}/tables/{table['id']}/confirm/",
                    {"results": results},
                    format="json",
                )
                assert response.status_code == 201, response.json()


def test_creating_a_tournament_and_its_defaults(organiser, players):
    response = create(
        organiser, game=DV, mode="online", table_size=4, players=[p.username for p in players]
    )
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["options"] == {"starting_bid": True}
    assert body["placement_points"]["4"] == [5, 3, 2, 1]
    assert body["tiebreaks"] == ["buchholz", "score", "share", "wins", "head_to_head"]
    assert [p["seed"] for p in body["players"]] == [1, 2, 3, 4, 5, 6]
    assert body["organisers"] == ["org"]


def test_short_tables_score_on_the_full_tables_scale(organiser, players):
    body = create(organiser, table_size=3).json()
    assert body["placement_points"] == {"2": [5, 1], "3": [5, 3, 1], "4": [5, 3, 2, 1]}
    body = create(organiser, table_size=4).json()
    assert body["placement_points"] == {"2": [5, 1], "3": [5, 2.5, 1], "4": [5, 3, 2, 1]}
    body = create(organiser, table_size=4, placement_points={"4": [10, 6, 4, 2]}).json()
    assert body["placement_points"]["3"] == [10, 5, 2] and body["placement_points"]["2"] == [10, 2]
    chosen = create(organiser, table_size=3, placement_points={"2": [2, 0]}).json()
    assert chosen["placement_points"]["2"] == [2, 0]  # an organiser's choice stands
    assert create(organiser).json()["placement_points"]["2"] == [1, 0]


def round_one_tables(client, **overrides) -> list[list[str]]:
    tid = create(client, **overrides).json()["id"]
    return [table["seats"] for table in pair(client, tid)["tables"]]


def test_swiss_round_one_follows_the_entry_order_by_default(organiser, players):
    # seeds 1-4 at two tables of 2: 1 against 3 and 2 against 4, the top half against the bottom
    assert sorted(map(sorted, round_one_tables(organiser))) == [["ann", "cat"], ["ben", "dan"]]
    six = round_one_tables(organiser, table_size=3, players=[p.username for p in players])
    assert sorted(map(sorted, six)) == [["ann", "cat", "eve"], ["ben", "dan", "fay"]]


def test_seeding_by_rating_orders_the_seeds_and_round_one(organiser, players):
    elo = {"ann": 1400, "ben": 1700, "cat": 1600}  # dan is unrated: 1500
    for user in players:
        if user.username in elo:
            Rating.objects.create(
                user=user, slug=DSA, rating=elo[user.username], openskill_mu=25, openskill_sigma=8
            )
    response = create(organiser, seeding="rating")
    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["seeding"] == "rating"
    assert [p["player"] for p in body["players"]] == ["ben", "cat", "dan", "ann"]
    tables = [table["seats"] for table in pair(organiser, body["id"])["tables"]]
    assert sorted(map(sorted, tables)) == [["ann", "cat"], ["ben", "dan"]]
    created = TournamentEvent.objects.get(kind="TournamentCreated")
    assert created.data["players"] == ["ann", "ben", "cat", "dan"]
    assert created.data["seeds"] == ["ben", "cat", "dan", "ann"]


def test_seeding_at_random_draws_the_seeds(organiser, players):
    names = [p.username for p in players]
    draws = set()
    for _ in range(6):
        body = create(organiser, seeding="random", players=names).json()
        seeds = [p["player"] for p in body["players"]]
        assert sorted(seeds) == sorted(names) and body["seeding"] == "random"
        draws.add(tuple(seeds))
    assert len(draws) > 1  # 6 draws of 720 orders: all the same once in 10^14


def test_elimination_round_one_snakes_the_seeds(organiser, players):
    names = [p.username for p in players]
    tables = round_one_tables(organiser, format="elimination", table_size=3, players=names)
    # seeds 1-6 at two tables of 3, dealt 1, 2, 2, 1, 1, 2: the top two seeds apart
    assert sorted(map(sorted, tables)) == [["ann", "dan", "eve"], ["ben", "cat", "fay"]]


def test_seeding_is_in_the_schema(client):
    schema = client.get("/api/schema/?format=json").json()
    schemas = schema["components"]["schemas"]
    seeding = schemas["TournamentIn"]["properties"]["seeding"]
    assert seeding["default"] == "entry" and "snake" in seeding["description"]
    assert schemas["SeedingEnum"]["enum"] == ["entry", "rating", "random"]
    assert "seeding" in schemas["TournamentOut"]["properties"]


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"seeding": "alphabetical"}, "seeding"),
        ({"game": "chess"}, "unknown game"),
        ({"table_size": 5}, "table_size"),
        ({"table_size": 7, "game": DV}, "table_size"),
        ({"format": "ladder"}, "format"),
        ({"mode": "online", "game": "oceans"}, "recorded from tables only"),
        ({"players": ["ann", "ann", "ben"]}, "twice"),
        ({"players": ["ann", "zed"]}, "no player 'zed'"),
        ({"players": ["ann"]}, "players"),
        ({"tiebreaks": ["coin_toss"]}, "tiebreaks"),
        ({"placement_points": {"2": [1]}}, "placement_points"),
        ({"rounds": 0}, "rounds"),
        ({"mode": "online", "options": {"turbo": True}}, "unknown option"),
        (
            {"format": "elimination", "table_size": 4, "players": ["ann", "ben"]},
            "2 players cannot fill a table: tables of 4 seat at least 3",
        ),
        ({"table_size": 4, "players": ["ann", "ben"]}, "2 players cannot fill a table of 4"),
    ],
)
def test_bad_tournaments_are_refused_with_a_reason(organiser, players, overrides, message):
    response = create(organiser, **overrides)
    # 400 for what breaks the schema; 404 for a name that names nothing, as for an address; 422
    # for settings of the right shape that cannot be (the game's, the field's)
    malformed = message in ("seeding", "unknown game", "table_size", "format", "tiebreaks")
    malformed = malformed or message in ("placement_points", "rounds")
    status = 400 if malformed else 404 if message.startswith("no player") else 422
    assert response.status_code == status, response.json()
    assert message in response.json()["error"]
    assert not Tournament.objects.exists()


def test_pairing_needs_an_organiser_and_a_complete_round(organiser, api_for, players):
    tid = create(organiser).json()["id"]
    assert api_for(players[0]).post(f"/api/tournaments/{tid}/rounds/").status_code == 403
    first = pair(organiser, tid)
    assert first["number"] == 1 and len(first["tables"]) == 2 and first["byes"] == []
    seated = [p for t in first["tables"] for p in t["seats"]]
    assert sorted(seated) == ["ann", "ben", "cat", "dan"]
    again = organiser.post(f"/api/tournaments/{tid}/rounds/")
    assert again.status_code == 422 and "not complete" in again.json()["error"]


def test_table_mode_report_confirm_and_the_standings(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    round1 = pair(organiser, tid)
    report_all(api_for, users, tid, round1)
    standings = organiser.get(f"/api/tournaments/{tid}/standings/").json()
    winners = {t["seats"][0] for t in round1["tables"]}
    assert {row["player"] for row in standings[:2]} == winners
    assert [row["points"] for row in standings] == [1, 1, 0, 0]
    round2 = pair(organiser, tid)
    # Swiss: the two winners meet, and nobody meets a round-1 opponent again.
    assert any(set(t["seats"]) == winners for t in round2["tables"])
    met = {frozenset(t["seats"]) for t in round1["tables"]}
    assert not met & {frozenset(t["seats"]) for t in round2["tables"]}


def test_a_conflicting_confirmation_is_a_dispute_the_organiser_settles(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    table = pair(organiser, tid)["tables"][0]
    a, b = table["seats"]
    claim = [{"player": a, "score": 12, "rank": 1}, {"player": b, "score": 9, "rank": 2}]
    counter = [{"player": a, "score": 9, "rank": 2}, {"player": b, "score": 12, "rank": 1}]
    url = f"/api/tournaments/{tid}/tables/{table['id']}"
    assert (
        api_for(users[a]).post(f"{url}/report/", {"results": claim}, format="json").status_code
        == 201
    )
    disputed = api_for(users[b]).post(f"{url}/confirm/", {"results": counter}, format="json")
    assert disputed.status_code == 201 and disputed.json()["status"] == "disputed"
    blocked = api_for(users[a]).post(f"{url}/report/", {"results": claim}, format="json")
    assert blocked.status_code == 422 and "organiser" in blocked.json()["error"]
    assert (
        api_for(users[a]).post(f"{url}/override/", {"results": claim}, format="json").status_code
        == 403
    )
    settled = organiser.post(f"{url}/override/", {"results": counter}, format="json")
    assert settled.status_code == 201 and settled.json()["status"] == "final"
    game = Game.objects.get(pk=table["game"])
    assert game.status == "finished" and game.result[1]["rank"] == 1
    kinds = list(Event.objects.filter(game=game).values_list("kind", flat=True))
    assert kinds == [
        "GameCreated",
        "ResultReported",
        "ResultDisputed",
        "ResultOverridden",
        "GameFinished",
    ]
    # A later correction is an event too; nothing is edited.
    organiser.post(f"{url}/override/", {"results": claim}, format="json")
    assert Event.objects.filter(game=game, kind="ResultCorrected").count() == 1
    assert Game.objects.get(pk=game.pk).result[0]["rank"] == 1


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"results": [{"player": "zed", "score": 1, "rank": 1}]}, "exactly the players"),
        ({"results": []}, "results"),
        ("ranks", "competition order"),
        ("scores", "scored more"),
    ],
)
def test_bad_reports_are_refused_and_change_nothing(organiser, api_for, players, payload, message):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    table = pair(organiser, tid)["tables"][0]
    a, b = table["seats"]
    if payload == "ranks":
        payload = {
            "results": [{"player": a, "score": 1, "rank": 1}, {"player": b, "score": 0, "rank": 3}]
        }
    elif payload == "scores":
        payload = {
            "results": [{"player": a, "score": 1, "rank": 1}, {"player": b, "score": 5, "rank": 2}]
        }
    before = Event.objects.filter(game_id=table["game"]).count()
    response = api_for(users[a]).post(
        f"/api/tournaments/{tid}/tables/{table['id']}/report/", payload, format="json"
    )
    # a malformed result is a 400; well-formed results that cannot be (the players, their
    # ranks or scores) a 422
    malformed = message not in ("exactly the players", "competition order", "scored more")
    assert response.status_code == (400 if malformed else 422), response.json()
    assert message in response.json()["error"]
    assert Event.objects.filter(game_id=table["game"]).count() == before


def test_only_players_at_the_table_report(organiser, api_for, players):
    tid = create(organiser).json()["id"]
    table = pair(organiser, tid)["tables"][0]
    outsider = next(p for p in players if p.username not in table["seats"])
    results = [{"player": p, "score": 1, "rank": 1} for p in table["seats"]]
    response = api_for(outsider).post(
        f"/api/tournaments/{tid}/tables/{table['id']}/report/", {"results": results}, format="json"
    )
    assert response.status_code == 403


def test_drop_late_entry_and_byes(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser, players=["ann", "ben", "cat", "dan", "eve"], bye_points=1).json()["id"]
    round1 = pair(organiser, tid)
    assert len(round1["byes"]) == 1  # five players, tables of two: one sits out
    report_all(api_for, users, tid, round1)
    leaver = round1["tables"][0]["seats"][0]  # played round 1, then drops themself
    assert (
        api_for(users[leaver])
        .post(f"/api/tournaments/{tid}/drop/", {"player": leaver}, format="json")
        .status_code
        == 201
    )
    assert (
        organiser.post(
            f"/api/tournaments/{tid}/enter/", {"player": "fay"}, format="json"
        ).status_code
        == 201
    )
    round2 = pair(organiser, tid)
    seated = sorted(p for t in round2["tables"] for p in t["seats"]) + round2["byes"]
    assert leaver not in seated and "fay" in seated and len(seated) == 5
    assert round1["byes"][0] not in round2["byes"]  # nobody sits out twice before the rest
    standings = {r["player"]: r for r in organiser.get(f"/api/tournaments/{tid}/standings/").json()}
    assert standings[leaver]["dropped"] is True and standings[leaver]["games"] == 1
    assert standings[round1["byes"][0]]["byes"] == 1
    kinds = list(TournamentEvent.objects.filter(tournament_id=tid).values_list("kind", flat=True))
    assert kinds == [
        "TournamentCreated",
        "RoundPaired",
        "EntryDropped",
        "EntryAdded",
        "RoundPaired",
    ]


def test_a_round_is_paired_again_only_before_any_result(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    first = pair(organiser, tid)
    assert (
        organiser.post(
            f"/api/tournaments/{tid}/enter/", {"player": "eve"}, format="json"
        ).status_code
        == 201
    )
    repaired = organiser.post(f"/api/tournaments/{tid}/rounds/1/repair/")
    assert repaired.status_code == 201
    assert (
        sum(len(t["seats"]) for t in repaired.json()["tables"]) + len(repaired.json()["byes"]) == 5
    )
    assert all(Game.objects.get(pk=t["game"]).status == "void" for t in first["tables"])
    report_all(api_for, users, tid, repaired.json(), confirm=False)
    refused = organiser.post(f"/api/tournaments/{tid}/rounds/1/repair/")
    assert refused.status_code == 422 and "result" in refused.json()["error"]


def test_the_tournaments_a_finished_game_may_end_are_those_it_is_a_live_table_of(
    organiser, players
):
    """A finished game asks which tournaments it is a table of: a re-paired round's tables
    count for none, and a batch (an import) longer than one statement's worth is asked in
    parts, the table found wherever it lies in the batch."""
    from league.services.tournaments.rounds import _tournaments_of

    tid = create(organiser).json()["id"]
    first = pair(organiser, tid)
    repaired = organiser.post(f"/api/tournaments/{tid}/rounds/1/repair/").json()
    live = repaired["tables"][0]["game"]
    void = first["tables"][0]["game"]
    other = Game.objects.create(slug=DSA, rules_version=1, options={}, num_players=2).pk
    assert _tournaments_of([live]) == {tid}
    assert _tournaments_of([void, other]) == set()
    assert _tournaments_of([other] * 700 + [live]) == {tid}
    assert _tournaments_of([]) == set()


def test_csv_exports(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    report_all(api_for, users, tid, pair(organiser, tid))
    standings = list(
        csv.reader(
            io.StringIO(organiser.get(f"/api/tournaments/{tid}/standings.csv").content.decode())
        )
    )
    assert standings[0] == [
        "position", "player", "points", "buchholz", "score", "share", "wins", "head_to_head",
        "games", "byes", "dropped", "place",
    ]  # fmt: skip
    assert len(set(standings[0])) == len(standings[0]), "no column twice (wins was)"
    assert len(standings) == 5 and standings[1][2] == "1"
    assert standings[1][5] == "0.53", "the share 10/19 to two decimals"
    results = list(
        csv.DictReader(
            io.StringIO(organiser.get(f"/api/tournaments/{tid}/results.csv").content.decode())
        )
    )
    assert len(results) == 4 and {r["status"] for r in results} == {"finished"}


def test_round_robin_meets_everyone_once(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser, format="round-robin", rounds=3).json()["id"]
    met = Counter()
    for _ in range(3):
        round_ = pair(organiser, tid)
        for table in round_["tables"]:
            met[frozenset(table["seats"])] += 1
        report_all(api_for, users, tid, round_)
    assert set(met) == {frozenset(p) for p in combinations(["ann", "ben", "cat", "dan"], 2)}
    assert set(met.values()) == {1}
    over = organiser.post(f"/api/tournaments/{tid}/rounds/")
    assert over.status_code == 422 and "over" in over.json()["error"]


def test_elimination_runs_to_a_champion(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser, format="elimination").json()["id"]
    round1 = pair(organiser, tid)
    report_all(api_for, users, tid, round1)
    final = pair(organiser, tid)
    assert len(final["tables"]) == 1
    assert set(final["tables"][0]["seats"]) == {t["seats"][0] for t in round1["tables"]}
    report_all(api_for, users, tid, final)
    assert organiser.post(f"/api/tournaments/{tid}/rounds/").status_code == 422
    assert organiser.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"


def test_an_elimination_of_short_tables_only_still_ends(organiser, api_for, players):
    # 4 players at tables of 3, 2 going through: two tables of 2, whose winners play the final
    # (once both players of a table of 2 went through, and the same 4 met for ever).
    users = {p.username: p for p in players}
    tid = create(organiser, format="elimination", table_size=3, advance=2).json()["id"]
    round1 = pair(organiser, tid)
    assert sorted(len(t["seats"]) for t in round1["tables"]) == [2, 2]
    report_all(api_for, users, tid, round1)
    final = pair(organiser, tid)
    assert [sorted(t["seats"]) for t in final["tables"]] == [
        sorted(t["seats"][0] for t in round1["tables"])
    ]
    report_all(api_for, users, tid, final)
    assert organiser.post(f"/api/tournaments/{tid}/rounds/").status_code == 422
    assert organiser.get(f"/api/tournaments/{tid}/").json()["status"] == "finished"


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
def test_a_twelve_player_swiss_and_top_cut_deep_vents_tournament_played_by_bots(organiser):
    """Twelve bots enter a Deep Vents Swiss of three rounds with a top cut of four and
    check-in: eleven check in (the twelfth is dropped when round 1 is paired), one drops out
    after round 1, the top four of the Swiss play a final, and the tournament ends by itself
    with the final's winner as champion. Every step is in the tournament's log."""
    bots = [f"bot-random-{i}" for i in range(1, 13)]
    response = create(
        organiser,
        name="Bots' Swiss",
        game=DV,
        mode="online",
        table_size=4,
        rounds=3,
        players=bots,
        top_cut=4,
        check_in=True,
        elimination_ties="score",  # bots play nothing off
    )
    assert response.status_code == 201, response.json()
    tid = response.json()["id"]
    for bot in bots[:11]:
        checked = organiser.post(f"/api/tournaments/{tid}/checkin/", {"player": bot}, format="json")
        assert checked.status_code == 201, checked.json()
    past_tables, repeats = [], 0
    field = {1: 11, 2: 10, 3: 10}
    for number in (1, 2, 3):
        round_ = pair(organiser, tid)  # bots play every game through on commit (eager)
        assert round_["number"] == number and round_["stage"] == "main"
        seated = [p for table in round_["tables"] for p in table["seats"]]
        assert len(seated) + len(round_["byes"]) == field[number]
        assert "bot-random-12" not in seated, "who did not check in is not paired"
        for table in round_["tables"]:
            game = Game.objects.get(pk=table["game"])
            assert game.status == "finished", "the bots played the game to its end"
            assert game.options == {"starting_bid": True}
            kinds = [
                e["action"]["type"]
                for e in Event.objects.filter(game=game, kind="ActionApplied").values_list(
                    "data", flat=True
                )[:1]
            ]
            assert kinds[0] in ("bid", "pass"), "each game opened with the bid"
            assert table["bid"]["settled"] and table["bid"]["player"] in table["seats"]
        tables = [table["seats"] for table in round_["tables"]]
        repeats += pairing.repeats(tables, past_tables)
        past_tables += tables
        if number == 1:
            dropped = organiser.post(
                f"/api/tournaments/{tid}/drop/", {"player": "bot-random-3"}, format="json"
            )
            assert dropped.status_code == 201
    swiss = APIClient().get(f"/api/tournaments/{tid}/standings/").json()
    assert len(swiss) == 11 and "bot-random-12" not in {row["player"] for row in swiss}
    points = [row["points"] for row in swiss]
    assert points == sorted(points, reverse=True)
    top_four = [row["player"] for row in swiss if not row["dropped"]][:4]

    final = pair(organiser, tid)
    assert final["stage"] == "cut" and len(final["tables"]) == 1
    assert sorted(final["tables"][0]["seats"]) == sorted(top_four)
    body = organiser.get(f"/api/tournaments/{tid}/").json()
    assert body["status"] == "finished", "the tournament ended by itself after the final"
    result = Game.objects.get(pk=final["tables"][0]["game"]).result
    # the best rank, then the best score, then the higher seed (never the seat)
    seats = final["tables"][0]["seats"]
    first = min(
        range(4),
        key=lambda i: (result[i]["rank"], -(result[i]["score"] or 0), top_four.index(seats[i])),
    )
    champion = seats[first]
    assert body["champion"] == champion
    log = Counter(TournamentEvent.objects.filter(tournament_id=tid).values_list("kind", flat=True))
    assert log == {
        "TournamentCreated": 1,
        "CheckedIn": 11,
        "CheckInClosed": 1,
        "EntryDropped": 2,
        "RoundPaired": 4,
        "StageStarted": 1,
        "BracketDrawn": 1,
        "TournamentFinished": 1,
    }
    assert Rating.objects.filter(slug=DV, user__username__in=bots[:11]).count() == 11


def test_a_second_players_report_confirms_or_disputes_it(organiser, api_for, players):
    users = {p.username: p for p in players}
    tid = create(organiser).json()["id"]
    first, second = pair(organiser, tid)["tables"]
    for table, same in ((first, True), (second, False)):
        a, b = table["seats"]
        claim = [{"player": a, "score": 3, "rank": 1}, {"player": b, "score": 1, "rank": 2}]
        other = [{"player": a, "score": 1, "rank": 2}, {"player": b, "score": 3, "rank": 1}]
        url = f"/api/tournaments/{tid}/tables/{table['id']}/report/"
        api_for(users[a]).post(url, {"results": claim}, format="json")
        response = api_for(users[b]).post(url, {"results": claim if same else other}, format="json")
        assert response.json()["status"] == ("final" if same else "disputed")


def test_a_tournament_joins_a_league_only_by_its_organisers(organiser, api_for, players):
    assert (
        api_for(players[0]).post("/api/leagues/", {"name": "Vent Club"}, format="json").status_code
        == 201
    )
    response = create(organiser, league="vent-club")
    assert response.status_code == 403 and "organisers" in response.json()["error"]


# -- the starting bid at a table ------------------------------------------------------------


def bid_table(organiser, api_for, players):
    """A Deep Vents Swiss on tables with the starting bid: round 1's first table."""
    tid = create(organiser, game="deep-vents", options={"starting_bid": True}).json()["id"]
    table = pair(organiser, tid)["tables"][0]
    users = {p.username: p for p in players}
    a, b = table["seats"]
    url = f"/api/tournaments/{tid}/tables/{table['id']}"
    results = [{"player": a, "score": 30, "rank": 1}, {"player": b, "score": 20, "rank": 2}]
    return tid, url, results, api_for(users[a]), api_for(users[b]), a, b


def test_a_bid_beyond_the_archaea_the_rules_give_is_refused(organiser, api_for, players):
    # Two players start with 10 archaea each, and bid from those.
    tid, url, results, first, _, a, _ = bid_table(organiser, api_for, players)
    too_much = first.post(
        f"{url}/report/", {"results": results, "bid": {"player": a, "amount": 11}}, format="json"
    )
    assert too_much.status_code == 400 and "at most 10" in too_much.json()["error"]
    assert Event.objects.filter(kind="ResultReported").count() == 0
    fine = first.post(
        f"{url}/report/", {"results": results, "bid": {"player": a, "amount": 10}}, format="json"
    )
    assert fine.status_code == 201 and fine.json()["bid"] == {"player": a, "amount": 10}


def test_confirming_covers_the_bid(organiser, api_for, players):
    tid, url, results, first, second, a, b = bid_table(organiser, api_for, players)
    first.post(
        f"{url}/report/", {"results": results, "bid": {"player": a, "amount": 4}}, format="json"
    )
    other_bid = second.post(
        f"{url}/confirm/", {"results": results, "bid": {"player": b, "amount": 4}}, format="json"
    )
    assert other_bid.status_code == 201 and other_bid.json()["status"] == "disputed"
    assert other_bid.json()["disputes"][0]["by"] == b


def test_a_confirmation_naming_the_same_bid_or_none_confirms_it(organiser, api_for, players):
    tid, url, results, first, second, a, _ = bid_table(organiser, api_for, players)
    bid = {"player": a, "amount": 4}
    first.post(f"{url}/report/", {"results": results, "bid": bid}, format="json")
    same = second.post(f"{url}/confirm/", {"results": results, "bid": bid}, format="json")
    assert same.json()["status"] == "final" and same.json()["bid"] == bid


def test_the_organisers_bid_stands_and_results_csv_carries_it(organiser, api_for, players):
    tid, url, results, first, second, a, b = bid_table(organiser, api_for, players)
    first.post(
        f"{url}/report/", {"results": results, "bid": {"player": a, "amount": 4}}, format="json"
    )
    second.post(
        f"{url}/confirm/", {"results": results, "bid": {"player": b, "amount": 6}}, format="json"
    )
    settled = organiser.post(
        f"{url}/override/", {"results": results, "bid": {"player": b, "amount": 6}}, format="json"
    )
    assert settled.status_code == 201
    assert settled.json()["status"] == "final" and settled.json()["bid"] == {
        "player": b,
        "amount": 6,
    }
    rows = list(
        csv.DictReader(
            io.StringIO(organiser.get(f"/api/tournaments/{tid}/results.csv").content.decode())
        )
    )
    by_player = {r["player"]: r["winning bid"] for r in rows}
    assert by_player[b] == "6" and by_player[a] == ""


def test_the_end_of_a_game_in_no_tournament_is_one_read_with_no_transaction():
    """Every finished game asks whether it ended a tournament; a game in none (most of them)
    pays one read, not a transaction around it (on SQLite, BEGIN IMMEDIATE takes the write
    lock)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from league.services.tournaments import tournaments_end_if_over

    game = Game.objects.create(slug=DSA, rules_version=1, options={}, num_players=2)
    with CaptureQueriesContext(connection) as captured:
        assert tournaments_end_if_over(game_ids=[game.pk]) == []
    assert [q["sql"].split()[0] for q in captured.captured_queries] == ["SELECT"]
