"""A game with no renderer of its own, in a real headless Chromium: CONTRIBUTING.md's tiny
game (tests/games/pearl_race.py), registered for this test only, gets the generic renderer, which shows the view the server
sends as lists and tables; the seats play it to the end with the page's action buttons.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the page at the end to
/tmp/hadal-generic.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.play import reads, services
from games.rules.base import _REGISTRY
from tests.games import pearl_race
from tests.games.test_browser import (  # noqa: F401  (the browser fixture, shared)
    page,
    renderer_file,
    sign_up,
    version_of,
)

# Playwright's sync API runs an event loop in this thread; the ORM calls made here (and the
# live server's thread) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SCREENSHOT = Path("/tmp/hadal-generic.png")

pytestmark = pytest.mark.browser


@pytest.fixture
def pearl_race_registered(monkeypatch):
    """CONTRIBUTING.md's tiny game, registered while the test runs (the live server shares the
    registry); it has no renderer file of its own."""
    monkeypatch.setitem(_REGISTRY, pearl_race.spec.slug, pearl_race.module)
    return pearl_race.module


def left_shown(board):
    return board.locator(".generic-entry[data-key=pearls_left] dd")


def test_a_game_without_a_renderer_is_shown_and_played_to_the_end(page, pearl_race_registered):
    from playwright.sync_api import expect

    sign_up(page)
    marina = get_user_model().objects.get(username="marina")
    # Both seats hers: a hot-seat table, so every move is a click on this page.
    game = services.game_create(
        slug="pearl-race",
        seats=[{"user": "marina"}, {"user": "marina"}],
        options={},
        created_by=marina,
    )
    page.goto(f"/games/{game.pk}/")
    assert not renderer_file(page.content()).exists()
    left = reads.game_view(game=game, user=marina)["pearls_left"]  # the server's chance

    # The view, entry by entry: the pearls in the bed, none taken yet, seat 0 to move.
    board = page.locator("#board .generic-view")
    expect(board).to_be_visible()
    expect(board.locator(".generic-caption")).to_contain_text("What marina (player 1) sees")
    expect(left_shown(board)).to_have_text(str(left))
    expect(board.locator(".generic-entry[data-key=taken] dd")).to_have_text("0, 0")
    expect(board.locator(".generic-entry dt")).to_have_text(
        ["pearls left", "taken", "to move", "version"]
    )

    # The legal actions, one button each, named by their fields.
    buttons = page.locator("#actions button[data-action=take]")
    expect(buttons).to_have_text(["Take (pearls 1)", "Take (pearls 2)"])

    # Take one pearl a turn to the end, the page following the turn from seat to seat.
    taken = [0, 0]
    for turn in range(left):
        seat = turn % 2
        expect(page.locator(".your-move")).to_have_text(
            f"Your move, as marina (player {seat + 1}):"
        )
        if left - turn == 1:
            expect(buttons).to_have_text(["Take (pearls 1)"])
        before = version_of(page)
        page.click("#actions button:has-text('Take (pearls 1)')")
        expect(page.locator("#game-version")).not_to_have_text(str(before))
        taken[seat] += 1
        expect(left_shown(board)).to_have_text(str(left - turn - 1))
        expect(board.locator(".generic-entry[data-key=taken] dd")).to_have_text(
            f"{taken[0]}, {taken[1]}"
        )

    # Whoever took the last pearl won.
    winner = (left - 1) % 2
    expect(page.locator("#game-status")).to_have_text("Finished")
    expect(page.locator("#result-table tbody tr").first).to_contain_text(
        f"marina (player {winner + 1})"
    )
    expect(page.locator("#actions")).to_contain_text("The game is over")
    expect(page.locator("#log")).to_contain_text(f"marina (player {winner + 1}): take (pearls 1)")
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)
