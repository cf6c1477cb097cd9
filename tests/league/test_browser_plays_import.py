"""The import of plays from the league page in a real headless Chromium on a phone (390 px
wide): a dry run's report opens the page, a play already in the league named in it.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright). Set HADAL_SCREENSHOT to save the page to /tmp/hadal-import.png."""

from __future__ import annotations

import os

import pytest

from league.services import leagues
from league.services.plays import plays_import
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.members import join
from tests.league.test_browser_tournament import sign_in

pytestmark = pytest.mark.browser

CSV = (
    "play,date,game,player,guest,score,rank\n"
    "p1,2024-03-01,Deep Sea Adventure,alice,no,12,1\n"
    "p1,2024-03-01,Deep Sea Adventure,bob,no,8,2\n"
)
MORE = "p2,2024-03-08,Abyss,bob,no,70,1\np2,2024-03-08,Abyss,alice,no,60,2\n"


@pytest.fixture
def club(alice, bob):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    join(league, "bob", by=alice)
    plays_import(league=league, content=CSV, format="csv", by=alice)
    return league


def test_a_dry_run_report_opens_the_page_with_the_duplicate_named(page, club):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 390, "height": 844})
    sign_in(page, "alice")
    page.goto(f"/leagues/{club.slug}/")
    form = page.locator("#import-plays")
    expect(form.locator("input[name=dry_run]")).to_be_checked()
    form.locator("input[type=file]").set_input_files(
        files=[{"name": "plays.csv", "mimeType": "text/csv", "buffer": (CSV + MORE).encode()}]
    )
    form.locator("button[type=submit]").click()
    report = page.locator("#import-report")
    expect(report).to_contain_text("would create 1 play: 1 Abyss")
    expect(report).to_contain_text(
        "would skip 1 play already in the league (the same date, game and players):"
    )
    expect(report).to_contain_text(
        "play p1 (rows 2-3): Deep Sea Adventure on 1 Mar 2024 with alice, bob"
    )
    # At the top of the main column, on the first screen, above the standings; no sideways
    # scroll on a phone.
    box = report.bounding_box()
    assert box is not None and box["y"] < 400, box
    assert box["y"] < page.locator("#standings").bounding_box()["y"]
    assert box["width"] <= 390
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path="/tmp/hadal-import.png")
    assert not page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )
