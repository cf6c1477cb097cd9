"""manage.py rating_report on a league's games and on a file of plays: every candidate, in the
order played, the same table as the bench; and bad input refused in words, changing nothing."""

from __future__ import annotations

import json
import math
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from league.models import RatingChange
from league.ratings import CANDIDATES
from league.services import leagues
from league.services.plays import plays_import
from tests.league.members import join

pytestmark = pytest.mark.django_db

HEADER = "play,date,game,player,guest,score,rank\n"


def csv_of(plays: list[tuple[str, list[tuple[str, int]]]], guest: str = "no") -> str:
    """A Hadal CSV: each play (date, [(player, rank), ...]) of Abyss, numbered in order."""
    rows = [
        f"p{n},{date},abyss,{player},{guest},,{rank}\n"
        for n, (date, seats) in enumerate(plays, start=1)
        for player, rank in seats
    ]
    return HEADER + "".join(rows)


# alice wins every game; bob and carol share the rest. In time order the ladders learn it.
PLAYS = [
    (f"2024-03-{day:02d}", [("alice", 1), ("bob", 2), ("carol", 3 if day % 2 else 2)])
    for day in range(1, 13)
]


@pytest.fixture
def club(alice, bob, make_user):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    join(league, "bob", by=alice)
    make_user("carol")
    join(league, "carol", by=alice)
    return league


def report(*args) -> dict:
    out = StringIO()
    call_command("rating_report", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


def test_a_leagues_games_in_the_order_played(club, alice, django_capture_on_commit_callbacks):
    # Imported out of order: the report reads them in the order played all the same.
    text = csv_of(PLAYS[6:] + PLAYS[:6])
    with django_capture_on_commit_callbacks(execute=True):
        plays_import(league=club, content=text, format="csv", by=alice)
    ratings_before = list(RatingChange.objects.values_list("pk", "after", "openskill_mu_after"))
    result = report("--league", club.slug)
    assert result["games"] == 12 and result["players"] == 3
    assert set(result["candidates"]) == {*CANDIDATES, "uniform guess"}
    # alice always wins: after the first game every ladder makes her favourite.
    for name in CANDIDATES:
        figures = result["candidates"][name]
        assert figures["accuracy"] >= 11 / 12, name
        assert figures["log_loss"] < result["uniform"]["log_loss"], name
    assert result["uniform"]["log_loss"] == pytest.approx(math.log(3))
    # chance: 1/3 a game, lift accuracy over it
    assert result["uniform"]["chance"] == pytest.approx(1 / 3)
    elo = result["candidates"]["elo k=32"]
    assert elo["lift"] == pytest.approx(elo["accuracy"] * 3)
    # It only read: every rating as it was.
    assert (
        list(RatingChange.objects.values_list("pk", "after", "openskill_mu_after"))
        == ratings_before
    )


def test_the_table_puts_log_loss_first(club, alice, tmp_path):
    path = tmp_path / "plays.csv"
    path.write_text(csv_of(PLAYS))
    out = StringIO()
    call_command("rating_report", "--file", str(path), stdout=out)
    lines = out.getvalue().splitlines()
    assert lines[0] == (
        "plays.csv: 12 rated games, each predicted before it counts, in the order played; 3 players"
    )
    header = lines[2].split()
    assert header[:3] == ["candidate", "log-loss", "±"] and header[-2:] == ["accuracy", "lift"]
    names = [line[2:].split("  ")[0].strip() for line in lines[3:]]
    assert names == [*CANDIDATES, "uniform guess"]
    assert sum(line.startswith("*") for line in lines[3:]) == 1


def test_a_file_and_the_league_it_was_imported_into_agree(
    club, alice, tmp_path, django_capture_on_commit_callbacks
):
    path = tmp_path / "plays.csv"
    path.write_text(csv_of(PLAYS))
    from_file = report("--file", str(path))
    assert not Game.objects.exists()  # the report imports nothing
    with django_capture_on_commit_callbacks(execute=True):
        plays_import(league=club, content=path.read_text(), format="csv", by=alice)
    from_league = report("--league", club.slug)
    assert from_file["candidates"] == from_league["candidates"]


def test_an_unknown_league(db):
    with pytest.raises(CommandError, match="no league 'nowhere'"):
        call_command("rating_report", "--league", "nowhere")


def test_a_league_with_no_games(club):
    with pytest.raises(CommandError, match="Harbour club has no finished games to report on"):
        call_command("rating_report", "--league", club.slug)


def test_a_history_of_ties_only(tmp_path):
    path = tmp_path / "ties.csv"
    path.write_text(csv_of([("2024-03-01", [("ann", 1), ("ben", 1)])] * 3))
    with pytest.raises(CommandError, match="every one of the 3 games is a tie for first"):
        call_command("rating_report", "--file", str(path))


def test_a_game_with_one_rated_player(tmp_path):
    # ann against a guest: one rated player, nothing to predict.
    lone = HEADER + "solo,2024-03-01,abyss,ann,no,,1\nsolo,2024-03-01,abyss,Zoe,yes,,2\n"
    path = tmp_path / "lone.csv"
    path.write_text(lone)
    with pytest.raises(CommandError, match="no game with two rated players or more"):
        call_command("rating_report", "--file", str(path))
    # Among others, it is left out and said so.
    path.write_text(lone + csv_of(PLAYS).removeprefix(HEADER))
    out = StringIO()
    call_command("rating_report", "--file", str(path), stdout=out)
    assert "skipped 1 game with fewer than two rated players (a guest is not rated)" in (
        out.getvalue()
    )
    assert "12 rated games" in out.getvalue()


def test_a_league_game_with_one_member(club, alice, django_capture_on_commit_callbacks):
    text = csv_of(PLAYS[:3]) + "p9,2024-04-01,abyss,alice,no,,1\np9,2024-04-01,abyss,Zoe,yes,,2\n"
    with django_capture_on_commit_callbacks(execute=True):
        plays_import(league=club, content=text, format="csv", by=alice)
    result = report("--league", club.slug)
    assert result["games"] == 3
    assert result["notes"] == [
        "skipped 1 game with fewer than two rated players (a guest is not rated)"
    ]


@pytest.mark.parametrize(
    "content, message",
    [
        ("play,date,player\n1,2024-01-01,ann\n", "lacks the columns game, rank"),
        ("<plays><play/></plays>", "this is XML, not CSV"),
        (HEADER, "the file has no plays"),
    ],
)
def test_a_file_that_does_not_parse(tmp_path, content, message):
    path = tmp_path / "bad.csv"
    path.write_text(content)
    with pytest.raises(CommandError, match=message):
        call_command("rating_report", "--file", str(path))


def test_a_file_with_refused_rows_and_no_file(tmp_path):
    path = tmp_path / "some.csv"
    path.write_text(csv_of(PLAYS) + "p99,2024-03-20,chess,ann,no,,1\n")
    with pytest.raises(CommandError) as refused:
        call_command("rating_report", "--file", str(path))
    assert "some.csv: 1 refused, so no report (--skip-refused reports on the rest)" in str(
        refused.value
    )
    assert "refused row 38: game:" in str(refused.value)
    result = report("--file", str(path), "--skip-refused")
    assert result["games"] == 12 and result["notes"][0].startswith("refused row 38: game:")
    with pytest.raises(CommandError, match="no file"):
        call_command("rating_report", "--file", str(tmp_path / "missing.csv"))
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    with pytest.raises(CommandError, match="bad.json: "):
        call_command("rating_report", "--file", str(bad))


def test_one_source_at_a_time(tmp_path):
    with pytest.raises(CommandError):
        call_command("rating_report", "--league", "a", "--game", "abyss")
    with pytest.raises(CommandError):
        call_command("rating_report")
