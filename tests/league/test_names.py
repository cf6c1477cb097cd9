"""Names as people write them, in any script: a league, a season or a tournament is called what
its organiser typed, shown so everywhere; a league's slug (its address) is that name in ASCII,
transliterated where a transliteration exists and generated where none does."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from core.errors import Conflict, InvalidInput
from league.models import League
from league.services import leagues, tournaments
from league.tournament_spec import TournamentSpec
from tests.tokens import key_for

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"
SLUG = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
NAMES = {
    "Greek": ("Λέσχη Πειραιά", "leschi-peiraia"),
    "Cyrillic": ("Клуб Глубина", "klub-glubina"),
    "Japanese": ("深海クラブ", "shenhaikurabu"),
    "emoji": ("🐙🦑", "octopus-squid"),
    "emoji and words": ("Deep 🐙 club", "deep-octopus-club"),
    "accents": ("Café Ægir", "cafe-aegir"),
    "all punctuation": ("!!! ??? …", "league"),
}


@pytest.fixture
def api(alice):
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice)}")
    return client


@pytest.mark.parametrize("script", NAMES)
def test_a_league_named_in_any_script_gets_an_ascii_slug(alice, script):
    name, slug = NAMES[script]
    league = leagues.league_create(name=name, created_by=alice)
    assert (league.name, league.slug) == (name, slug)
    assert SLUG.fullmatch(league.slug)


@pytest.mark.parametrize("script", NAMES)
def test_the_api_and_the_pages_show_the_name_as_typed(client, api, alice, script):
    name, slug = NAMES[script]
    created = api.post("/api/leagues/", {"name": name}, format="json")
    assert created.status_code == 201, created.json()
    assert (created.json()["name"], created.json()["slug"]) == (name, slug)
    assert api.get(f"/api/leagues/{slug}/").json()["name"] == name
    assert [s["name"] for s in api.get("/api/leagues/").json()] == [name]
    assert name in client.get(reverse("league-detail", args=[slug])).content.decode()
    assert name in client.get(reverse("leagues")).content.decode()


def test_the_league_form_takes_a_greek_name(client, alice):
    client.force_login(alice)
    response = client.post(reverse("leagues"), {"name": "Λέσχη Πειραιά"})
    assert response.status_code == 302, response.content.decode()[:500]
    assert response.url == reverse("league-detail", args=["leschi-peiraia"])
    assert "Λέσχη Πειραιά" in client.get(response.url).content.decode()


def test_names_with_the_same_slug_get_a_suffix(alice):
    first = leagues.league_create(name="Klub Glubina", created_by=alice)
    second = leagues.league_create(name="Клуб Глубина", created_by=alice)
    third = leagues.league_create(name="Klub: Glubina!", created_by=alice)
    assert [first.slug, second.slug, third.slug] == [
        "klub-glubina",
        "klub-glubina-2",
        "klub-glubina-3",
    ]
    generated = [leagues.league_create(name=n, created_by=alice).slug for n in ("!!!", "???")]
    assert generated == ["league", "league-2"]


def test_a_suffix_fits_a_long_slug(alice):
    name = "Λ" * 60  # "L" * 60 in ASCII: cut to the slug's 50 characters
    first = leagues.league_create(name=name, created_by=alice)
    second = leagues.league_create(name="L" * 60, created_by=alice)
    assert first.slug == "l" * 50
    assert second.slug == "l" * 48 + "-2"


@pytest.mark.parametrize("name", ["Λέσχη Πειραιά", "ΛΈΣΧΗ ΠΕΙΡΑΙΆ", " Λέσχη Πειραιά "])
def test_the_same_name_again_is_refused_whatever_its_case(alice, name):
    leagues.league_create(name="Λέσχη Πειραιά", created_by=alice)
    with pytest.raises(Conflict, match="exists already"):
        leagues.league_create(name=name, created_by=alice)
    assert League.objects.count() == 1


@pytest.mark.parametrize(
    "name, message",
    [
        ("", "name may not be empty"),
        ("   ", "name may not be empty"),
        ("Club\x00", "control characters"),
        ("Λ" * 101, "at most 100 characters"),
    ],
    ids=["empty", "only spaces", "NUL", "too long"],
)
def test_a_bad_name_is_still_a_clear_error(api, alice, name, message):
    with pytest.raises(InvalidInput, match=message):
        leagues.league_create(name=name, created_by=alice)
    response = api.post("/api/leagues/", {"name": name}, format="json")
    assert response.status_code == 400 and response.json()["error"]
    assert not League.objects.exists()


def test_seasons_and_tournaments_keep_their_names_too(client, api, alice, bob):
    league = leagues.league_create(name="Клуб Глубина", created_by=alice)
    season = api.post(
        f"/api/leagues/{league.slug}/seasons/",
        {"name": "Χειμώνας 2026 ❄️", "starts_on": "2026-01-01"},
        format="json",
    )
    assert season.status_code == 201, season.json()
    assert [s["name"] for s in season.json()["seasons"]] == ["Χειμώνας 2026 ❄️"]
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="深海カップ",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["alice", "bob"],
            league=league,
        ),
        created_by=alice,
    )
    assert api.get(f"/api/tournaments/{cup.pk}/").json()["name"] == "深海カップ"
    page = client.get(reverse("tournament-detail", args=[cup.pk])).content.decode()
    assert "深海カップ" in page and "Клуб Глубина" in page
    assert (
        "Χειμώνας 2026 ❄️"
        in client.get(reverse("league-detail", args=[league.slug])).content.decode()
    )


def test_the_standings_file_is_named_in_ascii_after_a_greek_season(client, alice):
    league = leagues.league_create(name="Λέσχη Πειραιά", created_by=alice)
    season = leagues.season_add(league=league, name="Χειμώνας", starts_on="2026-01-01", by=alice)
    response = client.get(
        reverse("league-standings-csv", args=[league.slug]), {"season": season.pk}
    )
    assert response.status_code == 200
    assert response["Content-Disposition"] == (
        'attachment; filename="leschi-peiraia-cheimonas-standings.csv"'
    )
