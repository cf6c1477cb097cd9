"""The API's token check (accounts.authentication): one statement, straight to the database
driver (and counted by the tests' query counts all the same), with the same answers as DRF's
own check."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.sql import through_djangos_cursor

pytestmark = pytest.mark.django_db


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_valid_token_is_its_member_with_every_field_as_the_orm_reads_it(alice, monkeypatch):
    key = Token.objects.create(user=alice).key
    seen = []
    from accounts import authentication

    check = authentication.TokenAuthentication.authenticate_credentials

    def keep(self, given):
        user, _ = check(self, given)
        seen.append(user)
        return user, given

    monkeypatch.setattr(authentication.TokenAuthentication, "authenticate_credentials", keep)
    response = client_with(key).get("/api/games/")
    assert response.status_code == 200
    (user,) = seen
    assert (user.pk, user.username, user.is_active) == (alice.pk, "alice", True)
    assert isinstance(user.date_joined, datetime.datetime) and user.date_joined.tzinfo
    assert user.date_joined == alice.date_joined


def test_a_revoked_token_and_an_unknown_one_are_refused(alice):
    token = Token.objects.create(user=alice)
    key = token.key
    token.delete()
    for given in (key, "0" * 40):
        response = client_with(given).get("/api/games/")
        assert response.status_code == 401
        assert "error" in response.json()


def test_a_deactivated_members_token_is_refused_at_once(alice):
    key = Token.objects.create(user=alice).key
    assert client_with(key).get("/api/games/").status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client_with(key).get("/api/games/").status_code == 401


def test_the_check_skips_djangos_cursor_and_is_counted_all_the_same(alice):
    key = Token.objects.create(user=alice).key
    client = client_with(key)
    client.get("/api/games/")  # the connection is open
    with through_djangos_cursor() as through_django, CaptureQueriesContext(connection) as captured:
        assert client.get("/api/games/").status_code == 200
    assert not [sql for sql in through_django if "authtoken_token" in sql]
    (check,) = [q["sql"] for q in captured.captured_queries if "authtoken_token" in q["sql"]]
    assert f"'{key}'" in check  # logged as Django logs a statement, its parameters in it


# -- a move's token, checked by the move's own write -------------------------------------------

DSA = "deep-sea-adventure"


@pytest.fixture
def table(alice, bob):
    """alice's client (her token already seen valid by this process) and a game of alice
    and bob, alice to play first."""
    key = Token.objects.create(user=alice).key
    client = client_with(key)
    created = client.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}]}, format="json"
    )
    assert created.status_code == 201
    return client, key, created.json()["id"]


def move(client, game_id, seat=0, version=None, **extra):
    return client.post(
        f"/api/games/{game_id}/actions/",
        {
            "seat": seat,
            "expected_version": 1 if version is None else version,
            "action": {"type": "continue"},
            **extra,
        },
        format="json",
    )


def log_of(game_id) -> list[int]:
    from games.models import Event

    return list(Event.objects.filter(game_id=game_id).values_list("seq", flat=True))


def test_a_move_by_a_token_seen_before_asks_nothing_but_its_write(table):
    client, _, game_id = table
    with CaptureQueriesContext(connection) as captured:
        assert move(client, game_id).status_code == 201
    asked = [q["sql"] for q in captured.captured_queries if "authtoken_token" in q["sql"]]
    assert len(asked) == 1 and "UPDATE games_game" in asked[0]


def revoke(key):
    Token.objects.filter(key=key).delete()


def deactivate(key):
    user = Token.objects.get(key=key).user
    user.is_active = False
    user.save(update_fields=["is_active"])


@pytest.mark.parametrize("withdraw", [revoke, deactivate], ids=["revoked", "deactivated"])
def test_a_withdrawn_token_seen_before_moves_nothing_and_gets_401(table, withdraw):
    client, key, game_id = table
    before = log_of(game_id)
    withdraw(key)
    response = move(client, game_id)
    assert response.status_code == 401 and "error" in response.json()
    assert log_of(game_id) == before


@pytest.mark.parametrize(
    "wrong",
    [
        {"seat": 1},  # not alice's seat: a 403 for a good token
        {"version": 7},  # stale: a 409
        {"action": {"type": "take"}},  # not a legal action now: a 422
        {"expected_version": "one"},  # malformed: a 400
    ],
    ids=["seat", "version", "illegal", "malformed"],
)
def test_a_withdrawn_token_gets_401_before_any_other_refusal(table, wrong):
    client, key, game_id = table
    body = {"seat": 0, "expected_version": 1, "action": {"type": "continue"}}
    if "version" in wrong:
        body["expected_version"] = wrong["version"]
    else:
        body.update(wrong)
    good = client.post(f"/api/games/{game_id}/actions/", body, format="json").status_code
    assert good in (400, 403, 409, 422)
    revoke(key)
    response = client.post(f"/api/games/{game_id}/actions/", body, format="json")
    assert response.status_code == 401


def test_a_withdrawn_token_does_not_get_the_first_result_of_its_key_again(table):
    client, key, game_id = table
    first = move(client, game_id, idempotency_key="once")
    assert first.status_code == 201
    assert move(client, game_id, idempotency_key="once").json() == first.json()
    revoke(key)
    again = move(client, game_id, idempotency_key="once")
    assert again.status_code == 401 and "events" not in again.json()


def test_a_token_never_seen_is_asked_about_first(alice, bob):
    key = Token.objects.create(user=alice).key
    from accounts.authentication import seen

    assert seen.get(key) is None
    client = client_with(key)
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/games/").status_code == 200
    assert [q for q in captured.captured_queries if "authtoken_token" in q["sql"]]
    assert seen.get(key) is not None


def test_only_the_move_is_checked_by_its_write_the_legal_actions_ask_first(table):
    client, key, game_id = table
    assert client.get(f"/api/games/{game_id}/actions/?seat=0").status_code == 200
    revoke(key)
    assert client.get(f"/api/games/{game_id}/actions/?seat=0").status_code == 401


@pytest.mark.parametrize("withdraw", [None, revoke], ids=["valid", "revoked"])
def test_a_withdrawn_token_seen_before_enters_nothing_in_a_table_log(alice, bob, withdraw):
    """A scorekeeper's entry is guarded as a move is: its write checks the token, and a
    withdrawn one writes nothing and gets a move's answer."""
    key = Token.objects.create(user=alice).key
    client = client_with(key)
    created = client.post(
        "/api/games/",
        {
            "game": DSA,
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "alice"}, {"user": "bob"}],
        },
        format="json",
    )
    assert created.status_code == 201, created.json()
    game_id = created.json()["id"]
    move = {"seat": 0, "expected_version": created.json()["version"]}
    move["action"] = {"type": "continue"}
    assert client.post(f"/api/games/{game_id}/actions/", move, format="json").status_code == 201
    before = log_of(game_id)
    if withdraw is not None:
        withdraw(key)
    roll = {"seat": "chance", "expected_version": before[-1], "action": {"type": "roll"}}
    roll["action"]["dice"] = [1, 2]
    response = client.post(f"/api/games/{game_id}/actions/", roll, format="json")
    if withdraw is None:
        assert response.status_code == 201, response.json()
        return
    assert response.status_code == 401 and "error" in response.json()
    assert log_of(game_id) == before
