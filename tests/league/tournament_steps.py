"""The steps the tournament tests take again and again: a tournament set up through the API,
its next round paired, a table's result (the organiser's, or a forfeit), the tournament's log;
and, through the services, an evening of Swiss at tables of two and a round settled.

A test module that needs other settings says so once, ``create = partial(create, mode="online")``;
the players and their organiser are fixtures (tests/league/conftest.py)."""

from __future__ import annotations

from league.models import TournamentEvent
from league.services import tournaments
from league.tournament_spec import TournamentSpec

DSA = "deep-sea-adventure"


def set_up(client, players=None, **settings):
    """The request by which ``client`` sets up a tournament: a Swiss of two rounds at tables
    of two, played at the venue, for ``players`` (ann, ben, cat and dan if none), with
    ``settings`` over that. Returns the response, for the tests that look at a refusal."""
    body = {
        "name": "Harbour cup",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "mode": "table",
        "players": ["ann", "ben", "cat", "dan"] if players is None else players,
    }
    body.update(settings)
    return client.post("/api/tournaments/", body, format="json")


def create(client, players=None, **settings) -> int:
    """A tournament set up as ``set_up`` sets it up, which must succeed: its id."""
    response = set_up(client, players, **settings)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def pair(client, tid) -> dict:
    """The next round, paired and published."""
    response = client.post(f"/api/tournaments/{tid}/rounds/")
    assert response.status_code == 201, response.json()
    return response.json()


def ranked(*players: str, scores=None) -> list[dict]:
    """A table's results with ``players`` best first: ranks 1, 2, 3… and ``scores`` (10, 9,
    8… if none)."""
    scores = scores or [10 - i for i in range(len(players))]
    return [
        {"player": p, "score": score, "rank": i + 1}
        for i, (p, score) in enumerate(zip(players, scores, strict=True))
    ]


def override(client, tid, table: int, results: list[dict]):
    """An organiser's result for table ``table`` (its id): the response."""
    return client.post(
        f"/api/tournaments/{tid}/tables/{table}/override/", {"results": results}, format="json"
    )


def forfeit(client, tid, table: int, **body):
    """A forfeit (``player``, ``reason``) or an adjudication (``results``, ``reason``) at table
    ``table`` (its id): the response."""
    return client.post(f"/api/tournaments/{tid}/tables/{table}/forfeit/", body, format="json")


def kinds(tid) -> list[str]:
    """The kinds of the tournament's log, oldest first."""
    return list(TournamentEvent.objects.filter(tournament_id=tid).values_list("kind", flat=True))


def log(tid) -> list[tuple[str, dict]]:
    """The tournament's log, oldest first: each entry's kind and data."""
    return list(
        TournamentEvent.objects.filter(tournament_id=tid).values_list("kind", "data").order_by("pk")
    )


def harbour_night(make_user, players) -> tuple:
    """An evening's Swiss of three rounds at tables of two, played at the venue, for
    ``players``, set up by "org": the tournament, and the users by name."""
    users = {name: make_user(name) for name in ("org", *players)}
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Harbour night",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=3,
            mode="table",
            players=list(players),
        ),
        created_by=users["org"],
    )
    return tournament, users


def settle_round(tournament, org, round_) -> None:
    """Every table of the round: the first seat wins, as the organiser ``org`` settles it."""
    for table in round_.tables.select_related("game").prefetch_related("game__seats__user"):
        seats = [s.user.username for s in sorted(table.game.seats.all(), key=lambda s: s.index)]
        tournaments.table_override(
            tournament=tournament, table=table, by=org, results=ranked(*seats)
        )
