"""Two members in two headless Chromium windows, each on the home page, neither reloading: an
invitation, a club record to confirm, a dispute and a paired tournament round each raise the
other's bell (and the nav's counts) as they happen, over /api/me/stream/. Then the inbox page
lists them, and following one reads it and lowers the bell."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from games.play import services
from league.services import leagues, tournaments
from league.tournament_spec import TournamentSpec
from tests.accounts.browser import PHONE, fits_a_phone
from tests.games.test_browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS

pytestmark = pytest.mark.browser
PASSWORD = "pw-for-tests-only"  # what the make_user fixture gives
DSA = "deep-sea-adventure"


@pytest.fixture
def two_windows(live_server, transactional_db):
    """A desktop window and a phone window of one headless Chromium, failing the test on a
    script error in either."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the playwright package is not installed (pip install playwright)")
    if not Path(CHROMIUM).exists():
        pytest.skip(f"no Chromium at {CHROMIUM}: install Debian's chromium or set HADAL_CHROMIUM")
    errors: list[str] = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
        )
        pages = []
        for viewport in ({"width": 1366, "height": 900}, PHONE):
            context = browser.new_context(base_url=live_server.url, viewport=viewport)
            context.set_default_timeout(TIMEOUT_MS)
            page = context.new_page()
            page.on("pageerror", lambda exc: errors.append(str(exc)))
            pages.append(page)
        yield pages
        browser.close()
    assert not errors, f"the pages raised script errors: {errors}"


def sign_in(page, username: str) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator(".nav-user")).to_have_text(username)


def bell(page):
    return page.locator("#nav-bell-count")


def test_the_bell_rises_without_a_reload_for_each_thing_that_waits(two_windows, make_user):
    from playwright.sync_api import expect

    olga_user, mia_user = make_user("olga"), make_user("mia")
    club = leagues.league_create(name="Harbour Club", created_by=olga_user)
    club.membership_set.create(user=mia_user)
    olga, mia = two_windows
    sign_in(olga, "olga")
    sign_in(mia, "mia")
    for page in (olga, mia):
        page.goto("/")
        expect(bell(page)).to_be_hidden()
    mia.wait_for_function("document.body.dataset.streamOpen === '1'")
    olga.wait_for_function("document.body.dataset.streamOpen === '1'")

    # 1. An invitation: mia's bell and her Invitations count, and "Waiting for you".
    game = services.game_create(
        slug=DSA, seats=[{"user": "olga"}, {"user": "mia"}], options={}, created_by=olga_user
    )
    expect(bell(mia)).to_have_text("1")
    expect(mia.locator("#nav-invitations-count")).to_have_text("1")
    expect(mia.locator("#waiting-list")).to_contain_text(
        "You are invited to play Deep Sea Adventure with olga"
    )

    # 2. A club record naming her, to confirm.
    as_olga, as_mia = APIClient(), APIClient()
    as_olga.force_authenticate(olga_user)
    as_mia.force_authenticate(mia_user)
    recorded = as_olga.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-11-20",
            "results": [{"player": "olga", "rank": 1}, {"player": "mia", "rank": 2}],
        },
        format="json",
    )
    assert recorded.status_code == 201, recorded.content
    expect(bell(mia)).to_have_text("2")
    expect(mia.locator("#waiting-list")).to_contain_text(
        "olga recorded a game of Deep Sea Adventure with you: confirm it"
    )

    # 3. Mia disputes it: olga, who recorded it and owns the club, is told.
    record_id = recorded.json()["id"]
    disputed = as_mia.post(f"/api/matches/{record_id}/dispute/", {"reason": "I won"}, format="json")
    assert disputed.status_code == 201, disputed.content
    expect(olga.locator("#waiting-list")).to_contain_text(
        "mia disputes the result of a game of Deep Sea Adventure: settle it"
    )
    expect(bell(olga)).to_have_text("1")  # the dispute (no turn is hers before mia accepts)
    expect(bell(mia)).to_have_text("1")  # disputed, her record no longer waits for her

    # 4. A tournament round paired: mia's table.
    cup = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Harbour Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["olga", "mia"],
        ),
        created_by=olga_user,
    )
    tournaments.round_pair(tournament=cup, by=olga_user)
    expect(bell(mia)).to_have_text("2")
    fits_a_phone(mia)

    # The inbox lists them, newest first; following one reads it and lowers the bell.
    mia.click("#nav-bell")
    notices = mia.locator("#notice-list .notice")
    expect(notices.first).to_contain_text("Round 1 of Harbour Cup: you play at table 1")
    expect(mia.locator("#notice-list")).to_contain_text("You are invited to play")
    fits_a_phone(mia)
    mia.click("#notice-list .notice >> text=You are invited to play")
    expect(mia).to_have_url(re.compile(rf"/games/{game.pk}/$"))
    expect(bell(mia)).to_have_text("1")
