"""Imports a club's secretary can use: games named as the site names them, the columns of the
play logs of BoardGameGeek and BG Stats, and plays already in the league found and skipped
unless asked for (docs/records.md, "Import and export")."""

from __future__ import annotations

import pytest

from games.models import Game
from league.services import leagues
from league.services.plays import plays_import
from tests.league.members import join

pytestmark = pytest.mark.django_db

HEADER = "play,date,game,player,guest,score,rank\n"


@pytest.fixture
def club(alice, bob):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    join(league, "bob", by=alice)
    return league


def imported(club, alice, text, **options):
    return plays_import(league=club, content=text, format="csv", by=alice, **options)


# -- games by the names the site shows ------------------------------------------------------------


def test_a_game_is_named_as_the_site_names_it_whatever_its_case_and_spaces(club, alice):
    text = HEADER + (
        "p1,2024-03-01,Deep Sea Adventure,alice,no,12,1\n"
        "p1,2024-03-01,Deep Sea Adventure,bob,no,8,2\n"
        "p2,2024-03-02,  deep sea ADVENTURE ,alice,no,3,2\n"
        "p2,2024-03-02,  deep sea ADVENTURE ,bob,no,9,1\n"
        "p3,2024-03-03,Oceans (with The Deep promo pack 2),alice,no,40,1\n"
        "p3,2024-03-03,Oceans (with The Deep promo pack 2),bob,no,30,2\n"
        "p4,2024-03-04,abyss,alice,no,40,1\n"
        "p4,2024-03-04,abyss,bob,no,30,2\n"
    )
    report = imported(club, alice, text)
    assert report.imported and not report.refused, report.lines()
    slugs = list(Game.objects.order_by("finished_at").values_list("slug", flat=True))
    assert slugs == ["deep-sea-adventure", "deep-sea-adventure", "oceans", "abyss"]


def test_an_unknown_game_names_the_games_it_could_be_in_the_sites_words(club, alice):
    text = HEADER + "p1,2024-03-01,Deep Sea Adventur,alice,no,12,1\n"
    report = imported(club, alice, text, dry_run=True)
    assert str(report.refused[0]) == (
        "row 2: game: unknown game 'Deep Sea Adventur' (did you mean Deep Sea Adventure?)"
    )


def test_a_game_like_none_of_the_sites_lists_them_all_by_name(club, alice):
    report = imported(club, alice, HEADER + "p1,2024-03-01,Catan,alice,no,12,1\n", dry_run=True)
    message = str(report.refused[0])
    assert message == (
        "row 2: game: unknown game 'Catan' (the games are Abyss, Deep Sea Adventure, Deep"
        " Vents, Oceans (with The Deep promo pack 2), Ventlife)"
    )
    assert "deep-sea-adventure" not in message
