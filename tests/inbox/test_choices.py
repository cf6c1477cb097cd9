"""How notices reach a member: the choices page and ``/api/me/notices/choices/`` save a
choice per kind (e-mail none, at once or in the daily list; pushed or not), the daily list's
hour and time zone, and refuse bad input without storing any of it."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from rest_framework.test import APIClient

from inbox import delivery, kinds
from inbox.models import Choices
from tests.tokens import key_for

pytestmark = pytest.mark.django_db
URL = "/api/me/notices/choices/"


def page_form(**changes) -> dict:
    """The page's form as a member's browser sends it, every kind on its default."""
    form = {"digest_hour": "18", "timezone": "UTC"}
    for kind in kinds.KINDS:
        form[f"mail_{kind.name}"] = kind.mail
        if kind.push:
            form[f"push_{kind.name}"] = "on"
    form.update(changes)
    return {key: value for key, value in form.items() if value is not None}


@pytest.fixture
def signed_in(client, alice):
    client.force_login(alice)
    return client


# -- the page ------------------------------------------------------------------------------------


def test_the_page_shows_a_row_a_kind_in_players_words(signed_in):
    page = signed_in.get("/inbox/choices/").content.decode()
    for kind in kinds.KINDS:
        assert kind.label in page, kind.name
    assert page.count(">Tell my devices</span>") == len(kinds.KINDS)
    assert "In the daily list" in page and "At once" in page and "No e-mail" in page
    assert '<option value="18" selected>18:00</option>' in page
    assert '<option value="Europe/Athens">Europe/Athens</option>' in page
    assert "data-guess-zone" in page  # never saved: the browser's zone is offered
    assert "{# devices" not in page  # the marked place is a template comment
    words = re.sub(r"<[^>]*>", " ", page)  # what the member reads: no kinds' names
    named = [kind.name for kind in kinds.KINDS if "_" in kind.name]
    assert len(named) >= 4 and not [name for name in named if name in words]


def test_the_page_says_mail_cannot_reach_a_member_without_a_confirmed_address(signed_in, alice):
    page = signed_in.get("/inbox/choices/").content.decode()
    assert "E-mail cannot reach you yet" in page and 'href="/accounts/settings/#email"' in page
    EmailAddress.objects.create(user=alice, email="a@example.org", primary=True, verified=True)
    assert "E-mail cannot reach you yet" not in signed_in.get("/inbox/choices/").content.decode()


def test_the_page_saves_every_choice(signed_in, alice):
    done = signed_in.post(
        "/inbox/choices/",
        page_form(
            mail_your_turn="now",
            mail_invitation="none",
            push_rematch=None,
            digest_hour="7",
            timezone="Europe/Athens",
        ),
        follow=True,
    )
    assert done.redirect_chain == [("/inbox/choices/", 302)]
    page = done.content.decode()
    assert "Your choices are saved." in page
    row = Choices.objects.get(user=alice)
    assert row.mail["your_turn"] == "now" and row.mail["invitation"] == "none"
    assert row.push["rematch"] is False and row.push["your_turn"] is True
    assert (row.digest_hour, row.timezone) == (7, "Europe/Athens")
    assert delivery.mail_choice(row, "your_turn") == "now"
    assert '<option value="7" selected>07:00</option>' in page
    assert '<option value="Europe/Athens" selected>' in page and "data-guess-zone" not in page


@pytest.mark.parametrize(
    ("change", "error"),
    [
        ({"digest_hour": "24"}, "Choose an hour of the day, from 00:00 to 23:00."),
        ({"digest_hour": "-1"}, "Choose an hour of the day, from 00:00 to 23:00."),
        ({"timezone": "Mars/Olympus"}, "Choose a time zone from the list."),
        ({"mail_your_turn": "weekly"}, "Choose no e-mail, at once, or in the daily list."),
        ({"mail_dispute": None}, "Choose no e-mail, at once, or in the daily list."),
    ],
)
def test_the_page_refuses_bad_input_and_stores_nothing(signed_in, change, error):
    answer = signed_in.post("/inbox/choices/", page_form(mail_invitation="none", **change))
    assert answer.status_code == 400
    assert error in answer.content.decode()
    assert not Choices.objects.exists()


def test_the_page_needs_signing_in_and_the_inbox_and_settings_link_to_it(client, signed_in):
    assert '<a href="/inbox/choices/">How notices reach you</a>' in (
        signed_in.get("/inbox/").content.decode()
    )
    assert 'href="/inbox/choices/"' in signed_in.get("/accounts/settings/").content.decode()
    signed_in.logout()
    assert client.get("/inbox/choices/").url.startswith("/accounts/login/")


# -- the API -------------------------------------------------------------------------------------


def test_the_api_gives_every_kind_chosen_or_by_default(api, alice):
    Choices.objects.create(user=alice, mail={"rematch": "now"}, push={"club": True})
    answer = api.get(URL)
    assert answer.status_code == 200
    body = answer.json()
    assert body["mail"] == {k.name: k.mail for k in kinds.KINDS} | {"rematch": "now"}
    assert body["push"] == {k.name: k.push for k in kinds.KINDS} | {"club": True}
    assert body["digest_hour"] == 18 and body["timezone"] == "UTC"
    assert body["address_verified"] is False


def test_put_sets_everything_and_patch_only_what_it_names(api, alice):
    put = api.put(
        URL,
        {
            "mail": {"your_turn": "now", "club": "digest"},
            "push": {"vacation": True},
            "digest_hour": 0,
            "timezone": "America/New_York",
        },
        format="json",
    )
    assert put.status_code == 200, put.content
    row = Choices.objects.get(user=alice)
    assert row.mail == {"your_turn": "now", "club": "digest"} and row.push == {"vacation": True}
    assert (row.digest_hour, row.timezone) == (0, "America/New_York")
    assert put.json()["mail"]["invitation"] == "now"  # not named: its default
    patch = api.patch(URL, {"mail": {"club": "none"}, "digest_hour": 23}, format="json")
    assert patch.status_code == 200, patch.content
    row.refresh_from_db()
    assert row.mail == {"your_turn": "now", "club": "none"} and row.push == {"vacation": True}
    assert (row.digest_hour, row.timezone) == (23, "America/New_York")
    again = api.put(
        URL, {"mail": {}, "push": {}, "digest_hour": 18, "timezone": "UTC"}, format="json"
    )
    assert again.status_code == 200
    row.refresh_from_db()
    assert row.mail == {} and row.push == {}  # every kind back to its default


@pytest.mark.parametrize(
    ("method", "body", "words"),
    [
        ("patch", {"digest_hour": 24}, "digest_hour: give an hour of the day"),
        ("patch", {"digest_hour": -1}, "digest_hour: give an hour of the day"),
        ("patch", {"digest_hour": "7"}, "digest_hour: give an hour of the day"),
        ("patch", {"digest_hour": 7.5}, "digest_hour: give an hour of the day"),
        ("patch", {"digest_hour": True}, "digest_hour: give an hour of the day"),
        ("patch", {"timezone": "Mars/Olympus"}, "timezone: 'Mars/Olympus' is not a time zone"),
        ("patch", {"timezone": None}, "timezone: give a time zone"),
        ("patch", {"mail": {"chess": "now"}}, "mail: no kind of notice 'chess'"),
        ("patch", {"mail": {"your_turn": "weekly"}}, "mail: your_turn: 'weekly' is not a choice"),
        ("patch", {"mail": ["your_turn"]}, "mail: give an object of kinds"),
        ("patch", {"push": {"your_turn": "yes"}}, "push: your_turn: give true or false"),
        ("patch", {"push": {"chess": True}}, "push: no kind of notice 'chess'"),
        ("patch", {"digest_hours": 7}, "digest_hours: not a field here"),
        ("patch", [], "give an object"),
        ("put", {"mail": {}, "push": {}, "digest_hour": 7}, "timezone: required"),
        (
            "put",
            {"mail": {}, "push": {}, "digest_hour": 7, "timezone": "Nowhere/At_all"},
            "not a time zone we know",
        ),
    ],
)
def test_bad_input_is_a_400_naming_it_and_nothing_is_stored(api, alice, method, body, words):
    Choices.objects.create(user=alice, mail={"club": "now"}, digest_hour=9, timezone="UTC")
    # A good value beside the bad one is not stored either.
    if isinstance(body, dict) and "digest_hour" not in body:
        body = {**body, "digest_hour": 5}
    answer = getattr(api, method)(URL, body, format="json")
    assert answer.status_code == 400, answer.content
    assert words in answer.json()["error"]
    row = Choices.objects.get(user=alice)
    assert (row.mail, row.push, row.digest_hour, row.timezone) == ({"club": "now"}, {}, 9, "UTC")


def test_the_api_follows_the_notices_scope_and_needs_signing_in(alice, client):
    assert client.get(URL).status_code in (401, 403)
    assert client.patch(URL, {"digest_hour": 3}, content_type="application/json").status_code in (
        401,
        403,
    )
    playing = APIClient()
    playing.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice, ['play'])}")
    refused = playing.patch(URL, {"digest_hour": 3}, format="json")
    assert refused.status_code == 403 and refused.json()["scope"] == "read"
    reading = APIClient()
    reading.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice, ['read'])}")
    assert reading.patch(URL, {"digest_hour": 3}, format="json").status_code == 200
    assert Choices.objects.get(user=alice).digest_hour == 3


def test_the_schema_states_the_choices_enums_and_the_hours(client):
    schema = client.get("/api/schema/?format=json").json()
    operations = schema["paths"][URL]
    assert set(operations) >= {"get", "put", "patch"}
    parts = schema["components"]["schemas"]
    body = parts["ChoicesIn"]
    assert body["additionalProperties"] is False
    assert set(body["required"]) == {"mail", "push", "digest_hour", "timezone"}
    hour = body["properties"]["digest_hour"]
    assert (hour["minimum"], hour["maximum"]) == (0, 23)
    assert parts["MailChoices"]["additionalProperties"] is False
    assert set(parts["MailChoices"]["properties"]) == set(kinds.NAMES)
    assert parts["MailChoiceEnum"]["enum"] == ["none", "now", "digest"]
    assert parts["PushChoices"]["properties"]["club"]["type"] == "boolean"
    assert "Europe/Athens" in parts["TimezoneEnum"]["enum"]
    assert operations["put"]["x-scope"] == "read"
