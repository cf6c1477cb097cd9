"""Every page on a phone (390×844) in headless Chromium, with the demo's data: nothing scrolls
sideways, the header folds behind a Menu button, boards fit the width and zoom, controls are
big enough to tap, no page shows the developer's words (seat numbers, versions, event
kinds), and axe-core finds nothing serious or critical on any page (contrast, names, labels).

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import re

import pytest
from django.core.management import call_command

from games.models import Game, GameMode, GameStatus
from games.pages.play import GUIDES
from league.models import League, Table, Tournament
from tests.games.test_browser import page  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
# What people should never read on a page: "seat 0", "version 88", "expected version", a
# slug with a number, an event kind.
DEVELOPER_WORDS = re.compile(
    r"\bseat \d|\bversion \d|expected version|\b[a-z]+-[a-z-]+ #\d|"
    r"\b(GameCreated|ActionApplied|ChanceResolved|ResultRecorded|ResultReported|Seat[A-Z]\w+)\b"
)
TAP_PX = 40
DESKTOP = {"width": 1366, "height": 900}
# axe-core's two worst impacts; "moderate" and "minor" are advice, not a failure.
AXE_FAILING = {"serious", "critical"}


@pytest.fixture
def demo(transactional_db):
    call_command("demo", verbosity=0)
    return {
        "play": {
            g.slug: g.pk for g in Game.objects.filter(mode=GameMode.PLAY, status=GameStatus.ACTIVE)
        },
        "record": Game.objects.filter(mode=GameMode.RECORD).values_list("pk", flat=True).first(),
        "finished": Game.objects.filter(mode=GameMode.PLAY, status=GameStatus.FINISHED)
        .values_list("pk", flat=True)
        .first(),
        "tournament": Tournament.objects.values_list("pk", flat=True).first(),
        "club": League.objects.values_list("slug", flat=True).first(),
        "table": Table.objects.order_by("pk").values_list("pk", flat=True).first(),
    }


def sign_in(page, username="alice", password="alice-demo"):  # noqa: F811
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def check_phone_page(page, path):  # noqa: F811
    page.goto(path)
    check_phone_layout(page, path)


def check_phone_layout(page, path):  # noqa: F811
    """The page as it is now (``path`` names it in a failure) fits a phone."""
    page.wait_for_load_state("networkidle")
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{path} scrolls sideways: {widths}"
    small = page.evaluate(
        """(px) => Array.from(document.querySelectorAll(
              'main button, main .button, main select, main input[type=submit]'))
            .filter((e) => { const r = e.getBoundingClientRect();
                             return r.width > 0 && r.height < px; })
            .map((e) => e.outerHTML.slice(0, 80))""",
        TAP_PX,
    )
    assert small == [], f"{path}: controls too small to tap: {small}"
    text = page.inner_text("body")
    found = [m.group(0) for m in DEVELOPER_WORDS.finditer(text)]
    assert not found, f"{path} shows developer words: {found}"
    assert_no_serious_axe_violations(page, path)


# axe-core cannot judge contrast over a gradient (it answers "incomplete", so text over the
# page's gradient would never be checked). Each gradient becomes one flat colour before axe
# runs: its lightest opaque stop with any faint tint stops laid over it, the worst case for the
# site's light text on dark water.
FLATTEN_GRADIENTS = """() => {
  const rgba = (text) => text.match(/[\\d.]+/g).map(Number);
  const light = ([r, g, b]) => 0.2126 * r + 0.7152 * g + 0.0722 * b;
  for (const element of document.querySelectorAll("*")) {
    const image = getComputedStyle(element).backgroundImage;
    if (!image.includes("gradient")) continue;
    const stops = (image.match(/rgba?\\([^)]*\\)/g) || []).map(rgba);
    const solid = stops.filter((c) => c.length === 3 || c[3] >= 0.5);
    if (!solid.length) continue;
    const base = solid.reduce((a, c) => (light(c) > light(a) ? c : a));
    let worst = base;
    for (const [r, g, b, a] of stops.filter((c) => c.length === 4 && c[3] < 0.5)) {
      const over = [0, 1, 2].map((i) => base[i] + a * ([r, g, b][i] - base[i]));
      if (light(over) > light(worst)) worst = over;
    }
    element.style.setProperty("background-image", "none", "important");
    element.style.setProperty(
      "background-color", `rgb(${worst.slice(0, 3).map(Math.round).join(",")})`, "important");
  }
}"""


def axe_violations(page, path):  # noqa: F811
    """axe-core's serious and critical findings on the page as it is now, one line each:
    the page, the rule and the elements it names. Flattens the page's gradients first."""
    from axe_playwright_python.sync_playwright import Axe

    page.evaluate(FLATTEN_GRADIENTS)
    results = Axe().run(page).response
    return [
        f"{path}: {v['id']} ({v['impact']}) at {', '.join(str(n['target']) for n in v['nodes'])}"
        for v in results["violations"]
        if v["impact"] in AXE_FAILING
    ]


def assert_no_serious_axe_violations(page, path):  # noqa: F811
    found = axe_violations(page, path)
    assert not found, "axe-core finds:\n" + "\n".join(found)


def test_every_page_fits_a_phone_and_speaks_peoples_words(page, demo):  # noqa: F811
    page.set_viewport_size(PHONE)
    sign_in(page)
    paths = [
        "/",
        "/games/new/",
        *(f"/games/{pk}/" for pk in demo["play"].values()),
        f"/games/{demo['finished']}/",
        f"/games/{demo['record']}/",
        "/ratings/",
        "/ratings/deep-vents/",
        "/ratings/deep-vents/?provisional=1",
        "/ratings/how/",
        "/oceans/",
        "/players/alice/",
        "/leagues/",
        "/tournaments/",
        f"/tournaments/{demo['tournament']}/",
        f"/tournaments/{demo['tournament']}/?settle={demo['table']}",  # the organiser's form
        "/tournaments/new/",
        "/matches/new/",
        "/accounts/tokens/",
        *(f"/games/how-to-play/{slug}/" for slug in GUIDES),
        # What a member reaches from the menu and their settings.
        "/inbox/",
        "/inbox/choices/",
        "/invitations/",
        "/lobby/",
        "/accounts/settings/",
        "/accounts/email/",
        "/accounts/password/change/",
        "/accounts/delete/",
        # A club and its secretary's pages.
        f"/leagues/{demo['club']}/",
        f"/matches/{demo['record']}/correct/",
        # An organiser's pages on the day.
        f"/tournaments/{demo['tournament']}/rounds/1/print/",
        f"/tournaments/{demo['tournament']}/projector/",
        # A table log, begun from the page.
        "/games/log/new/",
        # A page that is not there.
        "/games/999999/",
    ]
    for path in paths:
        check_phone_page(page, path)
        assert page.locator("h1").count() >= 1, f"{path} has no heading"
        if "?settle=" in path:
            assert page.locator(f"#override-{demo['table']}").is_visible()


def test_the_pages_before_signing_in_fit_a_phone(page, demo):  # noqa: F811
    page.set_viewport_size(PHONE)
    for path in [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        f"/games/{demo['play']['abyss']}/",
        "/ratings/",
        f"/tournaments/{demo['tournament']}/",
        "/players/alice/",
    ]:
        check_phone_page(page, path)


def test_the_main_pages_on_a_desktop_have_no_serious_accessibility_faults(page, demo):  # noqa: F811
    page.set_viewport_size(DESKTOP)
    sign_in(page)
    paths = [
        "/",
        "/games/new/",
        *(f"/games/{pk}/" for pk in demo["play"].values()),
        f"/games/{demo['finished']}/",
        "/ratings/",
        "/ratings/how/",
        "/players/alice/",
        "/tournaments/",
        f"/tournaments/{demo['tournament']}/",
    ]
    for path in paths:
        page.goto(path)
        page.wait_for_load_state("networkidle")
        assert_no_serious_axe_violations(page, path)


def test_every_board_fits_the_width_and_zooms(page, demo):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    sign_in(page)
    assert set(demo["play"]) >= {"deep-sea-adventure", "deep-vents", "abyss", "ventlife"}
    for slug, pk in demo["play"].items():
        page.goto(f"/games/{pk}/")
        board = page.locator("#board svg").first
        expect(board).to_be_visible()
        box = board.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (slug, box)
        page.click("#board-zoom")
        expect(page.locator("#board-zoom")).to_have_text("Zoom out")
        zoomed = board.bounding_box()
        assert zoomed["width"] > 1.8 * box["width"], (slug, zoomed)
        widths = page.evaluate(
            "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
        )
        assert widths[0] <= widths[1], f"zoomed {slug} widens the page: {widths}"


def test_the_header_folds_behind_a_menu_on_a_phone_and_not_on_a_desktop(page, demo):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    page.goto("/")
    tournaments = page.locator(".nav-links a", has_text="Tournaments")
    expect(tournaments).to_be_hidden()
    page.click(".nav-toggle")
    expect(page.locator(".nav-toggle")).to_have_attribute("aria-expanded", "true")
    expect(tournaments).to_be_visible()
    assert tournaments.bounding_box()["height"] >= TAP_PX
    tournaments.click()
    page.wait_for_url("**/tournaments/")

    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto("/")
    expect(page.locator(".nav-toggle")).to_be_hidden()
    expect(page.locator(".nav-links a", has_text="Tournaments")).to_be_visible()


def test_the_signed_in_header_is_one_row_at_every_width_from_tablet_to_laptop(page, demo):  # noqa: F811
    """Signed in with games waiting (the longest header): at each width the header's visible
    items all lie inside the screen on one row, the links folding behind Menu where they would
    not fit."""
    from playwright.sync_api import expect

    sign_in(page)
    expect(page.locator("#nav-turns")).to_be_visible()
    for width in (701, 820, 1024, 1280, 1300, 1301, 1366, 1600):
        page.set_viewport_size({"width": width, "height": 900})
        page.goto("/")
        items = page.evaluate(
            """() => Array.from(document.querySelectorAll('.nav > *:not(.nav-gap), .nav-links > *:not(.nav-gap)'))
                .map((e) => e.getBoundingClientRect())
                .filter((r) => r.width > 0)
                .map((r) => [Math.round(r.left), Math.round(r.right), Math.round((r.top + r.bottom) / 2)])"""
        )
        assert items and all(0 <= left and right <= width for left, right, _ in items), (
            width,
            items,
        )
        middles = {middle for _, _, middle in items}
        assert max(middles) - min(middles) < 12, f"the header wraps at {width} px: {items}"


def test_a_tap_on_the_deep_sea_adventure_board_explains_what_is_there(page, demo):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    sign_in(page)
    page.goto(f"/games/{demo['play']['deep-sea-adventure']}/")
    help_line = page.locator("#board-help")
    expect(help_line).to_be_hidden()
    page.locator(".dsa-space[data-space='1']").click()
    expect(help_line).to_contain_text("Space 1:")
    page.locator(".dsa-air").click()
    expect(help_line).to_contain_text("Air left")
    page.click("text=How to play Deep Sea Adventure")
    expect(page.locator("h1")).to_have_text("How to play Deep Sea Adventure")
    check_phone_page(page, page.url)
