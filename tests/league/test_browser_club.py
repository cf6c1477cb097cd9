"""A club's pages in a real headless Chromium, on a phone (390 px wide) and on a desktop: a
player page with its charts, history and head to head, and a league's standings, neither
scrolling sideways.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import pytest

from league.models import RatingChange
from league.services import leagues
from league.services.ratings import ratings_update
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.members import join

pytestmark = pytest.mark.browser
WIDTHS = (390, 1400)


@pytest.fixture
def club(make_user):
    org = make_user("organiser-with-a-long-name")
    for name in ("ann", "benedict-the-diver", "cat"):
        make_user(name)
    league = leagues.league_create(name="The Harbour and Trench Society", created_by=org)
    for name in ("ann", "benedict-the-diver", "cat"):
        join(league, name, by=org)
    leagues.season_add(league=league, name="Autumn", starts_on="2026-09-01", by=org)
    for day in range(1, 13):
        ranks = [1, 2, 3] if day % 3 else [3, 1, 2]
        leagues.match_record(
            game="oceans" if day % 2 else "deep-sea-adventure",
            played_at=f"2026-10-{day:02d}",
            league=league.slug,
            results=[
                {"player": "ann", "rank": ranks[0], "score": 50 - 10 * ranks[0]},
                {"player": "benedict-the-diver", "rank": ranks[1], "score": 50 - 10 * ranks[1]},
                {
                    "player": "Zoe from next door",
                    "rank": ranks[2],
                    "guest": True,
                    "score": 50 - 10 * ranks[2],
                },
            ],
            recorded_by=org,
        )
    for slug in ("oceans", "deep-sea-adventure"):
        ratings_update(slug=slug)
    return league


def scrolls_sideways(page) -> bool:
    return page.evaluate(
        "document.documentElement.scrollWidth > document.documentElement.clientWidth"
    )


@pytest.mark.parametrize("width", WIDTHS)
def test_the_player_page_fits_the_screen(page, club, width):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    page.goto("/players/ann/?vs=benedict-the-diver")
    expect(page.locator("#game-oceans .rating-chart")).to_be_visible()
    # the rating shown (Glicko-2) after ann's first game, not the Elo (1516)
    first = RatingChange.objects.filter(user__username="ann", slug="oceans").first()
    assert round(first.glicko_rating_after) != round(first.after)
    expect(page.locator("#game-oceans .rating-chart circle title").first).to_have_text(
        f"1 Oct 2026: {round(first.glicko_rating_after)}"
    )
    expect(page.locator("#head-to-head")).to_contain_text("12 games together")
    expect(page.locator("#history tbody tr")).to_have_count(12)
    assert not scrolls_sideways(page)


@pytest.mark.parametrize("width", WIDTHS)
def test_the_league_standings_fit_the_screen(page, club, width):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size({"width": width, "height": 900})
    page.goto(f"/leagues/{club.slug}/")
    rows = page.locator("#standings tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.first).to_contain_text("ann")
    page.click("#standings nav[aria-label=Game] >> text=Oceans (with The Deep promo pack 2)")
    expect(page.locator("#standings [aria-current=page]").last).to_have_text(
        "Oceans (with The Deep promo pack 2)"
    )
    assert not scrolls_sideways(page)
