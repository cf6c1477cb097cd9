"""The field and the settings on the day, in a real headless Chromium, on a phone (390 px) and
a desktop: a waiting player checks in and takes the place of a no-show when the organiser
closes check-in, then round 1 is paired; an organiser gives a waiting player a place beyond
the cap; an organiser edits the rounds and the tie-breaks and reads the log. Nothing on these
pages is wider than the screen, and their buttons are at least 44 px tall on the phone.

Set HADAL_SCREENSHOT to save the pages to /tmp/hadal-entries-*.png.
"""

from __future__ import annotations

import os

import pytest

from league.models import Tournament, TournamentEvent
from league.services import tournaments
from league.tournament_spec import TournamentSpec
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in
from tests.league.test_browser_tournament_run import fits

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}


def shot(page, name: str) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-entries-{name}.png", full_page=True)


def tall_enough(page, selector: str) -> None:
    height = page.locator(selector).bounding_box()["height"]
    assert height >= 44, f"{selector} is {height} px tall on a phone"


def full_event(make_user) -> Tournament:
    """An open Swiss with check-in and room for four: ann, ben, cat and dan in, eve and fay
    waiting, eve first."""
    org = make_user("org")
    users = {name: make_user(name) for name in ("ann", "ben", "cat", "dan", "eve", "fay")}
    spec = TournamentSpec(
        name="Harbour open",
        game="deep-sea-adventure",
        format="swiss",
        table_size=2,
        rounds=2,
        mode="table",
        players=[],
        entry_mode="open",
        cap=4,
        check_in=True,
    )
    tournament = tournaments.tournament_create(spec=spec, created_by=org)
    for user in users.values():
        tournaments.entry_register(tournament=tournament, by=user)
    return tournament


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_waiting_player_takes_a_no_shows_place_then_round_1(page, make_user, screen):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(screen)
    tournament = full_event(make_user)
    url = f"/tournaments/{tournament.pk}/"
    for name in ("ann", "ben", "cat", "fay"):  # dan does not come; eve is late
        sign_in(page, name)
        page.goto(url)
        if name == "fay":
            expect(page.locator("#my-entry")).to_contain_text("Check in when you are at the venue")
        if screen is PHONE:
            tall_enough(page, "#check-in")
        page.click("#check-in")
        expect(page.locator(".messages")).to_contain_text("You are checked in")

    sign_in(page, "org")
    page.goto(url)
    expect(page.locator("#registration")).to_contain_text("Checked in and waiting: fay")
    expect(page.locator("#registration")).to_contain_text("Not checked in yet: dan")
    if screen is PHONE:
        tall_enough(page, "#close-check-in")
    fits_screen(page, screen)
    shot(page, f"check-in-{screen['width']}")
    page.click("#close-check-in")
    expect(page.locator(".messages")).to_contain_text("In from the waitlist: fay")
    expect(page.locator("#check-in-closed")).to_be_visible()
    expect(page.locator("#log")).to_contain_text(
        "fay moved up from the waitlist to a place freed at check-in"
    )
    expect(page.locator("#log")).to_contain_text("dan dropped (did not check in)")

    # eve arrives late: the organiser gives her a place beyond the cap
    page.select_option("#seat-select", "eve")
    page.click("#seat-player button")
    expect(page.locator(".messages")).to_contain_text("eve has a place")
    expect(page.locator("#log li").first).to_contain_text("org gave eve a place beyond the cap")

    page.click("#pair-publish")  # paired and published at once
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired.")
    seated = page.locator("#round-1").inner_text()
    for name in ("ann", "ben", "cat", "fay", "eve"):
        assert name in seated
    assert "dan" not in seated
    fits_screen(page, screen)
    shot(page, f"round-1-{screen['width']}")
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True)
    )
    assert kinds[-4:] == ["EntryPromoted", "CheckInClosed", "EntrySeated", "RoundPaired"]


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_an_organiser_edits_rounds_and_tie_breaks_and_reads_the_log(page, make_user, screen):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(screen)
    tournament = full_event(make_user)
    url = f"/tournaments/{tournament.pk}/"
    sign_in(page, "org")
    page.goto(url)
    if screen is PHONE:
        tall_enough(page, "#edit summary")
    page.click("#edit summary")
    page.fill("#id_edit-rounds", "4")
    page.uncheck("#edit-form input[value=buchholz]")
    page.check("#edit-form input[value=wins]")
    fits_screen(page, screen)
    page.click("#save-settings")
    expect(page.locator(".messages")).to_contain_text("The tournament's settings are saved.")
    tournament.refresh_from_db()
    assert tournament.rounds == 4 and "wins" in tournament.tiebreaks
    assert "buchholz" not in tournament.tiebreaks
    newest = page.locator("#log li").first
    expect(newest).to_contain_text("org changed rounds from 2 to 4; tie-breaks from")
    expect(newest).to_contain_text("Wins")
    expect(page.locator("#log")).not_to_contain_text("TournamentEdited")
    # a refusal on the form names the setting and changes nothing
    page.click("#edit summary")
    page.fill("#id_edit-cap", "3")
    page.click("#save-settings")
    expect(page.locator("#edit-form")).to_contain_text("the cap of 3 is below the 4 players")
    fits_screen(page, screen)
    shot(page, f"edit-{screen['width']}")
    tournament.refresh_from_db()
    assert tournament.cap == 4

    # players see neither the form nor the log
    sign_in(page, "ann")
    page.goto(url)
    expect(page.locator("#log")).to_have_count(0)
    expect(page.locator("#edit")).to_have_count(0)


def fits_screen(page, screen: dict) -> None:
    if screen is PHONE:
        fits(page)
