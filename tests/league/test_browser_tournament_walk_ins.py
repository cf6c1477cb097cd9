"""A walk-in on the day, in a real headless Chromium, on a phone (390 px) and a desktop: the
organiser enters a player without an account by name and reads their code off the walk-in list;
the walk-in plays round 1 as a guest (no page of their own to link to); later they sign up and
claim the entry with the code from their slip, and the standings name them. The code is never on
another player's page; nothing is wider than the phone, and the buttons are at least 44 px tall.
"""

from __future__ import annotations

import pytest

from league.models import Entry
from league.services import tournaments
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in
from tests.league.test_browser_tournament_entries import (
    DESKTOP,
    PHONE,
    fits_screen,
    shot,
    tall_enough,
)
from tests.league.tournament_steps import harbour_night

pytestmark = pytest.mark.browser


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_walk_in_plays_as_a_guest_and_claims_the_entry_later(page, make_user, screen):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(screen)
    tournament, _ = harbour_night(make_user, ["ann", "ben", "cat"])
    make_user("walt")
    url = f"/tournaments/{tournament.pk}/"
    sign_in(page, "org")
    page.goto(url)
    page.fill("#walk-in input[name=name]", "Wendy")
    if screen is PHONE:
        tall_enough(page, "#walk-in button")
    page.click("#walk-in button")
    expect(page.locator(".messages")).to_contain_text("Wendy has entered as a walk-in")
    code = Entry.objects.get(tournament=tournament, guest="Wendy").claim_code
    shown = f"{code[:4]}-{code[4:]}"
    expect(page.locator(".messages")).to_contain_text(shown)
    expect(page.locator("#walk-ins")).to_contain_text("Wendy (guest)")
    expect(page.locator("#walk-ins .claim-code")).to_have_text(shown)
    fits_screen(page, screen)
    shot(page, f"walk-in-{screen['width']}")

    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired.")
    expect(page.locator("#round-1")).to_contain_text("Wendy (guest)")
    for table in tournament.round_set.get().tables.all():
        names = [s.user.username if s.user_id else s.guest for s in table.game.seats.all()]
        results = [
            {"player": names[0], "score": 8, "rank": 1},
            {"player": names[1], "score": 2, "rank": 2},
        ]
        tournaments.table_override(
            tournament=tournament, table=table, by=tournament.created_by, results=results
        )
    page.goto(url)
    row = page.locator("#standings tr", has_text="Wendy (guest)")
    expect(row).to_have_count(1)
    expect(row.locator("a")).to_have_count(0)  # a guest has no player page

    # Another player sees the walk-in, never the code.
    sign_in(page, "ann")
    page.goto(url)
    expect(page.locator("#standings")).to_contain_text("Wendy (guest)")
    assert shown not in page.content() and code not in page.content()
    expect(page.locator("#claim-entry")).to_have_count(0)  # ann has an entry

    # Wendy, signed up as walt, claims the entry with her slip.
    sign_in(page, "walt")
    page.goto(url)
    expect(page.locator("#claim-entry")).to_be_visible()
    page.fill("#claim-entry input[name=code]", "ABCD-EFGH")  # a slip misread: refused
    page.click("#claim-entry button")
    expect(page.locator("#claim-entry")).to_contain_text("check it with an organiser")
    assert Entry.objects.get(tournament=tournament, guest="Wendy").user_id is None
    page.fill("#claim-entry input[name=code]", shown.lower())
    if screen is PHONE:
        tall_enough(page, "#claim-entry button")
    fits_screen(page, screen)
    page.click("#claim-entry button")
    expect(page.locator(".messages")).to_contain_text("The entry of Wendy (guest) is yours now")
    expect(page.locator("#my-entry")).to_be_visible()
    expect(page.locator("#claim-entry")).to_have_count(0)
    standings = page.locator("#standings")
    expect(standings).not_to_contain_text("Wendy (guest)")
    expect(standings.locator("a", has_text="walt")).to_have_count(1)
    fits_screen(page, screen)
    shot(page, f"claimed-{screen['width']}")

    sign_in(page, "org")
    page.goto(url)
    expect(page.locator("#walk-ins")).to_contain_text("claimed by walt")
