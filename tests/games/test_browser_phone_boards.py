"""Each board laid out for a phone (390×844), as a player needs it, without "Zoom in": the text
inside the board is readable at its drawn size, the move panel is on the first screen when it
is your turn (reached without scrolling past the board), and nothing scrolls sideways.

The demo's running games (alice against a bot, her move) are the boards measured."""

from __future__ import annotations

import pytest

from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_phone import PHONE, check_phone_layout, demo, sign_in  # noqa: F401

pytestmark = pytest.mark.browser
# The smallest text a phone's reader is asked to read inside a board, in CSS px as drawn (the
# SVG's own font size times the scale it is drawn at). iOS's smallest Dynamic Type is 11 pt.
MIN_TEXT_PX = 11

# Every text inside the board drawn on screen: its font size in CSS px as drawn, and its words.
DRAWN_TEXT = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#board text, #board tspan')) {
    if (el.tagName === 'text' && el.querySelector('tspan')) continue;
    const words = (el.textContent || '').trim();
    const box = el.getBoundingClientRect();
    if (!words || box.width === 0 || box.height === 0) continue;
    if (getComputedStyle(el).visibility === 'hidden') continue;
    const svg = el.ownerSVGElement;
    const scale = svg && svg.getScreenCTM() ? Math.hypot(el.getScreenCTM().a, el.getScreenCTM().b) : 1;
    out.push([parseFloat(getComputedStyle(el).fontSize) * scale, words]);
  }
  for (const el of document.querySelectorAll('#board :not(svg):not(svg *)')) {
    if (!el.childNodes.length) continue;
    const own = Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent)
      .join('').trim();
    const box = el.getBoundingClientRect();
    if (!own || box.width === 0) continue;
    out.push([parseFloat(getComputedStyle(el).fontSize), own]);
  }
  return out;
}"""


@pytest.mark.parametrize("slug", ["deep-sea-adventure", "deep-vents", "abyss", "ventlife"])
def test_the_board_reads_on_a_phone_and_the_move_is_on_the_first_screen(page, demo, slug):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    sign_in(page)
    page.goto(f"/games/{demo['play'][slug]}/")
    expect(page.locator("#board svg").first).to_be_visible()
    expect(page.locator("#actions .your-move")).to_be_visible()
    check_phone_layout(page, slug)

    drawn = page.evaluate(DRAWN_TEXT)
    assert drawn, f"{slug}: no text drawn on the board"
    small = sorted({(round(px, 1), words[:30]) for px, words in drawn if px < MIN_TEXT_PX})
    assert not small, f"{slug}: {len(small)} texts under {MIN_TEXT_PX} px on a phone: {small[:12]}"

    # The move panel is on the first screen, where the page opens, without scrolling.
    panel = page.locator(".actions-panel").bounding_box()
    assert panel is not None and panel["y"] < PHONE["height"] - 60, (slug, panel)
    assert panel["y"] >= 0, (slug, panel)
