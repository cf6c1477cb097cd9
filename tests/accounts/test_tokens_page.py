"""The API tokens page (/accounts/tokens/): make a token and see its key once, list, revoke;
bad input is said next to its field and makes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.models import ApiToken, Profile
from tests.tokens import key_for

pytestmark = pytest.mark.django_db
URL = "/accounts/tokens/"


def test_the_page_is_named_for_the_settings_page_to_link_to():
    assert reverse("api-tokens-page") == URL


def test_signed_out_the_page_asks_to_sign_in(client):
    response = client.get(URL)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_token_made_on_the_page_shows_its_key_once(client, alice):
    client.force_login(alice)
    made = client.post(URL, {"name": "score app", "scopes": ["read", "record"], "expires": ""})
    assert made.status_code == 200
    token = ApiToken.objects.get(user=alice)
    key = made.context["made"].key
    assert key.startswith(token.prefix) and key in made.content.decode()
    assert token.scopes == ["read", "record"] and token.expires_at is None
    again = client.get(URL).content.decode()
    assert "score app" in again and token.prefix in again and key not in again


def test_the_last_day_chosen_is_the_last_day_it_works(client, alice):
    client.force_login(alice)
    day = (timezone.now() + datetime.timedelta(days=3)).date()
    client.post(URL, {"name": "weekend bot", "scopes": ["play"], "expires": day.isoformat()})
    token = ApiToken.objects.get(user=alice)
    assert token.expires_at == datetime.datetime.combine(
        day + datetime.timedelta(days=1), datetime.time(0), tzinfo=datetime.UTC
    )


@pytest.mark.parametrize(
    "form, said",
    [
        ({"name": "", "scopes": ["read"]}, "This field is required."),
        ({"name": "x" * 61, "scopes": ["read"]}, "at most 60 characters"),
        ({"name": "bot"}, "Choose at least one scope."),
        ({"name": "bot", "scopes": ["admin"]}, "admin is not one of the available choices"),
        ({"name": "bot", "scopes": ["read"], "expires": "2001-01-01"}, "That day is over"),
    ],
)
def test_bad_input_is_said_and_makes_nothing(client, alice, form, said):
    client.force_login(alice)
    response = client.post(URL, form)
    assert response.status_code == 200
    assert said in response.content.decode()
    assert not ApiToken.objects.exists()


def test_a_token_is_revoked_from_the_page_and_someone_elses_is_not(client, alice, bob):
    client.force_login(alice)
    key_for(alice, name="old script")
    mine = ApiToken.objects.get(user=alice)
    key_for(bob)
    theirs = ApiToken.objects.get(user=bob)
    response = client.post(f"/accounts/tokens/{theirs.pk}/revoke/", follow=True)
    assert "not yours" in response.content.decode()
    response = client.post(f"/accounts/tokens/{mine.pk}/revoke/", follow=True)
    assert "“old script” is revoked" in response.content.decode()
    mine.refresh_from_db()
    theirs.refresh_from_db()
    assert mine.revoked_at is not None and theirs.revoked_at is None
    assert "old script" not in response.content.decode().split("is revoked")[1]
    assert client.get(f"/accounts/tokens/{mine.pk}/revoke/").status_code == 405


def test_the_page_makes_the_account_a_bots_once_its_member_says_they_understand(client, alice):
    client.force_login(alice)
    page = client.get(URL).content.decode()
    assert 'id="make-bot"' in page
    unticked = client.post("/accounts/bot/", follow=True).content.decode()
    assert "Tick that you understand it is for good" in unticked
    assert not Profile.objects.filter(user=alice, bot_since__isnull=False).exists()
    made = client.post("/accounts/bot/", {"understood": "yes"}, follow=True).content.decode()
    assert "This account is a bot&#x27;s now" in made
    assert "This account is a bot's since" in made and 'id="make-bot"' not in made
    again = client.post("/accounts/bot/", {"understood": "yes"}, follow=True).content.decode()
    assert "This account cannot become a bot&#x27;s: this account is a bot&#x27;s already." in again


def test_the_page_with_a_new_key_is_never_cached(client, alice):
    client.force_login(alice)
    made = client.post(URL, {"name": "score app", "scopes": ["read"]})
    assert "no-store" in made["Cache-Control"]
