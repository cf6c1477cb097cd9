"""A new password by e-mail: a link to a verified address; the same answer whether or not any
account has the address; a link that sets the password once; bad input refused."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from django.core import mail
from django.test import Client

from tests.accounts.mails import links, path_of, sent_to, the_link

pytestmark = pytest.mark.django_db
NEW = "a-new-Passphrase-77"
OLD = "pw-for-tests-only"


def ask(client, email):
    return client.post("/accounts/password/reset/", {"email": email}, follow=True)


def page_text(response) -> str:
    """The page as a person reads it, without the form's one-time token."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]*"', "", response.content.decode())


@pytest.fixture
def verified_alice(alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True, verified=True)
    return alice


def test_a_known_and_an_unknown_address_get_the_same_answer(verified_alice):
    known, unknown = ask(Client(), "alice@example.org"), ask(Client(), "nobody@example.org")
    assert known.status_code == unknown.status_code == 200
    assert (
        known.redirect_chain == unknown.redirect_chain == [("/accounts/password/reset/done/", 302)]
    )
    assert page_text(known) == page_text(unknown)
    # What differs is what each address's owner reads.
    [reset] = sent_to("alice@example.org")
    assert reset.subject == "A new password for Hadal"
    assert "/accounts/password/reset/key/" in the_link(reset, "/accounts/password/reset/key/")
    [unknown_mail] = sent_to("nobody@example.org")
    assert unknown_mail.subject == "Hadal: no account has this e-mail address"
    assert not any("/password/reset/key/" in url for url in links(unknown_mail))


def test_an_unverified_address_gets_a_link_to_verify_it_not_a_new_password(alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True, verified=False)
    answer = ask(Client(), "alice@example.org")
    assert page_text(answer) == page_text(ask(Client(), "nobody@example.org"))
    [message] = sent_to("alice@example.org")
    assert message.subject == "A new password for Hadal: confirm your address first"
    assert not any("/password/reset/key/" in url for url in links(message))
    client = Client()
    client.post(path_of(the_link(message, "/accounts/confirm-email/")))
    assert EmailAddress.objects.get(user=alice).verified
    ask(client, "alice@example.org")
    assert sent_to("alice@example.org")[-1].subject == "A new password for Hadal"


def test_an_address_on_the_user_row_alone_is_treated_as_unverified(alice):
    """An account made in the admin, with no allauth row yet."""
    alice.email = "alice@example.org"
    alice.save()
    ask(Client(), "alice@example.org")
    [message] = sent_to("alice@example.org")
    assert message.subject == "A new password for Hadal: confirm your address first"
    assert EmailAddress.objects.filter(
        user=alice, email="alice@example.org", verified=False
    ).exists()


def test_the_link_sets_the_password_once(verified_alice, client):
    ask(client, "alice@example.org")
    link = path_of(the_link(sent_to("alice@example.org")[0], "/accounts/password/reset/key/"))
    opened = client.get(link)
    # The key leaves the address bar at once (no Referer carries it).
    assert opened.status_code == 302 and opened.url.endswith("-set-password/")
    form = client.get(opened.url).content.decode()
    assert "Choose a new password" in form
    mismatch = client.post(opened.url, {"password1": NEW, "password2": NEW + "x"})
    assert "You must type the same password each time." in mismatch.content.decode()
    weak = client.post(opened.url, {"password1": "alice", "password2": "alice"})
    assert "too short" in weak.content.decode()
    verified_alice.refresh_from_db()
    assert verified_alice.check_password(OLD)  # bad input changed nothing
    done = client.post(opened.url, {"password1": NEW, "password2": NEW})
    assert done.status_code == 302 and done.url == "/accounts/password/reset/key/done/"
    assert "Your password is changed" in client.get(done.url).content.decode()
    verified_alice.refresh_from_db()
    assert verified_alice.check_password(NEW) and not verified_alice.check_password(OLD)
    notice = sent_to("alice@example.org")[-1]
    assert notice.subject == "Your Hadal password was changed"
    # The same link again: used, and it says so.
    again = Client().get(link, follow=True).content.decode()
    assert "This link no longer works" in again and "Ask for a new link" in again
    signed_in = Client().post(
        "/accounts/login/", {"username": "alice@example.org", "password": NEW}
    )
    assert signed_in.status_code == 302


def test_bad_input_on_the_request_form_says_why(client):
    for bad in ("", "not an address"):
        page = client.post("/accounts/password/reset/", {"email": bad})
        assert page.status_code == 200 and 'class="field-error"' in page.content.decode()
    assert mail.outbox == []


def test_an_erased_or_inactive_account_gets_no_link(verified_alice):
    verified_alice.is_active = False
    verified_alice.save()
    ask(Client(), "alice@example.org")
    [message] = sent_to("alice@example.org")
    assert message.subject == "Hadal: no account has this e-mail address"
