"""The board in words (issue 39, item 10): beside each drawn board a screen reader finds the
board described in the game's words, from the view the page holds for the seat, and never
another seat's hidden hand.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import pytest

from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_phone import demo, sign_in  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser
VIEW = "() => JSON.parse(document.getElementById('game-data').textContent).view"


def board_words(page, pk):  # noqa: F811
    page.goto(f"/games/{pk}/")
    page.wait_for_selector("#board-words li", state="attached")
    return page.text_content("#board-words")


def test_each_board_is_described_in_its_games_words(page, demo):  # noqa: F811
    sign_in(page)
    dsa = board_words(page, demo["play"]["deep-sea-adventure"])
    view = page.evaluate(VIEW)
    assert f"air left {view['air']}" in dsa
    assert f"Space {len(view['trail'])}:" in dsa
    assert "alice:" in dsa and "holding" in dsa

    vents = board_words(page, demo["play"]["deep-vents"])
    view = page.evaluate(VIEW)
    assert "alice's ecosystem" in vents and "archae" in vents
    for hex_ in view["players"][0]["hexes"]:
        assert hex_["name"] in vents
    assert "(0," not in vents and ",0)" not in vents  # no coordinates

    abyss = board_words(page, demo["play"]["abyss"])
    assert "Exploration track" in abyss and "The Council" in abyss and "pearls" in abyss

    ventlife = board_words(page, demo["play"]["ventlife"])
    view = page.evaluate(VIEW)
    assert "Tile 1" in ventlife and "level 1" in ventlife
    assert f"{view['bag_size']} tile" in ventlife


def test_the_abyss_words_hold_only_the_readers_own_hand(page, demo):  # noqa: F811
    sign_in(page)
    board_words(page, demo["play"]["abyss"])
    view = page.evaluate(VIEW)
    mine, theirs = view["players"][0], view["players"][1]
    assert isinstance(mine["hand"], list) and not isinstance(theirs.get("hand"), list)
    sections = page.evaluate(
        """() => Array.from(document.querySelectorAll('#board-words section')).map((s) =>
             [s.querySelector('h3').textContent,
              Array.from(s.querySelectorAll('li')).map((li) => li.textContent)])"""
    )
    titles = [title for title, _ in sections]
    assert titles.count("Your hand") == 1
    hand = dict(sections)["Your hand"]
    assert len(hand) == max(1, len(mine["hand"]))
    players = dict(sections)["The players"]
    count = theirs.get("hand_size", 0)
    assert f"hand {count} All" in players[1]
