"""The organiser's desk in a real headless Chromium, on a phone (390 px) and a desktop: the
organiser pairs round 1 as a draft, swaps two players, gives a bye, moves a player's table to
table 1 and publishes; a player then finds their own table first on their phone, and the
printable round and the projector list everyone from A to Z. Nothing is wider than the
phone's screen, and the desk's controls are at least 44 px tall there.

Set HADAL_SCREENSHOT to save the pages to /tmp/hadal-desk-<width>-*.png.
"""

from __future__ import annotations

import os

import pytest

from league.models import RoundDraft, Tournament
from league.services import tournaments
from league.tournament_spec import TournamentSpec
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in
from tests.league.test_browser_tournament_run import fits

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan", "eve")


def shot(page, width: int, name: str) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-desk-{width}-{name}.png", full_page=True)


def tall_enough(page, selector: str) -> None:
    """Every control under ``selector`` is at least 44 px tall (a finger's width)."""
    short = page.evaluate(
        """(sel) => [...document.querySelectorAll(sel + ' button, ' + sel + ' select')]
        .filter(el => el.getBoundingClientRect().height < 44)
        .map(el => el.id || el.textContent.trim())""",
        selector,
    )
    assert not short, f"controls under 44 px: {short}"


@pytest.mark.parametrize("width", [390, 1280])
def test_an_organiser_drafts_edits_and_publishes_a_round(page, make_user, width):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    org = make_user("org")
    for name in PLAYERS:
        make_user(name)
    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Quay cup",
            game="deep-sea-adventure",
            format="swiss",
            table_size=3,
            rounds=2,
            mode="table",
            players=list(PLAYERS),
        ),
        created_by=org,
    )

    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#pair-next")
    expect(page.locator("#draft")).to_contain_text("Draft — not published")
    assert not tournament.round_set.exists()
    if width == 390:
        fits(page)
        tall_enough(page, "#draft")
    shot(page, width, "draft")

    # swap the first seat of table 1 with the first of table 2
    tables = RoundDraft.objects.get().tables
    a, b = tables[0][0], tables[1][0]
    page.select_option("#swap-a", a)
    page.select_option("#swap-b", b)
    page.click("#draft-swap button")
    expect(page.locator(".messages")).to_contain_text("Swapped.")
    tables = RoundDraft.objects.get().tables
    assert tables[0][0] == b and tables[1][0] == a

    # a bye to the last player of the table of 3
    three = next(t for t in tables if len(t) == 3)
    page.select_option("#bye-player", three[-1])
    page.click("#draft-give-bye button")
    expect(page.locator("#draft-byes")).to_contain_text(three[-1])

    # the player at table 2 must sit at table 1: their table moves there
    moving = RoundDraft.objects.get().tables[1]
    page.select_option("#fix-player", moving[0])
    page.select_option("#fix-table", "1")
    page.click("#draft-fix button")
    expect(page.locator("#draft-table-1")).to_contain_text(moving[0])
    drafted = RoundDraft.objects.get()
    assert drafted.tables[0] == moving and drafted.byes == [three[-1]]

    page.click("#publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is published")
    expect(page.locator("#draft")).to_have_count(0)
    round_ = tournament.round_set.get()
    seated = [
        [s.user.username for s in sorted(t.game.seats.all(), key=lambda s: s.index)]
        for t in round_.tables.order_by("number")
    ]
    assert seated == drafted.tables
    assert [e.user.username for e in round_.byes.all()] == [three[-1]]
    assert Tournament.objects.get().status == Tournament.Status.RUNNING
    if width == 390:
        fits(page)
    shot(page, width, "published")

    # a player at table 1 sees it first, on a phone too
    player = drafted.tables[0][1]
    sign_in(page, player)
    page.goto(f"/tournaments/{tournament.pk}/")
    card = page.locator("#your-table")
    expect(card).to_contain_text("Your table: 1")
    expect(card).to_contain_text(f"Against {drafted.tables[0][0]}")
    assert card.bounding_box()["y"] < page.locator(".facts").bounding_box()["y"]
    if width == 390:
        assert card.bounding_box()["y"] < 300, "the card is on the first screen of a phone"
        fits(page)
        tall_enough(page, "#your-table")
    shot(page, width, "your-table")

    # the printed round lists everyone from A to Z
    page.goto(f"/tournaments/{tournament.pk}/rounds/1/print/")
    rows = page.locator("#find-your-table tbody tr")
    expect(rows).to_have_count(len(PLAYERS))
    names = [rows.nth(i).locator("td").first.inner_text() for i in range(len(PLAYERS))]
    assert names == sorted(PLAYERS)
    expect(page.locator("#find-your-table")).to_contain_text("bye")

    # and so does the projector, beside the tables, turning its pages by itself
    page.goto(f"/tournaments/{tournament.pk}/projector/")
    listed = page.locator("#az-list li .az-name")
    expect(listed).to_have_count(len(PLAYERS))
    assert listed.all_inner_texts() == sorted(PLAYERS)
    if width == 390:
        fits(page)
