"""A member's way in, driven in Chromium, for the browser tests to build journeys on: sign up
with an e-mail address and confirm it from the mail, sign out and in, get a new password by
mail. Mail is read from django.core.mail.outbox, which the live server's thread fills in this
process.

    from tests.accounts.browser import phone_page, verified_member  # noqa: F401 (fixtures)

    def test_a_journey(phone_page, verified_member):
        marina = verified_member("marina")   # signed up, confirmed, signed in, on the phone
        ...

Every step checks the page it lands on fits a phone (:func:`fits_a_phone`)."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

import pytest
from django.core import mail

from tests.games.test_browser import browser_page

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1400, "height": 1000}
TAP_PX = 40  # the least height of anything a thumb presses
READABLE_PX = 16  # below this, phones zoom into an input
PASSWORD = "a-long-Passphrase-42"
LINK = re.compile(r"https?://\S+")


@dataclass
class Member:
    username: str
    email: str
    password: str


@pytest.fixture
def phone_page(live_server, transactional_db):
    """A page in headless Chromium on a 390 px phone screen."""
    yield from browser_page(live_server, viewport=PHONE)


@pytest.fixture
def verified_member(phone_page):
    """Makes members through the pages: ``verified_member("marina")`` signs up with an address,
    confirms it from the mail and is left signed in."""

    def make(username: str, email: str | None = None, password: str = PASSWORD) -> Member:
        member = Member(username, email or f"{username}@example.org", password)
        sign_up(phone_page, member)
        confirm_address(phone_page, member)
        return member

    return make


# -- reading mail ---------------------------------------------------------------------------------


def mail_to(address: str, subject: str, timeout: float = 10.0):
    """The newest mail to ``address`` whose subject holds ``subject``, waiting for it a while
    (the live server sends it from its own thread)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = [m for m in mail.outbox if address in m.to and subject in m.subject]
        if found:
            return found[-1]
        time.sleep(0.05)
    raise AssertionError(
        f"no mail to {address} about {subject!r}: {[m.subject for m in mail.outbox]}"
    )


def link_in(message, path: str) -> str:
    """The link in ``message`` to a page under ``path``, as a path the page can go to (the mail
    names the live server's host, which the page's base URL already is)."""
    [url] = [u for u in LINK.findall(message.body) if urlsplit(u).path.startswith(path)]
    return urlsplit(url).path


# -- the pages ---------------------------------------------------------------------------------


def fits_a_phone(page) -> None:
    """Nothing scrolls sideways; inputs are at least 16 px (phones zoom into smaller ones) and
    as tall as anything pressed is (40 px)."""
    widths = page.evaluate(
        "[document.documentElement.scrollWidth, document.documentElement.clientWidth]"
    )
    assert widths[0] <= widths[1], f"{page.url} scrolls sideways: {widths}"
    faults = page.evaluate(
        """([tap, readable]) => Array.from(document.querySelectorAll(
              'main input:not([type=hidden]), main select, main textarea, main button, ' +
              'main .button, main .account-links a, main .check-field label'))
            .filter((e) => e.getBoundingClientRect().width > 0)
            .map((e) => {
              const r = e.getBoundingClientRect();
              const font = parseFloat(getComputedStyle(e).fontSize);
              const typed = e.matches('input:not([type=checkbox]), select, textarea');
              const small = (typed || !e.matches('input')) && r.height < tap;
              return (small || (typed && font < readable))
                ? `${e.outerHTML.slice(0, 70)} (${Math.round(r.height)} px high, ${font} px)`
                : null; })
            .filter(Boolean)""",
        [TAP_PX, READABLE_PX],
    )
    assert faults == [], f"{page.url}: too small for a phone: {faults}"


def open_menu(page) -> None:
    """On a phone the nav's links fold behind Menu."""
    if page.locator(".nav-toggle").is_visible():
        if page.locator(".nav-toggle").get_attribute("aria-expanded") != "true":
            page.click(".nav-toggle")


def sign_up(page, member: Member) -> None:
    """Sign up with an address: signed in, on the games list, a link on its way."""
    from playwright.sync_api import expect

    page.goto("/accounts/signup/")
    fits_a_phone(page)
    page.fill("#id_username", member.username)
    page.fill("#id_email", member.email)
    page.fill("#id_password1", member.password)
    page.fill("#id_password2", member.password)
    page.click("main button[type=submit]")
    expect(page.locator(".messages")).to_contain_text(f"We have sent a link to {member.email}")
    expect(page.locator(".nav-user")).to_have_text(member.username)


def confirm_address(page, member: Member) -> None:
    """Open the link from the sign-up mail and confirm: the settings say it is confirmed."""
    from playwright.sync_api import expect

    message = mail_to(member.email, "confirm your e-mail address")
    page.goto(link_in(message, "/accounts/confirm-email/"))
    expect(page.locator("main h1")).to_have_text("Confirm your e-mail address")
    fits_a_phone(page)
    page.click("main button:has-text('Yes, confirm it')")
    page.wait_for_url("**/accounts/settings/")
    expect(page.locator("#email")).to_contain_text(f"{member.email} confirmed")
    fits_a_phone(page)


def sign_out(page) -> None:
    from playwright.sync_api import expect

    open_menu(page)
    page.click("nav >> text=Sign out")
    expect(page.locator(".messages")).to_contain_text("You are signed out.")
    expect(page.locator(".nav-user")).to_have_count(0)


def sign_in(page, login: str, password: str) -> None:
    """Sign in by username or e-mail address; lands on the games list, signed in."""
    page.goto("/accounts/login/")
    fits_a_phone(page)
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(lambda url: urlsplit(url).path == "/")


def new_password_by_mail(page, member: Member, password: str) -> None:
    """Forgot the password: ask from the sign-in page, follow the mail's link, set another."""
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.click("text=Forgot your password?")
    expect(page.locator("main h1")).to_have_text("Forgot your password?")
    fits_a_phone(page)
    page.fill("#id_email", member.email)
    page.click("main button:has-text('Send me the link')")
    expect(page.locator("main h1")).to_have_text("Check your mail")
    fits_a_phone(page)
    message = mail_to(member.email, "A new password for Hadal")
    page.goto(link_in(message, "/accounts/password/reset/key/"))
    expect(page.locator("main h1")).to_have_text("Choose a new password")
    fits_a_phone(page)
    page.fill("#id_password1", password)
    page.fill("#id_password2", password)
    page.click("main button:has-text('Set my new password')")
    expect(page.locator("main h1")).to_have_text("Your password is changed")
    fits_a_phone(page)
    member.password = password
