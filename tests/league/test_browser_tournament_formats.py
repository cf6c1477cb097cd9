"""Double elimination and pools then a playoff, run from the pages in a real headless
Chromium: the organiser creates each event through the form, pairs every round and settles
every table with the page's own form, to the champion. Double elimination on a phone (390
px), where nothing is wider than the screen and the brackets stack; pools on a desktop.

Set HADAL_SCREENSHOT to save the pages to /tmp/hadal-formats-*.png.
"""

from __future__ import annotations

import os
import re

import pytest

from league.models import Tournament
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in, tables_of
from tests.league.test_browser_tournament_run import fits

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan")


def shot(page, name: str) -> None:
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=f"/tmp/hadal-formats-{name}.png", full_page=True)


def create(page, format_: str, fill: dict[str, str]) -> Tournament:
    page.goto("/tournaments/new/")
    page.fill("#id_name", f"Trench {format_}")
    page.select_option("#id_game", "deep-sea-adventure")
    page.select_option("#id_format", format_)
    page.select_option("#id_mode", "table")
    page.fill("#id_table_size", "2")
    page.fill("#id_players", "\n".join(PLAYERS))
    for selector, value in fill.items():
        page.fill(selector, value)
    page.click("text=Create the tournament")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    return Tournament.objects.get(format=format_)


def settle_every_table(page, tournament: Tournament, number: int) -> None:
    """The organiser settles each table of round ``number``: the first seat wins."""
    from playwright.sync_api import expect

    for table, _ in tables_of(tournament, number):
        page.goto(f"/tournaments/{tournament.pk}/")
        page.click(f"#table-{table} >> text=Organiser: settle this table")
        form = page.locator(f"#override-{table}")
        for seat, (rank, score) in enumerate([(1, 9), (2, 4)]):
            form.locator(f"[name='t{table}-override-rank_{seat}']").fill(str(rank))
            form.locator(f"[name='t{table}-override-score_{seat}']").fill(str(score))
        form.locator("button[type=submit]").click()
        expect(page.locator(".messages")).to_contain_text("the result is final")


def run_to_the_champion(page, tournament: Tournament, start: int = 1) -> int:
    """Pair and settle rounds from ``start`` until there is a champion; the rounds played."""
    from playwright.sync_api import expect

    for number in range(start, 12):
        page.goto(f"/tournaments/{tournament.pk}/")
        if page.locator("#champion").count():
            return number - 1
        page.click("#pair-publish")
        expect(page.locator(".messages")).to_contain_text(f"Round {number} is paired.")
        settle_every_table(page, tournament, number)
    raise AssertionError("no champion")


def test_double_elimination_from_the_page_at_390_px(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 390, "height": 844})
    for name in (*PLAYERS, "org"):
        make_user(name)
    sign_in(page, "org")
    page.goto("/tournaments/new/")
    page.select_option("#id_format", "double-elimination")
    expect(page.locator("#id_grand_final_reset")).to_be_visible()
    expect(page.locator("#id_pools")).to_be_hidden()
    tournament = create(page, "double-elimination", {})
    assert tournament.grand_final_reset

    page.click("#pair-publish")
    expect(page.locator("#round-1 .table-bracket").first).to_have_text("Winners' bracket round 1")
    expect(page.locator("#double-bracket h3").nth(0)).to_have_text("Winners' bracket")
    expect(page.locator("#double-bracket h3").nth(1)).to_have_text("Losers' bracket")
    expect(page.locator("#double-bracket h3").nth(2)).to_have_text("Grand final")
    fits(page)
    settle_every_table(page, tournament, 1)
    rounds = run_to_the_champion(page, tournament, start=2)
    # W1; W2 and L1; L2; the grand final, and a second game if the losers' champion won it
    finals = tournament.round_set.filter(tables__match__startswith="GF").count()
    assert rounds == 3 + finals and finals in (1, 2)
    champion = tournament.log.get(kind="TournamentFinished").data["champion"]
    expect(page.locator("#champion")).to_contain_text(f"Champion: {champion}")
    expect(page.locator("#double-bracket .placings li").first).to_have_text(f"1st {champion}")
    button = page.locator("#bracket-box").bounding_box()
    assert button is not None and button["width"] <= 390
    assert "W1-1" not in page.content()
    fits(page)
    shot(page, "double-390")


def test_pools_then_a_playoff_from_the_page_on_a_desktop(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 900})
    for name in (*PLAYERS, "org"):
        make_user(name)
    sign_in(page, "org")
    page.goto("/tournaments/new/")
    page.select_option("#id_format", "pools")
    expect(page.locator("#id_pools")).to_be_visible()
    expect(page.locator("#id_grand_final_reset")).to_be_hidden()
    tournament = create(page, "pools", {"#id_pools": "2", "#id_pool_advance": "1"})
    assert (tournament.pools, tournament.pool_advance, tournament.top_cut) == (2, 1, 2)

    rounds = run_to_the_champion(page, tournament)
    assert rounds == 2  # one round in each pool of two, then the final
    expect(page.locator("#round-2 h2")).to_have_text("Round 2 · playoff")
    expect(page.locator("#standings .pool-head")).to_have_count(2)
    expect(page.locator("#standings .pool-head").first).to_have_text("Pool A")
    expect(page.locator("#champion")).to_contain_text("Champion:")
    shot(page, "pools-desktop")
