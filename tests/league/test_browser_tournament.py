"""A table-mode tournament in a real headless Chromium: the organiser creates a four-player
Deep Sea Adventure Swiss through the form and pairs round 1; at each table one player reports
the result and the other confirms it; the standings follow; round 2 is paired and reported, and
the open page picks up a confirmation made elsewhere.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright). Set HADAL_SCREENSHOT to save the tournament page to
/tmp/hadal-tournament.png.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model

from league import selectors
from league.models import Tournament
from league.services import tournaments
from tests.games.test_browser import page  # noqa: F401  (the fixture)

SCREENSHOT = Path("/tmp/hadal-tournament.png")
PASSWORD = "pw-for-tests-only"  # what the make_user fixture gives
PLAYERS = ("ann", "ben", "cat", "dan")
User = get_user_model()

pytestmark = pytest.mark.browser


def sign_in(page, username: str) -> None:
    from playwright.sync_api import expect

    # The page a click led to may still be loading: its script folds the links away on a
    # phone (and shows the Menu button) once the document is parsed.
    page.wait_for_load_state("load")
    if page.locator(".nav-user").count():
        if page.locator(".nav-toggle").is_visible():  # a phone: the links are folded away
            page.click(".nav-toggle")
        page.click("nav >> text=Sign out")
    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator(".nav-user")).to_have_text(username)


def tables_of(tournament: Tournament, number: int) -> list[tuple[int, list[str]]]:
    round_ = tournament.round_set.get(number=number, void=False)
    return [(t.pk, selectors.table_out(t)["seats"]) for t in round_.tables.order_by("number")]


def report(
    page, tournament: Tournament, table: int, reporter: str, ranks: list[int], scores: list[int]
) -> None:
    from playwright.sync_api import expect

    sign_in(page, reporter)
    page.goto(f"/tournaments/{tournament.pk}/")
    form = page.locator(f"#report-{table}")
    for seat, (rank, score) in enumerate(zip(ranks, scores)):
        form.locator(f"[name='t{table}-report-rank_{seat}']").fill(str(rank))
        form.locator(f"[name='t{table}-report-score_{seat}']").fill(str(score))
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("reported, awaiting confirmation")
    expect(page.locator(f"#table-{table} .status")).to_have_text("awaiting confirmation")


def confirm(page, tournament: Tournament, table: int, confirmer: str) -> None:
    from playwright.sync_api import expect

    sign_in(page, confirmer)
    page.goto(f"/tournaments/{tournament.pk}/")
    card = page.locator(f"#table-{table}")
    expect(card).to_contain_text(f"waiting for {confirmer}")
    card.locator("button:has-text('Confirm this result')").click()
    expect(page.locator(".messages")).to_contain_text("the result is final")
    expect(page.locator(f"#table-{table} .status")).to_have_text("final")


def standings(page) -> list[tuple[str, str]]:
    rows = page.locator("#standings tbody tr")
    return [
        (
            rows.nth(i).locator("td").nth(1).locator("a").inner_text().strip(),
            rows.nth(i).locator("td.points").inner_text().strip(),
        )
        for i in range(rows.count())
    ]


def test_a_table_mode_swiss_through_the_pages(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    make_user("org")
    for name in PLAYERS:
        make_user(name)

    # The organiser sets the tournament up through the form.
    sign_in(page, "org")
    page.click("nav >> text=Tournaments")
    page.click("main >> text=New tournament")
    page.fill("#id_name", "Harbour Swiss")
    page.select_option("#id_game", "deep-sea-adventure")
    expect(page.locator("#id_starting_bid")).to_be_hidden()  # Deep Vents only
    page.select_option("#id_format", "swiss")
    page.select_option("#id_mode", "table")
    expect(page.locator("#id_move_seconds")).to_be_hidden()  # online only
    page.fill("#id_table_size", "2")
    page.fill("#id_rounds", "2")
    page.fill("#id_players", "\n".join(PLAYERS))
    page.click("text=Create the tournament")
    page.wait_for_url(re.compile(r"/tournaments/\d+/$"))
    tournament = Tournament.objects.get()
    assert (tournament.mode, tournament.table_size, tournament.rounds) == ("table", 2, 2)
    expect(page.locator("#tournament-status")).to_have_text("Open")
    expect(page.locator("#rounds")).to_contain_text("No round has been paired yet")

    # Round 1: two tables of two, published at once.
    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired.")
    expect(page.locator("#round-1 .table-card")).to_have_count(2)
    expect(page.locator("#tournament-status")).to_have_text("Running")
    assert all(points == "0" for _, points in standings(page))

    # A second press before the round is complete is refused with the reason.
    page.click("#pair-next")
    expect(page.locator("#action-error")).to_contain_text("round 1 is not complete yet")

    # At each table the first seat reports a win, the other confirms it.
    winners = []
    for table, (first, second) in tables_of(tournament, 1):
        report(page, tournament, table, first, [1, 2], [14, 9])
        confirm(page, tournament, table, second)
        winners.append(first)
    top = standings(page)
    assert sorted(top[:2]) == sorted((w, "1") for w in winners), top
    assert all(points == "0" for _, points in top[2:]), top

    # Round 2, paired by the organiser; one table reported and waiting for confirmation.
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    page.click("#pair-next")  # a draft, published as it stands
    page.click("#publish")
    expect(page.locator(".messages")).to_contain_text("Round 2 is published")
    (table, (first, second)), _ = tables_of(tournament, 2)
    report(page, tournament, table, first, [2, 1], [6, 11])
    sign_in(page, "org")
    page.goto(f"/tournaments/{tournament.pk}/")
    expect(page.locator(f"#table-{table}")).to_contain_text(f"waiting for {second}")
    expect(page.locator("#organiser")).to_be_visible()
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)

    # While the tournament runs the open page follows along: a confirmation made elsewhere
    # shows within the ten-second refresh, without a reload.
    before = dict(standings(page))
    tournaments.table_confirm(
        tournament=tournament,
        table=tournaments.table_get(tournament, table),
        user=User.objects.get(username=second),
        results=[
            {"player": first, "rank": 2, "score": 6},
            {"player": second, "rank": 1, "score": 11},
        ],
    )
    expect(page.locator(f"#table-{table} .status")).to_have_text("final", timeout=15_000)
    after = dict(standings(page))
    assert int(after[second]) == int(before[second]) + 1, (before, after)

    # The organiser settles the other table of round 2, which nobody reported: its form opens
    # from the table's link (the page draws no settle form until asked).
    _, (other, (third, fourth)) = tables_of(tournament, 2)
    expect(page.locator(f"#override-{other}")).to_have_count(0)
    page.click(f"#table-{other} >> text=Organiser: settle this table")
    form = page.locator(f"#override-{other}")
    expect(form).to_be_visible()
    for seat, (rank, score) in enumerate([(1, 8), (2, 3)]):
        form.locator(f"[name='t{other}-override-rank_{seat}']").fill(str(rank))
        form.locator(f"[name='t{other}-override-score_{seat}']").fill(str(score))
    form.locator("button[type=submit]").click()
    expect(page.locator(".messages")).to_contain_text("the result is final")
    expect(page.locator(f"#table-{other} .status")).to_have_text("final")
    expect(page.locator(f"#override-{other}")).to_have_count(0)
