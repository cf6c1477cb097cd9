"""Every control a newcomer taps on a phone (390×844) is big enough for a thumb, and no page is
wider than the phone (issue 39, item 4).

The parts measured: a game page's replay bar and its "How to play" link, the header's links
once the Menu is opened, the record form (its player rows with the guest tick and the Score and
Rank boxes), a tournament page's tables, a finished game's analysis with its costly-move dots,
New game's player rows, and a player page with a record waiting for them.

The rule applied to each interactive element in those parts (a, button, input, select,
textarea, summary, and anything with role=slider, role=button or a tabindex):

- Its hit area is its bounding box; a checkbox or radio is hit through its label as well, so
  its hit area is the box around both.
- The hit area is at least 44 px tall.
- It is at least 44 px wide too, unless it is a text link inside running prose: an inline
  ``a`` whose nearest block holds words besides the link's own. WCAG 2.5.5 exempts such links
  from the width (a sentence cannot be spaced out word by word); they must still be 44 px
  tall here.
- A control not shown (no box, or inside something hidden) is not measured.

And the page is never wider than the phone: document.documentElement.scrollWidth <= 390.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games.models import Game
from league.services import leagues
from tests.games.test_analysis_api import finished_game
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_phone import PHONE, demo, sign_in  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in as sign_in_made

pytestmark = pytest.mark.browser
TAP = 44

# For each control under the given roots, its size when it is smaller than the rule allows.
SMALL_CONTROLS = """([roots, px]) => {
  const controls = 'a[href], button, input:not([type=hidden]), select, textarea, summary, ' +
    '[role=slider], [role=button], [tabindex]:not([tabindex="-1"])';
  const union = (a, b) => {
    const left = Math.min(a.left, b.left), top = Math.min(a.top, b.top);
    const right = Math.max(a.right, b.right), bottom = Math.max(a.bottom, b.bottom);
    return {width: right - left, height: bottom - top};
  };
  const isBlock = (el) => !getComputedStyle(el).display.startsWith('inline');
  const inProse = (el) => {
    if (el.tagName !== 'A' || isBlock(el)) return false;
    let block = el.parentElement;
    while (block && !isBlock(block)) block = block.parentElement;
    if (!block) return false;
    const rest = block.textContent.replace(el.textContent, '');
    return /\\w{2,}/.test(rest);
  };
  const name = (el) => {
    const text = (el.getAttribute('aria-label') || el.textContent || el.name || el.id || '')
      .trim().replace(/\\s+/g, ' ').slice(0, 30);
    return `${el.tagName.toLowerCase()}${el.type ? '[' + el.type + ']' : ''} "${text}"`;
  };
  const seen = new Set();
  const small = [];
  for (const selector of roots) {
    for (const root of document.querySelectorAll(selector)) {
      const found = root.matches(controls) ? [root] : [];
      for (const el of [...found, ...root.querySelectorAll(controls)]) {
        if (seen.has(el)) continue;
        seen.add(el);
        const box = el.getBoundingClientRect();
        if (box.width === 0 || box.height === 0 || !el.checkVisibility()) continue;
        let hit = box;
        if (el.type === 'checkbox' || el.type === 'radio') {
          const label = el.closest('label') || (el.labels && el.labels[0]);
          if (label) hit = union(box, label.getBoundingClientRect());
        }
        const wide = inProse(el) || hit.width >= px;
        if (hit.height < px || !wide) {
          small.push(`${name(el)} ${Math.round(hit.width)}x${Math.round(hit.height)}`);
        }
      }
    }
  }
  return small;
}"""


def measure(page, path, roots):  # noqa: F811
    """The controls under ``roots`` too small to tap, and the page's width if too wide."""
    page.wait_for_load_state("networkidle")
    found = [f"{path}: {c}" for c in page.evaluate(SMALL_CONTROLS, [roots, TAP])]
    if not any(page.locator(root).count() for root in roots):
        found.append(f"{path}: none of {roots} is on the page")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > PHONE["width"]:
        found.append(f"{path}: the page is {width} px wide")
    return found


def test_a_newcomers_controls_are_thumb_sized_on_a_phone(page, demo):  # noqa: F811
    from playwright.sync_api import expect

    bob = get_user_model().objects.get(username="bob")
    leagues.match_record(
        game="oceans",
        played_at="2026-01-08",
        league=None,
        results=[
            {"player": "bob", "score": 80, "rank": 1},
            {"player": "alice", "score": 70, "rank": 2},
        ],
        recorded_by=bob,
    )
    page.set_viewport_size(PHONE)
    sign_in(page)
    small: list[str] = []

    game = demo["play"]["deep-sea-adventure"]
    page.goto(f"/games/{game}/")
    expect(page.locator("#replay")).to_be_visible()
    small += measure(page, "a game", ["#replay-bar", ".board-hint"])

    page.click(".nav-toggle")
    expect(page.locator(".nav-toggle")).to_have_attribute("aria-expanded", "true")
    small += measure(page, "the open menu", [".site-header"])

    page.goto("/matches/new/")
    expect(page.locator("input[name=guest_0]")).to_be_visible()
    small += measure(page, "the record form", ["#record-game"])

    page.goto(f"/tournaments/{demo['tournament']}/")
    small += measure(page, "a tournament", [".tables", ".standings"])

    page.goto("/games/new/")
    small += measure(page, "New game", ["#new-game .seats"])

    page.goto("/players/alice/")
    expect(page.locator("#waiting")).to_be_visible()
    small += measure(page, "a player with a record waiting", ["#waiting"])

    assert small == [], "\n".join(small)


def test_the_replay_and_analysis_are_thumb_sized_on_a_phone(page, make_user, settings):  # noqa: F811
    from playwright.sync_api import expect

    settings.HADAL_ANALYSIS = {"iterations": 4, "luck_samples": 1}
    game: Game = finished_game(make_user("alice"))
    page.set_viewport_size(PHONE)
    sign_in_made(page, "alice")
    page.goto(f"/games/{game.pk}/?at=5")
    expect(page.locator("#analysis svg.analysis-graph")).to_be_visible()
    small = measure(page, "a finished game", ["#replay-bar", "#analysis"])
    assert small == [], "\n".join(small)
    # A tap 15 px off a costly move's dot, inside its 44 px circle, still shows that move (the
    # first dot with no neighbour over that spot; before, the dot took taps 5 px across).
    page.locator("#analysis svg.analysis-graph").scroll_into_view_if_needed()
    spot = page.evaluate("""() => {
      for (const mark of document.querySelectorAll('#analysis .graph-costly')) {
        const dot = mark.querySelector('.graph-dot').getBoundingClientRect();
        const x = dot.left + dot.width / 2 + 15, y = dot.top + dot.height / 2;
        const there = document.elementFromPoint(x, y);
        if (there && there.closest('.graph-costly') === mark) return [x, y, mark.dataset.seq];
      }
      return null;
    }""")
    assert spot, "no costly move's dot takes a tap 15 px from its centre"
    page.mouse.click(spot[0], spot[1])
    expect(page.locator("#board")).to_have_attribute("data-version", spot[2])
