"""Signing up: a username, a password, and an e-mail address if the member wants a way back
in. An address given is verified by a link in a mail; one already in use is not revealed."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.core import mail

from tests.accounts.mails import sent_to, the_link

pytestmark = pytest.mark.django_db
PASSWORD = "a-long-Passphrase-42"


def sign_up(client, **fields):
    data = {"username": "marina", "email": "", "password1": PASSWORD, "password2": PASSWORD}
    return client.post("/accounts/signup/", {**data, **fields})


def test_the_sign_up_page_says_what_an_address_is_for(client):
    page = client.get("/accounts/signup/").content.decode()
    assert "E-mail address (optional)" in page
    assert "Without one, a forgotten password is the end of your account" in page
    assert 'type="email"' in page and 'name="email"' in page


def test_sign_up_without_an_address_signs_in_and_sends_nothing(client):
    response = sign_up(client)
    assert response.status_code == 302 and response.url == "/"
    user = get_user_model().objects.get(username="marina")
    assert client.get("/").context["user"] == user
    assert not EmailAddress.objects.filter(user=user).exists() and user.email == ""
    assert mail.outbox == []


def test_sign_up_with_an_address_signs_in_and_sends_a_link_to_verify_it(client):
    response = sign_up(client, email="Marina@Example.org")
    assert response.status_code == 302 and response.url == "/"
    user = get_user_model().objects.get(username="marina")
    [address] = EmailAddress.objects.filter(user=user)
    assert (address.email, address.primary, address.verified) == ("marina@example.org", 1, 0)
    [message] = sent_to("marina@example.org")
    assert message.subject == "Welcome to Hadal: confirm your e-mail address"
    assert "signed up at Hadal as marina" in message.body
    assert the_link(message, "/accounts/confirm-email/").startswith("http://testserver/")
    page = client.get("/").content.decode()
    assert "We have sent a link to marina@example.org" in page


@pytest.mark.parametrize(
    "name, prefix, kept_for",
    [
        ("bot-random", "bot-", "the bots"),
        ("Bot-Greedy", "bot-", "the bots"),
        ("former-member-abc123", "former-member-", "deleted accounts"),
        ("Former-Member-x", "former-member-", "deleted accounts"),
    ],
)
def test_names_kept_for_bots_and_erased_accounts_are_refused(client, name, prefix, kept_for):
    response = sign_up(client, username=name, email="someone@example.org")
    assert response.status_code == 200
    said = f"Usernames starting with &quot;{prefix}&quot; are kept for {kept_for}; please"
    assert said in response.content.decode()
    assert not get_user_model().objects.filter(username__iexact=name).exists()
    assert mail.outbox == [] and not EmailAddress.objects.exists()


@pytest.mark.parametrize(
    "change, error",
    [
        ({"password2": "something-else-42"}, "You must type the same password each time."),
        ({"email": "not an address"}, "Enter a valid email address."),
        ({"username": ""}, "This field is required."),
        ({"password1": "123", "password2": "123"}, "This password is too short."),
    ],
)
def test_bad_input_is_refused_with_a_reason_and_creates_nothing(client, change, error):
    response = sign_up(client, **{"email": "marina@example.org", **change})
    assert response.status_code == 200
    assert error in response.content.decode()
    assert not get_user_model().objects.exists() and mail.outbox == []


def test_an_address_in_use_is_not_revealed(client, alice):
    """The same answer as for a fresh address: the owner's address stays theirs (verified) and
    the new account holds it unverified, which it can never verify."""
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True, verified=True)
    fresh = sign_up(client, username="marina", email="marina@example.org")
    client.logout()
    taken = sign_up(client, username="mallory", email="alice@example.org")
    assert (taken.status_code, taken.url) == (fresh.status_code, fresh.url)
    assert "already" not in client.get("/").content.decode()
    mallory = get_user_model().objects.get(username="mallory")
    assert EmailAddress.objects.get(user=mallory).verified is False
    assert EmailAddress.objects.get(user=alice).verified is True
    # The mail goes to the address, as any sign-up's; its owner cannot confirm it for mallory.
    [message] = sent_to("alice@example.org")
    confirm = client.get(the_link(message, "/accounts/confirm-email/"))
    assert "already confirmed on another Hadal account" in confirm.content.decode()
