"""The home page in a real headless Chromium, on a phone (390 x 844) and a laptop (1366 x 900):
no sideways scroll, the five games each with its picture and its way to play, and "Play a bot
now" starting a game in one click; signed in on the laptop, the nav on one row.

Uses the Playwright harness of tests/games/test_browser.py. Set HADAL_SCREENSHOT to save the
home pages to /tmp/hadal-home-<width>.png.
"""

from __future__ import annotations

import os

import pytest

from games.catalog import game_types
from tests.games.test_browser import browser_page

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
PASSWORD = "pw-for-tests-only"  # what the make_user fixture gives


def sign_in(page, username: str) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator(".nav-user")).to_have_text(username)


def check_home(page, width: int, name: str) -> None:
    page.goto("/")
    page.wait_for_load_state("load")
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"{name}: the home page scrolls sideways ({scroll} px at {width})"
    cards = page.locator(".game-card")
    assert cards.count() == len(game_types()) == 5
    for i in range(cards.count()):
        card = cards.nth(i)
        picture = card.locator("img")
        assert picture.evaluate("img => img.complete && img.naturalWidth > 0"), "no picture"
        assert picture.bounding_box()["width"] > 100
        button = card.locator(".game-card-actions .button")
        assert button.bounding_box()["height"] >= 44
    plays = page.get_by_text("Play a bot now", exact=True)
    assert plays.count() == sum(kind.playable for kind in game_types().values())
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-home-{width}-{name}.png", full_page=True)


@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_home_page_for_a_visitor_and_a_member(live_server, transactional_db, viewport):
    from django.contrib.auth import get_user_model
    from playwright.sync_api import expect

    get_user_model().objects.create_user("marina", password=PASSWORD)
    for page in browser_page(live_server, viewport=viewport):
        check_home(page, viewport["width"], "visitor")
        expect(page.locator(".front-hero h1")).to_be_visible()
        sign_in(page, "marina")
        check_home(page, viewport["width"], "member")
        page.locator("#play-deep-sea-adventure").get_by_text("Play a bot now").click()
        page.wait_for_url("**/games/*/")
        expect(page.locator("#game")).to_be_visible()


def test_the_signed_in_nav_fits_one_row_at_1366(live_server, transactional_db):
    """With everything it can hold: a game waiting for the member, the push button."""
    from django.contrib.auth import get_user_model

    from games.play import services

    marina = get_user_model().objects.create_user("marina", password=PASSWORD)
    services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "marina"}, {"bot": "random"}],
        options={},
        created_by=marina,
    )
    for page in browser_page(live_server, viewport=LAPTOP):
        sign_in(page, "marina")
        page.goto("/")
        # Each link's middle, and the lines its words take (a link folded onto two lines is
        # a row that does not fit either).
        links = page.evaluate(
            """() => [...document.querySelectorAll('.nav a, .nav button')]
                .filter(el => el.offsetParent !== null)
                .map(el => {
                    const box = el.getBoundingClientRect();
                    const words = document.createRange();
                    words.selectNodeContents(el);
                    const tops = [...words.getClientRects()].filter(r => r.width > 0)
                        .map(r => r.top);
                    const lines = tops.length ? Math.max(...tops) - Math.min(...tops) : 0;
                    return [el.textContent.trim(), Math.round(box.top + box.height / 2),
                        lines < 12 ? 1 : 2];
                })"""
        )
        assert len(links) >= 12, links
        assert "Your turn: 1 game" in [text for text, _, _ in links]
        widths = page.evaluate(
            "(nav => [nav.scrollWidth, nav.clientWidth])(document.querySelector('.nav'))"
        )
        assert widths[0] <= widths[1], f"the nav is wider than its row: {widths}"
        middles = {middle for _, middle, _ in links}
        assert max(middles) - min(middles) <= 4, f"the nav wraps at 1366: {links}"
        assert all(lines <= 1 for _, _, lines in links), f"a link folds at 1366: {links}"
        if os.environ.get("HADAL_SCREENSHOT"):
            page.screenshot(
                path="/tmp/hadal-nav-1366.png", clip={"x": 0, "y": 0, "width": 1366, "height": 70}
            )
