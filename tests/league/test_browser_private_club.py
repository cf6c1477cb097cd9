"""A members-only club in a real headless Chromium, on a phone (390 px wide): a newcomer signs
up, confirms their address, gets a new password by mail, opens the invite link the owner
handed round, signs in, joins, and plays a tournament game of the club at a table, reported and
confirmed on the tournament page; an outsider, signed in, finds none of it anywhere.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright) and the tournament page's helpers of test_browser_tournament."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from league.models import Membership, Tournament
from league.services import clubs, leagues, tournaments
from tests.accounts.browser import (  # noqa: F401  (fixtures)
    fits_a_phone,
    new_password_by_mail,
    phone_page,
    sign_out,
    verified_member,
)
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import confirm, sign_in, tables_of

pytestmark = pytest.mark.browser
CLUB, CUP = "Lantern Fish", "Lantern cup"
User = get_user_model()


def scrolls_sideways(page) -> bool:  # noqa: F811
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


@pytest.fixture
def club(make_user):
    olga = make_user("olga")
    make_user("mia")
    make_user("max")
    make_user("out")
    league = leagues.league_create(name=CLUB, created_by=olga, visibility="members")
    link = clubs.link_create(league=league, by=olga, max_uses=5)
    return league, olga, link


def test_a_newcomer_signs_up_recovers_joins_by_the_link_and_plays(  # noqa: F811
    phone_page, verified_member, club
):
    """Issue 36's journey: sign up with an e-mail and confirm it, forget the password and set a
    new one from the mail, open the club's invite link, sign in by the address, join, and play a
    table of the club's tournament, reported and confirmed on its pages."""
    from playwright.sync_api import expect

    page = phone_page
    league, olga, link = club
    marina = verified_member("marina")
    sign_out(page)
    new_password_by_mail(page, marina, "a-Second-passphrase-77")

    page.goto(f"/join/{link.code}/")
    expect(page.locator("#club-door h1")).to_have_text(CLUB)
    fits_a_phone(page)
    page.click("#club-door a:has-text('Sign in')")
    page.fill("#id_username", marina.email)
    page.fill("#id_password", marina.password)
    page.click("main button[type=submit]")
    # Back at the door, signed in: one button.
    expect(page.locator("#join-club button")).to_have_text(f"Join {CLUB}")
    page.click("#join-club button")
    expect(page.locator(".messages")).to_contain_text(f"Welcome to {CLUB}")
    expect(page.locator("h1")).to_contain_text(CLUB)
    fits_a_phone(page)
    assert Membership.objects.filter(league=league, user__username="marina").exists()

    clubs.link_join(code=link.code, by=User.objects.get(username="max"))
    api = APIClient()
    api.force_authenticate(olga)
    created = api.post(
        "/api/tournaments/",
        {
            "name": CUP,
            "game": "deep-sea-adventure",
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "table",
            "league": league.slug,
            "players": ["marina", "max"],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    cup = Tournament.objects.get(pk=created.json()["id"])
    for name in ("marina", "max"):  # entered by the organiser: each says yes
        tournaments.entry_accept(tournament=cup, by=User.objects.get(username=name))
    tournaments.round_pair(tournament=cup, by=olga)
    (table, seats), *_ = tables_of(Tournament.objects.get(pk=cup.pk), 1)

    # Marina, still signed in, reports her table from the tournament page.
    page.goto(f"/tournaments/{cup.pk}/")
    fits_a_phone(page)
    form = page.locator(f"#report-{table}")
    for seat, name in enumerate(seats):
        won = name == "marina"
        form.locator(f"[name='t{table}-report-rank_{seat}']").fill("1" if won else "2")
        form.locator(f"[name='t{table}-report-score_{seat}']").fill("21" if won else "14")
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("reported, awaiting confirmation")
    confirm(page, cup, table, "max")
    expect(page.locator("#standings tbody tr").first).to_contain_text("marina")


def test_an_outsider_finds_none_of_it(page, club):  # noqa: F811

    league, olga, link = club
    mia = User.objects.get(username="mia")
    clubs.link_join(code=link.code, by=mia)
    leagues.match_record(
        game="deep-sea-adventure",
        played_at="2026-11-20",
        league=league.slug,
        results=[
            {"player": "mia", "rank": 1, "score": 20},
            {"player": "olga", "rank": 2, "score": 8},
        ],
        recorded_by=olga,
    )
    game = league.games.get()
    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, "out")
    for path in ("/leagues/", "/players/mia/", "/lobby/", "/", "/tournaments/"):
        page.goto(path)
        assert CLUB not in page.content(), path
        assert f"/games/{game.pk}/" not in page.content(), path
    for path in (f"/leagues/{league.slug}/", f"/games/{game.pk}/"):
        response = page.goto(path)
        assert response.status == 404, path
        assert CLUB not in page.content(), path
