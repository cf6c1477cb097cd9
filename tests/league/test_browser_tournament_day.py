"""Event day from the pages, in a real headless Chromium, on a phone (390 px) and a desktop: the
organiser shares the work with a co-organiser, who pairs the rounds; a player finds their own
table at the top of the page on the phone; the standings as they stood after round 1; and the
venue closing after round 2 of 3, the co-organiser ends the event and the standings are final.
Nothing is wider than the phone, and the buttons are at least 44 px tall there."""

from __future__ import annotations

import pytest

from league.models import TournamentEvent
from league.selectors import tournament_standings
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in
from tests.league.test_browser_tournament_entries import (
    DESKTOP,
    PHONE,
    fits_screen,
    shot,
    tall_enough,
)
from tests.league.tournament_steps import harbour_night, settle_round

pytestmark = pytest.mark.browser
PLAYERS = ("ann", "ben", "cat", "dan")


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_co_organiser_runs_the_day_and_ends_it_when_the_venue_closes(page, make_user, screen):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(screen)
    tournament, users = harbour_night(make_user, PLAYERS)  # three rounds
    make_user("cora")

    def settle() -> None:  # every table of the latest round: its first seat wins
        latest = tournament.round_set.filter(void=False).order_by("-number").first()
        settle_round(tournament, users["org"], latest)

    url = f"/tournaments/{tournament.pk}/"

    sign_in(page, "org")
    page.goto(url)
    page.fill("#add-organiser input[name=player]", "cora")
    page.click("#add-organiser button")
    expect(page.locator(".messages")).to_contain_text("cora")
    expect(page.locator("#end-now")).to_have_count(0)  # nothing played yet

    # The co-organiser pairs round 1 from her own page.
    sign_in(page, "cora")
    page.goto(url)
    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 1 is paired.")

    # A player's own table comes first, in the first screen of a phone.
    sign_in(page, "dan")
    page.goto(url)
    card = page.locator("#your-table")
    expect(card).to_contain_text("round 1")
    assert card.bounding_box()["y"] < screen["height"], "the player's table is below the fold"
    table = tournament.round_set.get().tables.get(game__seats__user__username="dan")
    expect(card.locator(".your-table-number")).to_have_text(str(table.number))
    fits_screen(page, screen)
    shot(page, f"day-your-table-{screen['width']}")

    settle()
    sign_in(page, "cora")
    page.goto(url)
    page.click("#pair-publish")
    expect(page.locator(".messages")).to_contain_text("Round 2 is paired.")
    after_1 = [row["player"] for row in tournament_standings(tournament, after_round=1)]
    settle()

    # The standings as they stood after round 1.
    page.goto(url)
    page.select_option("#standings-round-select", "1")
    page.click("#standings-round button")
    expect(page.locator("#standings h2")).to_have_text("Standings after round 1")
    shown = page.locator("#standings tbody tr td:nth-child(2)").all_inner_texts()
    assert [text.split()[0] for text in shown] == after_1

    # The venue closes: cora ends it after round 2 of 3.
    page.goto(url)
    page.click("#end-now summary")
    if screen is PHONE:
        tall_enough(page, "#end-now-confirm")
    fits_screen(page, screen)
    page.click("#end-now-confirm")
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    ended = TournamentEvent.objects.get(tournament=tournament, kind="TournamentFinished")
    assert ended.data["early"] is True and ended.data["rounds"] == 2
    expect(page.locator(".messages")).to_contain_text(f"{ended.data['champion']} won")
    expect(page.locator("#champion")).to_contain_text(ended.data["champion"])
    expect(page.locator("#log")).to_contain_text("cora ended the tournament after round 2")
    expect(page.locator("#pair-next")).to_have_count(0)
    shot(page, f"day-ended-{screen['width']}")
