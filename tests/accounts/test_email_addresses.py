"""A member's e-mail address: verified by a link (once; a used or stale link says so), changed
for a new one that is verified in its turn, the one mail goes to, and gone with an erased
account."""

from __future__ import annotations

import time
from unittest import mock

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.addresses import verified_address
from tests.accounts.mails import path_of, sent_to, the_link

pytestmark = pytest.mark.django_db


def address(user, email, *, verified, primary=True) -> EmailAddress:
    return EmailAddress.objects.create(user=user, email=email, primary=primary, verified=verified)


def confirmation_link(email: str) -> str:
    return path_of(the_link(sent_to(email)[-1], "/accounts/confirm-email/"))


def test_a_link_verifies_the_address_once(client, alice):
    address(alice, "alice@example.org", verified=False)
    client.force_login(alice)
    client.post(
        "/accounts/email/",
        {"email": "alice@example.org", "action_send": "", "next": "/accounts/settings/"},
    )
    link = confirmation_link("alice@example.org")
    client.logout()  # the link works in any browser, signed in or not
    page = client.get(link).content.decode()
    assert "Is <strong>alice@example.org</strong> the address of the Hadal account" in page
    assert not EmailAddress.objects.get(user=alice).verified  # opening it is not enough
    confirmed = client.post(link, follow=True)
    assert confirmed.redirect_chain[0][0] == "/accounts/login/"
    assert "alice@example.org is confirmed" in confirmed.content.decode()
    assert EmailAddress.objects.get(user=alice).verified
    assert verified_address(alice) == "alice@example.org"
    # Pressed again, or opened again: the link has done its work and says so.
    for again in (client.post(link), client.get(link)):
        assert again.status_code == 200
        assert "This link no longer works" in again.content.decode()


def test_a_stale_or_made_up_link_says_so_plainly(client, alice):
    address(alice, "alice@example.org", verified=False)
    client.force_login(alice)
    client.post("/accounts/email/", {"email": "alice@example.org", "action_send": ""})
    link = confirmation_link("alice@example.org")
    assert "Yes, confirm it" in client.get(link).content.decode()
    four_days_on = time.time() + 4 * 86400
    with mock.patch("django.core.signing.time.time", return_value=four_days_on):
        stale = client.get(link).content.decode()
        assert "This link no longer works" in client.post(link).content.decode()
    assert "This link no longer works" in stale and "more than 3 days old" in stale
    made_up = client.get("/accounts/confirm-email/nonsense/").content.decode()
    assert "This link no longer works" in made_up
    assert not EmailAddress.objects.get(user=alice).verified


def test_a_change_of_address_waits_for_the_new_one_to_be_verified(client, alice):
    address(alice, "alice@example.org", verified=True)
    client.force_login(alice)
    response = client.post("/accounts/email/", {"email": "alice@new.example", "action_add": ""})
    assert response.status_code == 302
    rows = {a.email: (a.primary, a.verified) for a in EmailAddress.objects.filter(user=alice)}
    assert rows == {"alice@example.org": (True, True), "alice@new.example": (False, False)}
    assert verified_address(alice) == "alice@example.org"  # mail still goes to the old one
    email_page = client.get("/accounts/email/").content.decode()
    assert "Changing to <strong>alice@new.example</strong>" in email_page
    client.post(confirmation_link("alice@new.example"))
    [row] = EmailAddress.objects.filter(user=alice)
    assert (row.email, row.primary, row.verified) == ("alice@new.example", True, True)
    alice.refresh_from_db()
    assert alice.email == "alice@new.example" and verified_address(alice) == "alice@new.example"
    # The old address hears of it, in case it was not alice.
    [notice] = sent_to("alice@example.org")
    assert notice.subject == "Your Hadal e-mail address was changed"
    assert "from alice@example.org to alice@new.example" in notice.body


def test_a_change_can_be_called_off_and_bad_input_changes_nothing(client, alice):
    address(alice, "alice@example.org", verified=True)
    client.force_login(alice)
    for bad in ("", "not an address", "alice@example.org"):
        page = client.post("/accounts/email/", {"email": bad, "action_add": ""})
        assert page.status_code == 200 and 'class="field-error"' in page.content.decode()
    assert EmailAddress.objects.filter(user=alice).count() == 1
    client.post("/accounts/email/", {"email": "alice@new.example", "action_add": ""})
    client.post("/accounts/email/", {"email": "alice@new.example", "action_remove": ""})
    [row] = EmailAddress.objects.filter(user=alice)
    assert (row.email, row.verified) == ("alice@example.org", True)


def test_a_link_for_a_new_address_opened_after_another_change_no_longer_works(client, alice):
    client.force_login(alice)
    client.post("/accounts/email/", {"email": "first@example.org", "action_add": ""})
    first = confirmation_link("first@example.org")
    client.post("/accounts/email/", {"email": "second@example.org", "action_add": ""})
    assert "This link no longer works" in client.post(first).content.decode()
    assert not EmailAddress.objects.filter(user=alice, verified=True).exists()


def test_the_mail_goes_only_to_a_verified_primary_address(alice, bob):
    assert verified_address(alice) is None
    address(alice, "alice@example.org", verified=False)
    assert verified_address(alice) is None
    address(bob, "bob@example.org", verified=True)
    address(bob, "bob@new.example", verified=False, primary=False)
    assert verified_address(bob) == "bob@example.org"


def test_erasing_an_account_takes_its_addresses(alice):
    from accounts.people import erase_account

    address(alice, "alice@example.org", verified=True)
    erase_account(alice)
    assert not EmailAddress.objects.filter(user=alice).exists()


def test_mail_is_built_with_the_address_the_member_used(client, alice, settings):
    """Links in mails name the host the request came to (one of ALLOWED_HOSTS, checked by
    Django) and its scheme; where the site redirects to https, its links are https whatever
    the request said."""
    address(alice, "alice@example.org", verified=False)
    client.force_login(alice)
    send = {"email": "alice@example.org", "action_send": ""}
    client.post("/accounts/email/", send, secure=True)
    assert the_link(mail.outbox[-1], "/accounts/confirm-email/").startswith("https://testserver/")
    refused = client.post("/accounts/email/", send, HTTP_HOST="evil.example")
    assert refused.status_code == 400 and len(mail.outbox) == 1
    settings.ACCOUNT_DEFAULT_HTTP_PROTOCOL = "https"
    settings.ACCOUNT_RATE_LIMITS = {"confirm_email": None}  # no cool-down between the two
    client.post("/accounts/email/", send)
    assert len(mail.outbox) == 2
    assert the_link(mail.outbox[-1], "/accounts/confirm-email/").startswith("https://testserver/")
