"""The "Game over" panel of a finished game in a real headless Chromium: its whole table, the
total score above all, is in view on a desktop without scrolling, and it still fits a phone.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the panel at each width to
/tmp/hadal-game-over-<width>.png.
"""

from __future__ import annotations

import os
import random

import pytest

from games.play import seating, services
from tests.games.test_browser import browser_page
from tests.games.test_game_over import play_out
from tests.league.test_browser_tournament import sign_in

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

pytestmark = pytest.mark.browser


@pytest.fixture
def deep_vents_over(alice, bob, transactional_db):
    """A Deep Vents game played to its end: its table has the most columns of any game's."""
    game = services.game_create(
        slug="deep-vents", seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    seating.game_accept(game=game, seat=1, user=bob)
    return play_out(game, [alice, bob], random.Random(3))


def box(locator) -> dict:
    return locator.evaluate(
        "(el) => { const r = el.getBoundingClientRect();"
        " return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; }"
    )


def whole_table_in_view(page) -> None:
    """The Score cell of every row lies inside the viewport and inside the panel's box."""
    from playwright.sync_api import expect

    over = page.locator("#game-over")
    expect(over).to_be_visible()
    over.scroll_into_view_if_needed()
    width = page.viewport_size["width"]
    panel = box(over)
    scores = over.locator("table.final-scores tr > :last-child")
    assert scores.count() == 3  # the heading and both players
    for i in range(scores.count()):
        cell = box(scores.nth(i))
        assert 0 <= cell["left"] and cell["right"] <= width, (i, cell, width)
        assert panel["left"] <= cell["left"] and cell["right"] <= panel["right"], (i, cell, panel)
    # Nothing inside the panel is scrolled sideways to show it.
    scrolled = over.evaluate(
        "(el) => [...el.querySelectorAll('*')].some((e) => e.scrollWidth > e.clientWidth + 1"
        " && getComputedStyle(e).overflowX !== 'visible')"
    )
    assert not scrolled
    screenshot(page)


def screenshot(page) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        width = page.viewport_size["width"]
        page.locator("#game-over").screenshot(path=f"/tmp/hadal-game-over-{width}.png")


def test_the_final_score_is_in_view_on_a_desktop(live_server, deep_vents_over):
    for page in browser_page(live_server, viewport={"width": 1366, "height": 900}):
        sign_in(page, "alice")
        page.goto(f"/games/{deep_vents_over.pk}/")
        whole_table_in_view(page)
        assert page.locator("#game-over th").last.inner_text().strip().lower() == "score"


def test_the_game_over_panel_fits_a_phone(live_server, deep_vents_over):
    for page in browser_page(live_server, viewport={"width": 390, "height": 844}):
        sign_in(page, "alice")
        page.goto(f"/games/{deep_vents_over.pk}/")
        from playwright.sync_api import expect

        expect(page.locator("#game-over")).to_be_visible()
        overflow = page.evaluate(
            "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, f"the page scrolls sideways by {overflow} px"
        # The total stays in view, pinned at the table's right edge while the parts scroll.
        total = box(page.locator("#game-over table.final-scores tbody tr > :last-child").first)
        assert 0 <= total["left"] and total["right"] <= 390, total
        screenshot(page)


def resign_dialog(live_server, game) -> str:
    """What the Resign button asks, dismissed: the game goes on."""
    messages: list[str] = []
    for page in browser_page(live_server, viewport={"width": 1366, "height": 900}):
        sign_in(page, "alice")
        page.goto(f"/games/{game.pk}/")
        page.once("dialog", lambda dialog: (messages.append(dialog.message), dialog.dismiss()))
        page.click("#resign")
        page.wait_for_timeout(200)
    game.refresh_from_db()
    assert game.status == "active", "a dismissed dialog resigns nothing"
    return messages[0]


def test_resigning_a_two_player_game_says_it_ends_at_once(live_server, alice, transactional_db):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"bot": "random"}],
        options={},
        created_by=alice,
    )
    said = resign_dialog(live_server, game)
    assert said == "Resign? The game ends now and Random bot wins by forfeit.", said


def test_resigning_at_a_table_of_three_says_the_others_play_on(
    live_server, alice, transactional_db
):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"bot": "random"}, {"bot": "greedy"}],
        options={},
        created_by=alice,
    )
    said = resign_dialog(live_server, game)
    assert "The others play on to the end" in said and "placed last" in said, said
    assert "ends now" not in said
