"""The pages in a real headless Chromium: sign up, start a game against the random bot, play,
replay an earlier version and resign.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the game page to
/tmp/hadal-game.png.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from games.models import Game, GameStatus

# Playwright's sync API runs an event loop in this thread; the ORM calls made here (and the
# live server's thread) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("HADAL_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOT = Path("/tmp/hadal-game.png")
STATIC = Path(__file__).resolve().parents[2] / "static"
TIMEOUT_MS = 15_000

pytestmark = pytest.mark.browser


def browser_page(live_server, **context_options):
    """A page in headless Chromium on the live server, for a ``with`` or a fixture to yield
    (``context_options``: Playwright's, the viewport say); fails the test on a script error,
    skips without Chromium or playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium or set HADAL_CHROMIUM")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        context = browser.new_context(base_url=live_server.url, **context_options)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
        browser.close()
    assert not errors, f"the page raised script errors: {errors}"


@pytest.fixture
def page(live_server, transactional_db):
    yield from browser_page(live_server, viewport={"width": 1400, "height": 1000})


def sign_up(page, username: str = "marina") -> None:
    """Sign up through the page: it signs in and lands on the games list."""
    from playwright.sync_api import expect

    page.goto("/accounts/signup/")
    page.fill("#id_username", username)
    page.fill("#id_password1", "a-long-Passphrase-42")
    page.fill("#id_password2", "a-long-Passphrase-42")
    page.click("button[type=submit]")
    expect(page.locator(".nav-user")).to_have_text(username)


def renderer_file(page_html: str) -> Path:
    """The file game.js imports to draw a game page: data-renderers/<data-slug>.js."""
    from django.conf import settings

    slug = re.search(r'id="game" data-slug="([a-z0-9-]+)"', page_html).group(1)
    folder = re.search(r'data-renderers="([^"]+)"', page_html).group(1)
    assert folder.startswith(settings.STATIC_URL), folder
    return STATIC / folder.removeprefix(settings.STATIC_URL) / f"{slug}.js"


def version_of(page) -> int:
    return int(page.locator("#game-version").inner_text())


def screenshot(page) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)


def test_sign_up_play_replay_and_resign(page):
    from playwright.sync_api import expect

    sign_up(page)

    # A new Deep Sea Adventure game against the random bot, the form's default.
    page.click("nav >> text=New game")
    page.select_option("#id_game", "deep-sea-adventure")
    expect(page.locator("#id_seat_0_user")).to_have_value("marina")
    expect(page.locator("#id_seat_1_who")).to_have_value("random")
    expect(page.locator(".seat-row[data-seat='2']")).to_be_hidden()
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert [s.bot for s in game.seats.order_by("index")] == ["", "random"]

    # The board: the submarine, the air at 25, the trail's 32 spaces, both divers aboard.
    board = page.locator("#board svg.dsa-board")
    expect(board).to_be_visible()
    expect(board.locator(".dsa-space")).to_have_count(32)
    expect(board.locator(".dsa-space .dsa-level-4")).to_have_count(8)
    expect(board.locator(".dsa-air")).to_have_attribute("data-air", "25")
    expect(board.locator(".dsa-diver[data-position='0']")).to_have_count(2)
    expect(page.locator("#log li")).to_have_count(1)
    start = version_of(page)

    # Dive: the server rolls at once, so the diver is out on the trail and the log has grown.
    page.click("button:has-text('Continue diving')")
    expect(page.locator("#log li")).to_have_count(3)
    expect(page.locator("#game-version")).not_to_have_text(str(start))
    expect(page.locator("#log")).to_contain_text("marina continued diving")
    expect(page.locator("#log")).to_contain_text("rolled")
    expect(board.locator(".dsa-diver-on-trail[data-seat='0']")).to_have_count(1)

    # Take the chip; the bot then plays its turn inside the same request.
    page.locator("button[data-action=take]").click()
    expect(page.locator("#log")).to_contain_text("Random bot")
    expect(page.locator("button:has-text('Continue diving')")).to_be_visible()
    moved = version_of(page)
    assert moved > start + 2
    screenshot(page)

    # Replay: back at version 1 everybody is still in the submarine; then back to live.
    page.locator("#replay").evaluate(
        "(slider) => { slider.value = '1'; slider.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#replay-label")).to_have_text(f"step 1 of {moved}")
    expect(page.locator("#board svg")).to_have_attribute("data-version", "1")
    expect(page.locator("#board .dsa-diver-on-trail")).to_have_count(0)
    expect(page.locator("#actions")).to_contain_text("Replaying an earlier move")
    page.click("#replay-live")
    expect(page.locator("#board svg")).to_have_attribute("data-version", str(moved))
    expect(page.locator("#board .dsa-diver-on-trail[data-seat='0']")).to_have_count(1)

    # Resign: the bot wins by forfeit and the result shows.
    page.once("dialog", lambda dialog: dialog.accept())
    page.click("#resign")
    # The result comes at once; then the "Game over" panel, fetched with the page, takes its place.
    over = page.locator("#game-over")
    expect(over).to_contain_text("by forfeit", timeout=10_000)
    expect(over.locator("tbody tr").first).to_contain_text("1st")
    expect(over.locator("tbody tr").first).to_contain_text("Random bot")
    expect(over.locator("tbody tr").nth(1)).to_contain_text("marina")
    expect(page.locator("#result")).to_be_hidden()
    expect(page.locator("#log")).to_contain_text("game over by forfeit: Random bot won")
    expect(page.locator("#game-status")).to_have_text("Finished")
    expect(page.locator("#log")).to_contain_text("marina resigned")
    expect(page.locator("#actions")).to_contain_text("The game is over")
    assert Game.objects.get().status == GameStatus.FINISHED
