"""Event day in a real headless Chromium, on a phone (390 px) and a desktop: the organiser
forfeits a no-show at each online table of round 1 so the round completes and round 2 pairs;
and, at a table-mode event, runs the round clock: start, pause, resume, extend, and extra time
for one table, shown at that table. Controls are 44 px tall on the phone; nothing is wider
than the screen."""

from __future__ import annotations

import re

import pytest

from league.models import Tournament, TournamentEvent
from league.services import tournaments
from league.tournament_spec import TournamentSpec
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in
from tests.league.test_browser_tournament_run import fits

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan")
SCREENS = {"phone": (390, 844), "desktop": (1280, 900)}


def on(page, screen: str) -> None:
    width, height = SCREENS[screen]
    page.set_viewport_size({"width": width, "height": height})


def tall_enough(locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["height"] >= 44, box


def event(make_user, mode: str) -> Tournament:
    org = make_user("org")
    for name in PLAYERS:
        make_user(name)
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Quay night",
            game="deep-sea-adventure",
            format="swiss",
            table_size=2,
            rounds=2,
            mode=mode,
            players=list(PLAYERS),
            round_minutes=40 if mode == "table" else None,
        ),
        created_by=org,
    )
    tournaments.round_pair(tournament=tournament, by=org)
    return tournament


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_forfeiting_no_shows_completes_the_round(page, make_user, screen):  # noqa: F811
    from playwright.sync_api import expect

    tournament = event(make_user, "online")
    on(page, screen)
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    cards = page.locator("#round-1 .table-card")
    expect(cards).to_have_count(2)
    for i in range(2):
        card = page.locator("#round-1 .table-card").nth(i)
        card.locator("summary", has_text="No-show / forfeit").click()
        form = card.locator(".forfeit-form")
        absent = form.locator("select[name=player] option").nth(1).get_attribute("value")
        form.locator("select[name=player]").select_option(absent)
        form.locator("input[name=reason]").fill("did not turn up")
        if screen == "phone":
            fits(page)
            tall_enough(form.locator("button"))
            tall_enough(form.locator("input[name=reason]"))
            tall_enough(card.locator("summary", has_text="No-show / forfeit"))
        form.locator("button").click()
        expect(page.locator(".messages")).to_contain_text(f"{absent} forfeits (did not turn up)")
    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 2 is paired.")
    expect(page.locator("#round-2 .table-card")).to_have_count(2)
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True)
    )
    assert kinds.count("TableForfeited") == 2 and kinds[-1] == "RoundPaired"


@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_the_round_clock_pauses_extends_and_gives_a_table_extra_time(
    page,
    make_user,
    screen,  # noqa: F811
):
    from playwright.sync_api import expect

    tournament = event(make_user, "table")
    on(page, screen)
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#round-1 >> text=Start the clock")
    clock = page.locator("#round-1 .round-clock")
    expect(clock).to_contain_text("40 minutes")
    page.click("#round-1 >> text=Pause the clock")
    expect(page.locator(".messages")).to_contain_text("Round 1's clock is paused.")
    expect(clock).to_contain_text("Paused")
    if screen == "phone":
        fits(page)
        tall_enough(page.locator("#round-1 >> text=Resume the clock"))
    page.click("#round-1 >> text=Resume the clock")
    expect(clock).to_contain_text("Running: 40 minutes")
    page.fill("#extend-1", "10")
    page.click("#round-1 >> text=Extend the round")
    expect(clock).to_contain_text("Running: 50 minutes")
    card = page.locator("#round-1 .table-card").nth(1)
    card.locator("input[name=minutes]").fill("7")
    if screen == "phone":
        tall_enough(card.locator("input[name=minutes]"))
        tall_enough(card.locator("text=Give this table extra time"))
    card.locator("text=Give this table extra time").click()
    expect(page.locator("#round-1 .table-card").nth(1)).to_contain_text("+7 minutes")
    expect(page.locator("#round-1 .table-card").nth(0)).not_to_contain_text("+7 minutes")
    if screen == "phone":
        fits(page)
    page.goto(f"/tournaments/{tournament.pk}/projector/")
    expect(page.locator(".projector-tables")).to_contain_text("+7 min")
    expect(page.locator("#timer")).to_have_text(re.compile(r"^(50:00|49:\d\d)$"))
    kinds = list(
        TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True)
    )
    assert kinds[-5:] == [
        "RoundStarted",
        "RoundPaused",
        "RoundResumed",
        "RoundExtended",
        "TableExtraTime",
    ]
