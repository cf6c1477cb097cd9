"""Keyboard play (issue 39, item 10): each game with a board is played from the keyboard alone,
Tab to a control and Enter or Space on it, until the game moves on, in headless Chromium with
the demo's data (alice against a bot, her turn in each).

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import pytest

from games.models import Game
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_phone import demo, sign_in  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser
BOARDS = ("deep-sea-adventure", "deep-vents", "abyss", "ventlife")
# A move's control: a button of the move panel or a piece of the board made a button. Ventlife's
# Rotate and Cancel, and its species buttons, only prepare a move; its Confirm plays it.
MOVE_CONTROL = (
    "#actions button.action:not([disabled], [data-action=rotate], [data-action=cancel], "
    ".vl-species), #board [role=button]"
)
CONFIRM = "#actions button[data-action=place_tile]"
TAB_LIMIT = 400


def focused_matches(page, selector):  # noqa: F811
    return page.evaluate(
        "(s) => !!document.activeElement && document.activeElement.matches(s)", selector
    )


def tab_to(page, selector):  # noqa: F811
    """Presses Tab until the focus is on an element matching ``selector``."""
    for _ in range(TAB_LIMIT):
        page.keyboard.press("Tab")
        if focused_matches(page, selector):
            return page.evaluate(
                "() => document.activeElement.getAttribute('aria-label') || "
                "document.activeElement.textContent.trim()"
            )
    raise AssertionError(f"{TAB_LIMIT} presses of Tab never reach {selector}")


@pytest.mark.parametrize("slug", BOARDS)
def test_a_move_of_each_board_game_is_played_from_the_keyboard_alone(page, demo, slug):  # noqa: F811
    from playwright.sync_api import expect

    sign_in(page)
    pk = demo["play"][slug]
    before = Game.objects.get(pk=pk).version
    page.goto(f"/games/{pk}/")
    page.wait_for_selector(MOVE_CONTROL)
    pressed = []
    # Enter and Space in turn, so that both keys are shown to work.
    for key in ("Enter", "Space", "Enter", "Space"):
        if page.locator(CONFIRM).count():
            pressed.append(tab_to(page, CONFIRM))
        else:
            pressed.append(tab_to(page, MOVE_CONTROL))
        page.keyboard.press(key)
        page.wait_for_load_state("networkidle")
        if Game.objects.get(pk=pk).version > before:
            break
    assert Game.objects.get(pk=pk).version > before, f"{slug}: no move after {pressed}"
    expect(page.locator("#board")).not_to_have_attribute("data-version", str(before))
    # The redraw leaves the keyboard where play goes on, not at the top of the page.
    page.wait_for_function(
        "() => !!document.activeElement.closest('#actions, #board')", timeout=5_000
    )
