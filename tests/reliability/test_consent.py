"""Consent on the compose deployment: the four side doors an outside attacker walked through,
each rating members who never agreed, now lead nowhere. alice, a member like any other, tries
each on u75 and u76; a game between two members who did agree is rated meanwhile, so that
"not rated" is not merely "not rated yet"."""

from __future__ import annotations

import random
import time

import pytest

pytestmark = pytest.mark.reliability

DSA = "deep-sea-adventure"
PLAYS = "play,date,game,player,guest,score,rank\n" + "".join(
    f"p{n},2026-0{n}-01,abyss,u50,no,80,1\np{n},2026-0{n}-01,abyss,alice,no,{60 + n},2\n"
    for n in range(1, 6)
)


def rated_games(stack, name: str) -> int:
    status, player = stack.get(f"/api/players/{name}/")
    assert status == 200, player
    return sum(rating["games"] for rating in player["ratings"])


def test_nobody_is_rated_through_a_side_door(stack):
    tokens = stack.members(["alice", "bob", "u75", "u76", "u50"])
    alice = {"Authorization": f"Token {tokens['alice']}"}

    # (a) her own league: she adds them (an invitation now) and records "u75 beat u76".
    status, league = stack.post("/api/leagues/", {"name": "Side door"}, alice)
    assert status == 201, league
    slug = league["slug"]
    for name in ("u75", "u76", "u50"):
        status, added = stack.post(f"/api/leagues/{slug}/members/", {"player": name}, alice)
        assert status == 201 and added["added"]["status"] == "invited", added
    results = [{"player": "u75", "rank": 1}, {"player": "u76", "rank": 2}]
    status, record = stack.post(
        "/api/matches/",
        {"game": DSA, "played_at": "2026-11-20", "results": results, "league": slug},
        alice,
    )
    assert status == 201 and record["status"] == "active", record

    # (b) she imports five plays naming u50, from the league's page.
    page = stack.signed_in("alice")
    status, _ = page.upload(
        f"/leagues/{slug}/import/", {"format": "csv"}, "file", "plays.csv", PLAYS.encode()
    )
    assert status == 302

    # (c) a table-mode tournament of her own, and an override of its one table.
    status, cup = stack.post(
        "/api/tournaments/",
        {
            "name": "Self-made open",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "table",
            "players": ["u75", "u76"],
        },
        alice,
    )
    assert status == 201, cup
    status, paired = stack.post(f"/api/tournaments/{cup['id']}/rounds/", {}, alice)
    assert status == 201, paired
    table = paired["tables"][0]["id"]
    status, overridden = stack.post(
        f"/api/tournaments/{cup['id']}/tables/{table}/override/",
        {"results": [{**r, "score": 9 - r["rank"]} for r in results]},
        alice,
    )
    assert status == 201 and overridden["status"] == "final", overridden

    # (d) a table log of u75 and u76, kept by her, not seated, every die hers.
    status, log = stack.post(
        "/api/games/",
        {
            "game": DSA,
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "u75"}, {"user": "u76"}],
        },
        alice,
    )
    assert status == 201, log
    dice = random.Random(75)
    while (due := stack.get(f"/api/games/{log['id']}/log/", alice)[1])["due"] is not None:
        entry = {
            "seat": "chance" if due["due"] == "chance" else due["seat"],
            "expected_version": due["version"],
            "action": dice.choice(due["choices"]),
        }
        status, entered = stack.post(f"/api/games/{log['id']}/actions/", entry, alice)
        assert status == 201, entered

    # Then alice and bob, who both agreed, record a game of each kind the doors used: the
    # worker takes the rating tasks in turn, the doors' first, so once theirs are rated the
    # doors' games have been weighed too.
    for game in (DSA, "abyss"):
        status, fair = stack.post(
            "/api/matches/",
            {
                "game": game,
                "played_at": "2026-11-21",
                "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
            },
            alice,
        )
        assert status == 201, fair
        status, confirmed = stack.post(
            f"/api/matches/{fair['id']}/confirm/", {}, {"Authorization": f"Token {tokens['bob']}"}
        )
        assert status == 201, confirmed
    deadline = time.monotonic() + 60
    while rated_games(stack, "bob") < 2:
        assert time.monotonic() < deadline, "the worker rated nothing"
        time.sleep(0.5)

    assert [rated_games(stack, name) for name in ("u75", "u76", "u50")] == [0, 0, 0]
