"""The choices page on a 390 px phone in headless Chromium: nothing scrolls sideways, every
control is big enough for a thumb, the time zone starts as the browser's own, and saving
stores the member's choices."""

from __future__ import annotations

import pytest

from inbox.models import Choices
from tests.accounts.browser import PHONE, fits_a_phone
from tests.games.test_browser import browser_page

pytestmark = pytest.mark.browser


@pytest.fixture
def athens_phone(live_server, transactional_db):
    yield from browser_page(live_server, viewport=PHONE, timezone_id="Europe/Athens")


def test_the_choices_page_fits_a_phone_and_guesses_the_zone(athens_phone, make_user):
    from playwright.sync_api import expect

    page = athens_phone
    alice = make_user("alice")
    page.goto("/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", "pw-for-tests-only")
    page.click("main button[type=submit]")
    page.goto("/inbox/choices/")
    expect(page.locator("#id_timezone")).to_have_value("Europe/Athens")
    expect(page.locator("#no-address")).to_be_visible()
    fits_a_phone(page)
    page.select_option("#id_mail_your_turn", "now")
    page.select_option("#id_digest_hour", "7")
    page.uncheck("#id_push_invitation")
    page.click("#choices button[type=submit]")
    expect(page.locator(".messages")).to_contain_text("Your choices are saved.")
    fits_a_phone(page)
    row = Choices.objects.get(user=alice)
    assert (row.mail["your_turn"], row.digest_hour, row.timezone) == ("now", 7, "Europe/Athens")
    assert row.push["invitation"] is False
