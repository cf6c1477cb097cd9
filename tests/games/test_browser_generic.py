"""A game with no renderer of its own, in a real headless Chromium: a tiny rule module,
registered for this test only, gets the generic renderer, which shows the view the server
sends as lists and tables; the seats play it to the end with the page's action buttons.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the page at the end to
/tmp/hadal-generic.png.
"""

from __future__ import annotations

import os
import types
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games import services
from games.rules.base import _REGISTRY, TERMINAL, GameSpec, State
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
TARGET = 10

pytestmark = pytest.mark.browser


# -- count to ten: two players add 1 or 2 to a total in turn; whoever reaches ten wins --------


class CountState(State):
    def __init__(self, num_players, options):
        super().__init__(num_players, options)
        self.total = 0
        self.turn = 0
        self.moves = []

    def _current_player(self):
        return TERMINAL if self.total == TARGET else self.turn

    def _legal_actions(self):
        return [{"type": "add", "amount": n} for n in (1, 2) if self.total + n <= TARGET]

    def _apply(self, action):
        self.total += action["amount"]
        self.moves.append([self.turn, action["amount"]])
        if self.total < TARGET:
            self.turn = 1 - self.turn

    def view(self, seat):
        moves = [{"seat": who, "added": amount} for who, amount in self.moves]
        return {"total": self.total, "target": TARGET, "moves": moves}

    def _scores(self):
        return [1 if seat == self.turn else 0 for seat in range(self.num_players)]


@pytest.fixture
def count_to_ten(monkeypatch):
    """The game, registered while the test runs (the live server shares the registry)."""
    rules = types.ModuleType("count_to_ten")
    rules.spec = GameSpec(
        slug="count-to-ten",
        name="Count to ten",
        min_players=2,
        max_players=2,
        version=1,
        chance=False,
    )
    rules.State = CountState
    rules.new_game = lambda num_players, options: CountState(
        num_players, rules.spec.validate(num_players, options)
    )
    monkeypatch.setitem(_REGISTRY, rules.spec.slug, rules)
    return rules


def total_shown(board):
    return board.locator(".generic-entry[data-key=total] dd")


def test_a_game_without_a_renderer_is_shown_and_played_to_the_end(page, count_to_ten):
    from playwright.sync_api import expect

    sign_up(page)
    marina = get_user_model().objects.get(username="marina")
    # Both seats hers: a hot-seat table, so every move is a click on this page.
    game = services.game_create(
        slug="count-to-ten",
        seats=[{"user": "marina"}, {"user": "marina"}],
        options={},
        created_by=marina,
    )
    page.goto(f"/games/{game.pk}/")
    assert not renderer_file(page.content()).exists()

    # The view, entry by entry: the total, the target, no moves yet.
    board = page.locator("#board .generic-view")
    expect(board).to_be_visible()
    expect(board.locator(".generic-caption")).to_have_text("What seat 0 sees, version 1")
    expect(total_shown(board)).to_have_text("0")
    expect(board.locator(".generic-entry[data-key=target] dd")).to_have_text("10")
    expect(board.locator(".generic-entry[data-key=moves] dd")).to_have_text("none")
    expect(board.locator(".generic-entry dt")).to_have_text(["total", "target", "moves", "version"])

    # The legal actions, one button each, named by their fields.
    buttons = page.locator("#actions button[data-action=add]")
    expect(buttons).to_have_text(["Add (amount 1)", "Add (amount 2)"])

    # Play to ten, 2 + 2 + 2 + 2 + 1 + 1, the page following the turn from seat to seat.
    played: list[tuple[int, int]] = []
    moves = board.locator(".generic-entry[data-key=moves]")
    for amount in (2, 2, 2, 2, 1, 1):
        seat = len(played) % 2
        expect(page.locator(".your-move")).to_have_text(f"Your move, seat {seat}:")
        if sum(a for _, a in played) == TARGET - 1:
            expect(buttons).to_have_text(["Add (amount 1)"])
        before = version_of(page)
        page.click(f"#actions button:has-text('Add (amount {amount})')")
        expect(page.locator("#game-version")).not_to_have_text(str(before))
        played.append((seat, amount))
        expect(total_shown(board)).to_have_text(str(sum(a for _, a in played)))
        # The moves as a table: a row per move, a column per field.
        expect(moves.locator("tbody tr")).to_have_count(len(played))
        expect(moves.locator("tbody tr").last.locator("td")).to_have_text([str(seat), str(amount)])
    expect(moves.locator("thead th")).to_have_text(["#", "seat", "added"])

    # Seat 1 reached ten and won.
    expect(page.locator("#game-status")).to_have_text("Finished")
    expect(page.locator("#result-table tbody tr").first).to_contain_text("(seat 1)")
    expect(page.locator("#actions")).to_contain_text("The game is over")
    expect(page.locator("#log")).to_contain_text("seat 1 (marina): add (amount 1)")
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)
