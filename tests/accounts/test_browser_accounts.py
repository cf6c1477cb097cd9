"""Accounts in a real headless Chromium on a 390 px phone: sign up with an e-mail address and
confirm it from the mail, sign out, get a new password by mail, sign in by the address with
it; and every account page fits a phone and a desktop. The steps live in
tests/accounts/browser.py, for longer journeys to reuse."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model

from tests.accounts.browser import (  # noqa: F401  (fixtures)
    DESKTOP,
    PHONE,
    fits_a_phone,
    new_password_by_mail,
    phone_page,
    sign_in,
    sign_out,
    verified_member,
)

pytestmark = pytest.mark.browser


def test_sign_up_confirm_forget_the_password_and_sign_in_by_address(phone_page, verified_member):
    from playwright.sync_api import expect

    page = phone_page
    marina = verified_member("marina")
    user = get_user_model().objects.get(username="marina")
    assert EmailAddress.objects.get(user=user).verified

    sign_out(page)
    new_password_by_mail(page, marina, "the-Second-passphrase-9")
    sign_in(page, marina.email, marina.password)
    expect(page.locator(".nav-user")).to_have_text("marina")
    user.refresh_from_db()
    assert user.check_password("the-Second-passphrase-9")
    fits_a_phone(page)


@pytest.mark.parametrize("screen", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_every_account_page_fits_the_screen(phone_page, verified_member, screen):
    from playwright.sync_api import expect

    page = phone_page
    page.set_viewport_size(screen)
    verified_member("marina")
    signed_in = {
        "/accounts/settings/": "Settings",
        "/accounts/email/": "Your e-mail address",
        "/accounts/password/change/": "Change your password",
        "/accounts/logout/": "Sign out?",
        "/accounts/reauthenticate/": "Your password, please",
        "/accounts/confirm-email/made-up/": "This link no longer works",
    }
    for path, heading in signed_in.items():
        page.goto(path)
        expect(page.locator("main h1")).to_have_text(heading)
        fits_a_phone(page)
    page.goto("/accounts/password/change/")
    page.fill("#id_oldpassword", "not it")
    page.fill("#id_password1", "the-Second-passphrase-9")
    page.fill("#id_password2", "the-Second-passphrase-9")
    page.click("main button[type=submit]")
    expect(page.locator(".field-error")).to_contain_text("current password")
    fits_a_phone(page)
    sign_out(page)
    signed_out = {
        "/accounts/login/": "Sign in",
        "/accounts/signup/": "Sign up",
        "/accounts/password/reset/": "Forgot your password?",
        "/accounts/password/reset/done/": "Check your mail",
        "/accounts/password/reset/key/1-made-up/": "This link no longer works",
        "/accounts/password/reset/key/done/": "Your password is changed",
        "/accounts/confirm-email/": "Check your mail",
        "/accounts/inactive/": "This account is closed",
    }
    for path, heading in signed_out.items():
        page.goto(path)
        expect(page.locator("main h1")).to_have_text(heading)
        fits_a_phone(page)
    # A refused sign-up, its errors shown in place.
    page.goto("/accounts/signup/")
    page.fill("#id_username", "bot-random")
    page.fill("#id_email", "someone@example.org")
    page.fill("#id_password1", "the-Second-passphrase-9")
    page.fill("#id_password2", "the-Second-passphrase-9")
    page.click("main button[type=submit]")
    expect(page.locator(".field-error")).to_contain_text('"bot-" are kept for the bots')
    fits_a_phone(page)
