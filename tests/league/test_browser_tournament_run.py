"""Sign-up to the champion in a real headless Chromium, on a phone-sized screen (390 px): the
organiser sets up an open Swiss with a cap, check-in and a top cut through the form; players
enter themselves (the last onto the waitlist), one withdraws through the confirmation page and
the waiting player moves up; the organiser pairs round 1, which drops whoever has not checked
in; the projector page counts down the round's clock. Nothing on these pages is wider than the
screen.

Set HADAL_SCREENSHOT to save the pages to /tmp/hadal-tournament-390-*.png.
"""

from __future__ import annotations

import os
import re

import pytest

from league.models import Tournament, TournamentEvent
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan", "eve")


def shot(page, name: str) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-tournament-390-{name}.png", full_page=True)


def fits(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    wide = page.evaluate(
        """[...document.querySelectorAll('body *')]
        .filter(el => el.getBoundingClientRect().right > 391)
        .slice(0, 5).map(el => el.tagName + '.' + el.className + '#' + el.id)"""
    )
    assert width <= 390, f"the page is {width} px wide on a 390 px screen: {wide}"


def test_open_entry_check_in_and_a_withdrawal_at_390_px(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 390, "height": 844})
    make_user("org")
    for name in PLAYERS:
        make_user(name)

    sign_in(page, "org")
    page.goto("/tournaments/new/")
    page.fill("#id_name", "Quay open")
    page.select_option("#id_game", "deep-sea-adventure")
    page.select_option("#id_format", "swiss")
    page.select_option("#id_mode", "table")
    expect(page.locator("#id_top_cut")).to_be_visible()
    page.fill("#id_table_size", "2")
    page.fill("#id_rounds", "2")
    page.fill("#id_top_cut", "2")
    page.fill("#id_round_minutes", "40")
    page.select_option("#id_entry_mode", "open")
    page.fill("#id_cap", "4")
    page.check("#id_check_in")
    fits(page)
    page.click("text=Create the tournament")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament = Tournament.objects.get()
    assert (tournament.entry_mode, tournament.cap, tournament.check_in) == ("open", 4, True)
    assert tournament.top_cut == 2 and tournament.round_minutes == 40

    for name in PLAYERS:
        sign_in(page, name)
        page.goto(f"/tournaments/{tournament.pk}/")
        page.click("#register")
        expect(page.locator(".messages")).to_contain_text(
            "waitlist" if name == "eve" else "You have entered"
        )
    expect(page.locator("#my-entry")).to_contain_text("You are on the waitlist")

    # ann checks in; ben withdraws, asked first, and eve takes the place
    sign_in(page, "ann")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#check-in")
    expect(page.locator(".messages")).to_contain_text("You are checked in")
    sign_in(page, "ben")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#my-entry >> text=Drop out")
    expect(page.locator("h1")).to_have_text("Drop out of Quay open?")
    fits(page)
    shot(page, "drop")
    page.click("#confirm-drop")
    expect(page.locator(".messages")).to_contain_text("You have dropped out")
    for name in ("cat", "eve"):
        sign_in(page, name)
        page.goto(f"/tournaments/{tournament.pk}/")
        page.click("#check-in")
        expect(page.locator(".messages")).to_contain_text("You are checked in")

    # dan never checks in: pairing round 1 drops him
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    expect(page.locator("#registration")).to_contain_text("Not checked in yet: dan")
    page.click("#pair-next")  # a draft first, then published as it stands
    expect(page.locator(".messages")).to_contain_text("Round 1 is drafted")
    page.click("#publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is published")
    expect(page.locator("#round-1 .table-card")).to_have_count(1)
    expect(page.locator("#round-1 .byes")).to_be_visible()
    page.click("#round-1 >> text=Start the clock")
    expect(page.locator("#round-1 .round-clock")).to_contain_text("40 minutes")
    fits(page)
    shot(page, "detail")
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True)
    )
    assert kinds.count("EntryDropped") == 2 and "EntryPromoted" in kinds
    assert kinds[-2:] == ["RoundPaired", "RoundStarted"]

    page.goto(f"/tournaments/{tournament.pk}/projector/")
    expect(page.locator(".big-number")).to_have_count(1)
    expect(page.locator("#timer")).to_have_text(re.compile(r"^(40:00|39:\d\d)$"))
    expect(page.locator(".projector-qr svg")).to_be_visible()
    fits(page)
    shot(page, "projector")
    page.goto(f"/tournaments/{tournament.pk}/rounds/1/print/")
    expect(page.locator(".slip")).to_have_count(1)
    fits(page)
