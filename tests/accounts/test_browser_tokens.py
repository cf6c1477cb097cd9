"""The API tokens page in headless Chromium on a phone (390 px): make a token, copy its key,
use it, revoke it after confirming; nothing scrolls sideways and every control can be tapped.

Uses the Playwright harness of tests/games/test_browser.py (its ``page`` fixture skips without
Chromium or playwright)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.games.test_browser_phone import PHONE, check_phone_layout, check_phone_page

pytestmark = pytest.mark.browser


def sign_in(page, username: str) -> None:  # noqa: F811
    page.goto("/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", "pw-for-tests-only")
    page.click("main button[type=submit]")
    page.wait_for_url("**/")


def test_a_token_made_copied_used_and_revoked_on_a_phone(page, alice):  # noqa: F811
    from playwright.sync_api import expect

    page.set_viewport_size(PHONE)
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_in(page, "alice")
    check_phone_page(page, "/accounts/tokens/")
    expect(page.locator("main")).to_contain_text("You have no tokens.")

    page.fill("input[name=name]", "my score app")
    page.check("input[name=scopes][value=record]")  # read is ticked already
    page.click("#make-token")
    key = page.locator("#new-key-value").inner_text()
    assert key.startswith("hdl_")
    page.click("#new-key button[data-copy]")
    expect(page.locator("#new-key button[data-copy]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == key
    check_phone_layout(page, "/accounts/tokens/ with the new key")
    token = page.locator("#token-list .token").first
    expect(token).to_contain_text("my score app")
    expect(token).to_contain_text("never used")
    assert set(ApiToken.objects.get(user=alice).scopes) == {"read", "record"}

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    assert api.get("/api/games/").status_code == 200

    page.goto("/accounts/tokens/")
    assert key not in page.content()  # shown that once only
    page.click("#token-list .token-revoke summary")
    check_phone_layout(page, "/accounts/tokens/ asking to confirm")
    confirm = page.locator("#token-list .token-revoke button[type=submit]")
    expect(confirm).to_be_visible()
    box = confirm.bounding_box()
    assert box["x"] + box["width"] <= PHONE["width"] and box["height"] >= 40
    confirm.click()
    expect(page.locator(".messages")).to_contain_text("“my score app” is revoked")
    expect(page.locator("main")).to_contain_text("You have no tokens.")
    assert api.get("/api/games/").status_code == 401


def test_a_bot_account_is_marked_on_the_game_page_and_its_moves_refused_there(  # noqa: F811
    page, alice, make_user
):
    from playwright.sync_api import expect

    from games.play import services
    from league.services import bot_accounts

    robo = make_user("robo")
    bot_accounts.bot_account_make(user=robo)
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "robo"}],
        options={},
        created_by=alice,
    )
    page.set_viewport_size(PHONE)
    sign_in(page, "robo")
    page.goto(f"/games/{game.pk}/")
    expect(page.locator("#bot-account-note")).to_contain_text("plays this game through the API")
    robo_row = page.locator(".player-list li[data-seat='1']")
    expect(robo_row.locator(".bot-account")).to_have_text("bot")
    expect(page.locator(".player-list li[data-seat='0'] .bot-account")).to_have_count(0)
    check_phone_layout(page, f"/games/{game.pk}/ seen by a bot account")
