"""The scorekeeper's page of a table log on a phone (390×844) in a real headless Chromium: a
whole Deep Sea Adventure entered with its buttons (the dice as big buttons, an entry taken back
with "Undo the last entry"), and the searchable list of hexes of Deep Vents.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the page to /tmp/hadal-log.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from games.models import Event, EventKind, Game
from games.tablelog import services as logs
from tests.games.test_browser import browser_page, sign_up

os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SCREENSHOT = Path("/tmp/hadal-log.png")
PHONE = {"width": 390, "height": 844}

pytestmark = pytest.mark.browser


@pytest.fixture
def phone(live_server, transactional_db):
    yield from browser_page(live_server, viewport=PHONE, is_mobile=True, has_touch=True)


def table_log(slug: str) -> Game:
    User = get_user_model()
    marina = User.objects.get(username="marina")
    User.objects.create_user(username="bob", password="pw-for-tests-only")
    return logs.log_create(
        slug=slug,
        seats=[{"user": "marina"}, {"user": "bob"}],
        options={},
        scorekeeper="marina",
        created_by=marina,
    )


def entered(page, version: int) -> int:
    """Wait for the page to show a version after ``version``; that version."""
    from playwright.sync_api import expect

    root = page.locator("#log-page")
    expect(root).not_to_have_attribute("data-version", str(version))
    return int(root.get_attribute("data-version"))


def fits_the_phone(page) -> None:
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width}px wide on a {PHONE['width']}px phone"


def test_a_whole_game_entered_on_a_phone_with_the_dice_and_an_undo(phone):
    from playwright.sync_api import expect

    page = phone
    sign_up(page)
    get_user_model().objects.create_user(username="bob", password="pw-for-tests-only")
    # Started from its form, reached from the new game page.
    page.goto("/games/new/")
    page.click("text=Keep its log move by move")
    page.select_option("#id_game", "deep-sea-adventure")
    page.fill("#id_player_1", "bob")
    fits_the_phone(page)
    page.click("text=Start the log")
    page.wait_for_url("**/log/")
    game = Game.objects.get()
    assert game.mode == "log" and game.scorekeeper.username == "marina"
    page.goto(f"/games/{game.pk}/")
    page.click("#keep-log")
    expect(page.locator("#log-page")).to_have_attribute("data-version", "1")
    expect(page.locator(".guidance")).to_contain_text("Treasure values stay face down")
    fits_the_phone(page)

    # marina's first decision, in the game's words; then the dice, nine big buttons.
    expect(page.locator("#due-title")).to_have_text("marina decides")
    page.click(".choice:has-text('Continue diving')")
    version = entered(page, 1)
    expect(page.locator("#due-prompt")).to_have_text("The two dice, as rolled")
    dice = page.locator("#choices.dice .choice")
    expect(dice).to_have_count(9)
    assert dice.first.bounding_box()["height"] >= 60  # big enough for a thumb
    page.click(".choice:has-text('3 + 3')")
    version = entered(page, version)
    expect(page.locator("#undo-what")).to_have_text("Last entry: rolled 3+3")

    # Wrong dice: take them back. The undo is an entry of its own; the roll is due again.
    page.click("#undo")
    version = entered(page, version)
    expect(page.locator("#message")).to_have_text("The last entry is taken back.")
    expect(dice).to_have_count(9)
    expect(page.locator("#entries .undone")).to_have_text(["rolled 3+3"])
    expect(page.locator("#entries")).to_contain_text("taken back: rolled 3+3")
    page.click(".choice:has-text('1 + 2')")
    version = entered(page, version)
    assert Event.objects.filter(game=game, kind=EventKind.ENTRY_UNDONE).count() == 1

    # The rest of the game, every entry by a tap: the first choice each time.
    for _ in range(2000):
        if page.locator("#due-title").text_content() == "Game over":
            break
        page.locator("#choices .choice").first.click()
        version = entered(page, version)
    expect(page.locator("#due-title")).to_have_text("Game over")
    fits_the_phone(page)
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)
    game.refresh_from_db()
    assert game.status == "finished" and game.version == version

    # The game page replays it like an online game, and shows the result.
    page.click("text=See the result")
    expect(page.locator("#game-status")).to_have_text("Finished")
    expect(page.locator("#result-table tbody tr")).to_have_count(2)
    expect(page.locator("#log")).to_contain_text("rolled 1+2")
    expect(page.locator("#log")).to_contain_text("taken back: rolled 3+3")
    expect(page.locator("#log")).not_to_contain_text("EntryUndone")


def test_hexes_are_picked_from_a_searchable_list(phone):
    from playwright.sync_api import expect

    page = phone
    sign_up(page)
    game = table_log("deep-vents")
    page.goto(f"/games/{game.pk}/log/")
    expect(page.locator("#due-prompt")).to_have_text("The hex turned up from the stack")
    search = page.locator("#choice-search")
    expect(search).to_be_visible()
    everything = page.locator("#choices .choice:visible").count()
    assert everything > 12
    search.fill("angler")
    expect(page.locator("#choices .choice:visible")).to_have_text(["Anglerfish"])
    page.locator("#choices .choice:visible").click()
    entered(page, 1)
    assert Event.objects.filter(game=game, kind=EventKind.CHANCE_RESOLVED).get().data == {
        "action": {"type": "draw", "hex": "Anglerfish"}
    }
    fits_the_phone(page)


def test_someone_else_is_sent_to_the_game_page(phone):
    page = phone
    sign_up(page, "dora")
    User = get_user_model()
    User.objects.create_user(username="marina", password="pw-for-tests-only")
    marina = User.objects.get(username="marina")
    game = logs.log_create(
        slug="abyss",
        seats=[{"user": "marina"}, {"user": "dora"}],
        options={},
        scorekeeper="marina",
        created_by=marina,
    )
    page.goto(f"/games/{game.pk}/log/")
    assert page.url.endswith(f"/games/{game.pk}/")
    assert page.locator("#keep-log").count() == 0


def tap_the_next_entry(page) -> None:
    """A tap that enters something: the first choice button; else, where the game's own
    controls ask for the board (a Ventlife tile), a spot on it and then its Confirm."""
    for selector in (
        "#choices button[data-action=place_tile]:visible",
        "#choices .choice:visible",
        "#board [role=button]",
    ):
        target = page.locator(selector)
        if target.count():
            target.first.click()
            return
    raise AssertionError(f"nothing to tap: {page.locator('#log-page').inner_text()[:300]}")


@pytest.mark.parametrize("slug", ["deep-vents", "abyss", "ventlife"])
def test_the_first_entries_of_each_game_on_a_phone(phone, slug):
    """Thirty entries of each other game with chance, a tap each (two for a Ventlife tile),
    undo once: the page draws every decision and outcome without a script error and fits the
    phone."""
    from playwright.sync_api import expect

    page = phone
    sign_up(page)
    game = table_log(slug)
    page.goto(f"/games/{game.pk}/log/")
    root = page.locator("#log-page")
    expect(root).to_have_attribute("data-version", "1")
    undone = False
    for _ in range(120):
        version = int(root.get_attribute("data-version"))
        if version > 30 or page.locator("#due-title").text_content() == "Game over":
            break
        if version > 10 and not undone:
            page.click("#undo")
            undone = True
        else:
            tap_the_next_entry(page)
        expect(root).not_to_have_attribute("data-busy", "true")  # the entry's answer is in
        fits_the_phone(page)
    game.refresh_from_db()
    assert game.version > 30
    assert game.version == int(root.get_attribute("data-version"))
    assert Event.objects.filter(game=game, kind=EventKind.ENTRY_UNDONE).count() == 1
