"""Issue 38, the maths on event day: a round robin that loses a player is planned again for the
field that is left; a field that falls below one table is seated at a table of two where the
game allows it, or refused; a tournament's games count in its season on the event's points."""

from __future__ import annotations

import pytest

from league.models import TournamentEvent
from tests.league.tournament_steps import override, ranked

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")


def create(client, **overrides):
    body = {
        "name": "Harbour round robin",
        "game": DSA,
        "format": "round-robin",
        "table_size": 3,
        "mode": "table",
        "players": list(NAMES[:7]),
    }
    body.update(overrides)
    response = client.post("/api/tournaments/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def pair(client, tid):
    return client.post(f"/api/tournaments/{tid}/rounds/", format="json")


def finish(org, tid, round_body):
    """The organiser settles every table: the first seat wins, then in seat order."""
    for table in round_body["tables"]:
        response = override(org, tid, table["id"], ranked(*table["seats"]))
        assert response.status_code == 201, response.json()


def drop(org, tid, player):
    response = org.post(f"/api/tournaments/{tid}/drop/", {"player": player}, format="json")
    assert response.status_code == 201, response.json()


def test_a_round_robin_of_seven_that_loses_one_plays_two_full_tables(org):
    """Seven at tables of 3 sit at one table of 3 and two of 2. Gus goes home after round 1:
    the six left fit two tables of 3, so round 2 has no bye and no table of 2."""
    tid = create(org)
    first = pair(org, tid).json()
    assert sorted(len(t["seats"]) for t in first["tables"]) == [2, 2, 3]
    finish(org, tid, first)
    leaver = first["tables"][0]["seats"][0]
    drop(org, tid, leaver)
    second = pair(org, tid).json()
    assert sorted(len(t["seats"]) for t in second["tables"]) == [3, 3]
    assert second["byes"] == []
    met = {frozenset((a, b)) for t in first["tables"] for a in t["seats"] for b in t["seats"]}
    pairs = [frozenset((a, b)) for t in second["tables"] for a in t["seats"] for b in t["seats"]]
    assert sum(1 for p in pairs if len(p) == 2 and p in met) // 2 <= 1


@pytest.mark.parametrize("format_", ["swiss", "round-robin"])
def test_two_left_at_tables_of_four_play_a_table_of_two_and_one_left_is_refused(org, format_):
    """Deep Sea Adventure takes 2 to 6 players. Four sit at a table of 4; two go home, and the
    two left are no table of 3 or 4: they play each other rather than a round of byes. When one
    more goes, one player is no round at all: pairing is refused, in words, changing nothing."""
    tid = create(org, format=format_, table_size=4, rounds=3, players=list(NAMES[:4]))
    first = pair(org, tid).json()
    finish(org, tid, first)
    seats = first["tables"][0]["seats"]
    drop(org, tid, seats[0])
    drop(org, tid, seats[1])
    second = pair(org, tid)
    assert second.status_code == 201, second.json()
    assert [sorted(t["seats"]) for t in second.json()["tables"]] == [sorted(seats[2:])]
    assert second.json()["byes"] == []
    drop(org, tid, seats[2])  # during round 2: its result still comes in
    finish(org, tid, second.json())
    logged = TournamentEvent.objects.filter(tournament_id=tid).count()
    third = pair(org, tid)
    assert third.status_code == 422
    assert third.json()["error"] == (
        f"only {seats[3]} is still playing, and a round needs at least two players:"
        " enter or re-enter a player to play on, or end the tournament"
    )
    assert TournamentEvent.objects.filter(tournament_id=tid).count() == logged
    assert org.get(f"/api/tournaments/{tid}/").json()["status"] == "running"


def test_both_pages_say_how_season_points_differ_from_the_events(org, client, users):
    """Issue 38: a tournament in a season counts there on the season's scale (points by the
    table's own size), not on the event's (short tables on the full table's scale); both
    pages say so."""
    import datetime as dt

    from league.models import League, Membership, Season

    league = League.objects.create(name="Harbour club", slug="harbour")
    Membership.objects.create(league=league, user=users["org"], role="organiser")
    season = Season.objects.create(league=league, name="Spring", starts_on=dt.date(2020, 1, 1))
    tid = create(org, league="harbour", season="Spring")
    client.force_login(users["org"])
    event = client.get(f"/tournaments/{tid}/").content.decode()
    assert "count in the Spring standings of Harbour club on the season's scale" in event
    page = client.get(f"/leagues/harbour/?season={season.pk}").content.decode()
    assert "Tournament games count here on the season's scale" in page


def test_drops_that_break_every_pair_of_a_round_robin_round_at_two_pair_those_left(org):
    """Six at tables of 2: after round 1 one player of each of round 2's three pairs drops
    out. The circle would give the three left a bye each and no game; they are paired afresh
    instead, two at a table of 2 and one bye (never a table of 3 at an event of 2)."""
    from random import Random

    from league import pairing
    from league.models import Tournament

    tid = create(org, table_size=2, players=list(NAMES[:6]), rounds=5)
    first = pair(org, tid).json()
    finish(org, tid, first)
    tournament = Tournament.objects.get(pk=tid)
    order = [e.name for e in tournament.entries.all()]
    schedule = pairing.round_robin(order, 2, 5, rng=Random(f"{tid}:schedule"))
    round_2 = [list(t) for t in schedule[1].tables]
    assert len(round_2) == 3
    for table in round_2:
        drop(org, tid, table[1])
    second = pair(org, tid).json()
    assert [len(t["seats"]) for t in second["tables"]] == [2]
    left = {table[0] for table in round_2}
    assert set(second["tables"][0]["seats"]) | set(second["byes"]) == left
    assert len(second["byes"]) == 1
