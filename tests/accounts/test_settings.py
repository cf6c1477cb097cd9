"""The settings page: the member's address (confirmed or not, changed on its own page, its link
sent again), their password, the way to how notices reach them, and the ways to take their
data or leave."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.core import mail

from accounts.models import Profile
from inbox.models import Choices
from tests.accounts.mails import sent_to

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


def test_the_page_has_a_section_for_each_thing_a_member_sets(signed_in, alice):
    page = signed_in.get("/accounts/settings/").content.decode()
    headings = ("E-mail address", "Password", "How notices reach you", "API tokens", "Your data")
    for heading in headings:
        assert f">{heading}</h2>" in page, heading
    assert "Your account has no e-mail address: if you forget your password" in page
    assert 'href="/accounts/email/">Add an address</a>' in page
    assert 'href="/accounts/password/change/">Change your password</a>' in page
    assert 'href="/accounts/data/" download>Download your data</a>' in page
    assert 'href="/accounts/delete/">Delete your account</a>' in page
    assert 'href="/players/alice/"' in page


def test_the_page_says_whether_the_address_is_confirmed(signed_in, alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True)
    page = signed_in.get("/accounts/settings/").content.decode()
    assert (
        '<strong>alice@example.org</strong> <span class="status status-waiting">not confirmed yet'
        in page
    )
    assert "Send the link again" in page
    EmailAddress.objects.filter(user=alice).update(verified=True)
    page = signed_in.get("/accounts/settings/").content.decode()
    assert '<strong>alice@example.org</strong> <span class="status status-active">confirmed' in page
    assert "Send the link again" not in page and "or with alice@example.org" in page


def test_send_the_link_again_comes_back_to_the_settings(signed_in, alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True)
    response = signed_in.post(
        "/accounts/email/",
        {"email": "alice@example.org", "action_send": "", "next": "/accounts/settings/"},
        follow=True,
    )
    assert response.redirect_chain == [("/accounts/settings/", 302)]
    assert "We have sent a link to alice@example.org" in response.content.decode()
    [message] = sent_to("alice@example.org")
    assert message.subject == "Confirm your e-mail address for Hadal"
    elsewhere = signed_in.post(
        "/accounts/email/",
        {"email": "alice@example.org", "action_send": "", "next": "https://evil.example/"},
    )
    assert elsewhere.url == "/accounts/email/"


def test_turn_emails_are_a_choice_of_the_inbox_now(signed_in, alice):
    page = signed_in.get("/accounts/settings/").content.decode()
    assert 'href="/inbox/choices/">Your choices</a>' in page
    assert "turn_emails" not in page
    # What the page once saved is gone: a POST changes nothing and stores nothing.
    signed_in.post("/accounts/settings/", {"turn_emails": "on"})
    assert not Choices.objects.filter(user=alice).exists()
    assert "turn_emails" not in {f.name for f in Profile._meta.get_fields()}
    assert mail.outbox == []


def test_the_page_needs_signing_in(client):
    response = client.get("/accounts/settings/")
    assert response.status_code == 302 and response.url.startswith("/accounts/login/")


def test_the_nav_has_my_page(signed_in):
    assert '<a href="/players/alice/">My page</a>' in signed_in.get("/").content.decode()


def test_changing_the_password_asks_for_the_one_you_have(signed_in, alice):
    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True, verified=True)
    new = "a-new-Passphrase-77"
    for bad, error in [
        ({"oldpassword": "not it"}, "Please type your current password."),
        ({"password2": new + "x"}, "You must type the same password each time."),
        ({"password1": "alice", "password2": "alice"}, "This password is too short."),
    ]:
        form = {"oldpassword": "pw-for-tests-only", "password1": new, "password2": new, **bad}
        page = signed_in.post("/accounts/password/change/", form)
        assert page.status_code == 200 and error in page.content.decode(), error
    alice.refresh_from_db()
    assert alice.check_password("pw-for-tests-only") and mail.outbox == []
    done = signed_in.post(
        "/accounts/password/change/",
        {"oldpassword": "pw-for-tests-only", "password1": new, "password2": new},
        follow=True,
    )
    assert done.redirect_chain == [("/accounts/settings/", 302)]
    assert "Your password is changed." in done.content.decode()
    assert done.context["user"] == alice  # still signed in
    alice.refresh_from_db()
    assert alice.check_password(new)
    [notice] = sent_to("alice@example.org")
    assert notice.subject == "Your Hadal password was changed"
    assert "the password of your Hadal account alice was changed" in notice.body


def test_allauths_routes_not_used_here_answer_404(signed_in):
    for path in (
        "/accounts/login/code/confirm/",
        "/accounts/reauthenticate/code/",
        "/accounts/reauthenticate/code/confirm/",
    ):
        assert signed_in.get(path).status_code == 404, path
    # A member always has a password: "set one" is "change it".
    assert signed_in.get("/accounts/password/set/").url == "/accounts/password/change/"
