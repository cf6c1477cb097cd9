"""An elimination event run from the pages in a real headless Chromium, on a phone (390 px)
and a desktop: the organiser creates it through the form (ties played off), pairs round 1
(three byes to the top seeds), a tied report is refused with the reason, the bracket follows
every result, and the champion and the final placings are shown. Nothing is wider than the
phone's screen.

Set HADAL_SCREENSHOT to save the pages to /tmp/hadal-bracket-<width>-*.png.
"""

from __future__ import annotations

import os
import re

import pytest

from league.models import Tournament
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import confirm, report, sign_in, tables_of

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan", "eve")


def fits(page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"the page is {scroll} px wide on a {width} px screen"


def shot(page, width: int, name: str) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-bracket-{width}-{name}.png", full_page=True)


def play_round(page, tournament: Tournament, number: int) -> None:
    """Every table of the round: the better seed wins, reported and confirmed on the page."""
    for table, seats in tables_of(tournament, number):
        first, second = sorted(seats, key=PLAYERS.index)
        ranks = [1, 2] if seats[0] == first else [2, 1]
        scores = [12, 5] if seats[0] == first else [5, 12]
        report(page, tournament, table, seats[0], ranks, scores)
        confirm(page, tournament, table, seats[1])


@pytest.mark.parametrize("width", [390, 1280])
def test_an_elimination_event_from_the_pages(page, make_user, width):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    make_user("org")
    for name in PLAYERS:
        make_user(name)

    sign_in(page, "org")
    page.goto("/tournaments/new/")
    page.fill("#id_name", "Harbour knockout")
    page.select_option("#id_game", "deep-sea-adventure")
    page.select_option("#id_format", "elimination")
    page.select_option("#id_mode", "table")
    expect(page.locator("#id_elimination_ties")).to_be_visible()
    page.select_option("#id_elimination_ties", "playoff")
    page.fill("#id_table_size", "2")
    page.fill("#id_rounds", "1")
    page.fill("#id_players", "\n".join(PLAYERS))
    page.click("text=Create the tournament")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament = Tournament.objects.get()
    expect(page.locator("dl.facts")).to_contain_text("Ties at the line")
    expect(page.locator("#bracket")).to_contain_text("As it would be drawn now")

    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired.")
    bracket = page.locator("#bracket")
    expect(bracket).to_contain_text("Byes in round 1 only, to the top seeds: ann, ben, cat")
    expect(bracket.locator(".bracket-round")).to_have_count(3)
    expect(bracket.locator(".bracket-round").nth(2)).to_contain_text("to be decided")
    fits(page, width)
    shot(page, width, "round-1")

    # A tie for the place that goes through is refused, with the reason.
    [(table, seats)] = tables_of(tournament, 1)
    sign_in(page, seats[0])
    page.goto(f"/tournaments/{tournament.pk}/")
    form = page.locator(f"#report-{table}")
    for seat in range(2):
        form.locator(f"[name='t{table}-report-rank_{seat}']").fill("1")
        form.locator(f"[name='t{table}-report-score_{seat}']").fill("7")
    form.locator("button[type=submit]").click()
    expect(page.locator("main")).to_contain_text(
        "a tie for the place that goes through must be played off: report the order"
    )
    fits(page, width)

    play_round(page, tournament, 1)  # dan beats eve
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 2 is paired.")
    semis = page.locator("#bracket .bracket-round").nth(1)
    expect(semis).to_contain_text("bye in round 1")
    expect(semis).to_contain_text("dan")
    play_round(page, tournament, 2)
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#pair-publish")
    play_round(page, tournament, 3)

    page.goto(f"/tournaments/{tournament.pk}/")
    expect(page.locator("#champion")).to_contain_text("Champion: ann")
    placings = page.locator("#placings")
    expect(placings).to_contain_text("1st ann")
    expect(placings).to_contain_text("2nd ben")
    expect(placings).to_contain_text("3rd–4th cat")
    expect(placings).to_contain_text("5th eve")
    expect(page.locator("#bracket .bracket-round").nth(2)).to_contain_text("won by ann")
    fits(page, width)
    shot(page, width, "end")

    page.goto(f"/tournaments/{tournament.pk}/rounds/3/print/")
    expect(page.locator("#bracket")).to_contain_text("won by ann")
