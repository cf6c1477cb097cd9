"""Recording an Oceans game with its score sheet on a phone (390 px wide), in headless
Chromium: the sheet appears for Oceans only, fits the screen (a wide sheet table on the
record's page scrolls within itself), and the record shows it.

Uses the Playwright harness of tests/games/test_browser.py (skips without Chromium). Set
HADAL_SCREENSHOT to save the filled-in form to /tmp/hadal-oceans.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.models import Game
from games.records import reads as record_reads
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
SCREENSHOT = Path("/tmp/hadal-oceans.png")


def overflow(page) -> list[str]:  # noqa: F811
    """The visible elements of the page's content that stick out past the screen's right
    edge (the site's navigation bar is left out: it is not this page's). What lies in a box
    that scrolls sideways of its own (a wide table) does not widen the page."""
    return page.evaluate(
        """(() => {
          const scrolls = (e) => {
            for (let a = e.parentElement; a && a.tagName !== "MAIN"; a = a.parentElement) {
              if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true;
            }
            return false;
          };
          return Array.from(document.querySelectorAll("main *"))
            .filter(e => e.offsetParent !== null && !scrolls(e))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + "." + e.className);
        })()"""
    )


def test_recording_an_oceans_sheet_on_a_phone(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    make_user("alice")
    make_user("bob")
    page.set_viewport_size(PHONE)
    sign_in(page, "alice")
    page.goto("/matches/new/")
    sheet = page.locator("#oceans-sheet")
    page.select_option("#id_game", "abyss")
    expect(sheet).to_be_hidden()
    page.select_option("#id_game", "oceans")
    expect(sheet).to_be_visible()
    page.fill("#id_player_0", "alice")
    page.fill("#id_rank_0", "1")
    page.fill("#id_player_1", "bob")
    page.fill("#id_rank_1", "2")
    blocks = sheet.locator(".sheet-player:visible")
    expect(blocks).to_have_count(2)
    expect(blocks.nth(0).locator(".sheet-name")).to_have_text("alice")
    page.fill("#id_pile_0", "38")
    page.fill("#id_bonus_0", "2")
    page.fill("#id_pile_1", "30")
    page.fill("#id_other_1", "1")
    blocks.nth(0).locator("summary").click()
    blocks.nth(0).get_by_label("Go Fish").check()
    page.check("#id_reef")
    page.fill("#id_scenarios", "Cruel Sea")
    assert overflow(page) == []
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)
    page.click("#record-game button[type=submit]")
    expect(page.locator(".sheet-view")).to_contain_text("Go Fish")
    assert overflow(page) == []
    state = record_reads.result_state(Game.objects.get())  # waiting for bob to confirm
    assert [r["score"] for r in state["reported"]] == [40, 31]
    assert state["sheet"]["reef"] is True and state["sheet"]["players"][0]["deep_cards"] == [
        "Go Fish"
    ]
