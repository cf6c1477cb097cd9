"""The starting bid at tables played here (online), shown like the bid reported at a table."""

from __future__ import annotations

import csv
import io

import pytest

from games.models import Game
from games.play import reads
from games.play import services as game_services

pytestmark = pytest.mark.django_db


def _act(game: Game, users: dict, pick) -> None:
    game.refresh_from_db()
    seat = game.current_player
    name = game.seats.get(index=seat).user.username
    actions = reads.game_legal_actions(game=game, user=users[name], seat=seat)
    game_services.game_action_append(
        game=game,
        seat=seat,
        expected_version=game.version,
        action=pick(actions),
        user=users[name],
    )


def test_an_online_tables_bid_is_on_the_page_and_in_results_csv(api_for, make_user, client):
    users = {name: make_user(name) for name in ("org", "ann", "ben")}
    organiser = api_for(users["org"])
    body = {
        "name": "Vents online",
        "game": "deep-vents",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "mode": "online",
        "players": ["ann", "ben"],
    }
    tid = organiser.post("/api/tournaments/", body, format="json").json()["id"]
    table = organiser.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    assert table["bid"] is None
    game = Game.objects.get(pk=table["game"])

    # The opener bids 2, the other passes: the opener won the bid but has not played yet.
    _act(game, users, lambda acts: next(a for a in acts if a == {"type": "bid", "amount": 2}))
    opener = game.seats.get(index=game.events.filter(kind="ActionApplied").first().seat)
    _act(game, users, lambda acts: next(a for a in acts if a["type"] == "pass"))
    table = organiser.get(f"/api/tournaments/{tid}/").json()["rounds_played"][0]["tables"][0]
    assert table["bid"] == {"player": opener.user.username, "amount": 2, "settled": False}
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Highest bid so far" in page and f"{opener.user.username}</strong>, 2 archaea" in page

    _act(game, users, lambda acts: acts[0])  # the first move of play settles it
    table = organiser.get(f"/api/tournaments/{tid}/").json()["rounds_played"][0]["tables"][0]
    assert table["bid"]["settled"] is True
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert "Winning bid" in page and f"{opener.user.username}</strong>, 2 archaea" in page
    rows = list(
        csv.DictReader(
            io.StringIO(client.get(f"/api/tournaments/{tid}/results.csv").content.decode())
        )
    )
    bids = {row["player"]: row["winning bid"] for row in rows}
    assert bids == {opener.user.username: "2", ({"ann", "ben"} - {opener.user.username}).pop(): ""}
