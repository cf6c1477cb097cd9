"""The replay in headless Chromium: step buttons, arrow keys, a click on a log line, the
position kept in the address across a reload, and the analysis beside it; also on a phone
(390 px wide) with nothing sticking out sideways.

Uses the Playwright harness of tests/games/test_browser.py (skips without Chromium).
"""

from __future__ import annotations

import os
import re

import pytest

from tests.games.test_analysis_api import finished_game
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_oceans import PHONE, overflow
from tests.league.test_browser_tournament import sign_in

pytestmark = pytest.mark.browser
DEVELOPER_WORDS = re.compile(r"\bversion\b|\bseat \d")


def shown(page) -> int:  # noqa: F811
    """The version the board shows, once the replay has drawn it."""
    return int(page.locator("#board").get_attribute("data-version"))


def at_in_address(page) -> str | None:  # noqa: F811
    match = re.search(r"[?&]at=(\d+)", page.url)
    return match and match.group(1)


@pytest.fixture
def game(make_user, settings):
    settings.HADAL_ANALYSIS = {"iterations": 4, "luck_samples": 1}
    return finished_game(make_user("alice"))


def test_stepping_through_a_finished_game_with_keys_buttons_and_the_log(page, game):  # noqa: F811
    from playwright.sync_api import expect

    last = game.version
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#board")).to_have_attribute("data-version", str(last))
    page.locator("body").click(position={"x": 5, "y": 5})

    page.keyboard.press("ArrowLeft")
    expect(page.locator("#board")).to_have_attribute("data-version", str(last - 1))
    page.keyboard.press("ArrowLeft")
    expect(page.locator("#board")).to_have_attribute("data-version", str(last - 2))
    assert at_in_address(page) == str(last - 2)
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board")).to_have_attribute("data-version", str(last - 1))
    page.keyboard.press("Home")
    expect(page.locator("#board")).to_have_attribute("data-version", "1")
    expect(page.get_by_role("button", name="Previous move")).to_be_disabled()
    page.get_by_role("button", name="Next move").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "2")

    page.locator('#log li[data-seq="7"]').click()
    expect(page.locator("#board")).to_have_attribute("data-version", "7")
    assert at_in_address(page) == "7"
    expect(page.locator("#replay-label")).to_have_text(f"step 7 of {last}")

    page.reload()
    expect(page.locator("#board")).to_have_attribute("data-version", "7")
    expect(page.locator('#log li[data-seq="8"]')).to_have_class(re.compile("later"))

    page.get_by_role("button", name="Last move").click()
    expect(page.locator("#board")).to_have_attribute("data-version", str(last))
    assert at_in_address(page) is None

    # The analysis sits with the replay: a graph, each player's accuracy, in words.
    analysis = page.locator("#analysis")
    expect(analysis.locator("svg.analysis-graph")).to_be_visible()
    expect(analysis.locator(".analysis-table tbody tr")).to_have_count(2)
    expect(analysis).to_contain_text("Accuracy is 100 minus")
    words = page.locator("#replay-bar").inner_text() + analysis.inner_text()
    assert not DEVELOPER_WORDS.search(words), words


def test_the_replay_on_a_phone(page, game):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    sign_in(page, "alice")
    page.goto(f"/games/{game.pk}/?at=5")
    expect(page.locator("#board")).to_have_attribute("data-version", "5")
    expect(page.locator("#analysis svg.analysis-graph")).to_be_visible()
    page.get_by_role("button", name="Next move").click()
    expect(page.locator("#board")).to_have_attribute("data-version", "6")
    assert at_in_address(page) == "6"
    assert overflow(page) == []
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path="/tmp/hadal-replay.png", full_page=True)


def test_a_visitor_is_asked_to_sign_in_for_the_analysis(page, game):  # noqa: F811
    from playwright.sync_api import expect

    from games.models import Analysis

    page.goto(f"/games/{game.pk}/")
    note = page.locator("#analysis .analysis-note")
    expect(note).to_have_text("Sign in to see how each player did, move by move.")
    expect(note.get_by_role("link", name="Sign in")).to_have_attribute(
        "href", f"/accounts/login/?next=%2Fgames%2F{game.pk}%2F"
    )
    assert not Analysis.objects.exists()
