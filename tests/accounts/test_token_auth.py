"""The API's token check (accounts.authentication): one statement, straight to the database
driver (and counted by the tests' query counts all the same), finding the token by the hash of
its key, refusing revoked and expired tokens and deactivated members; for a move, no statement
at all, the move's write checking the token, its expiry and its play scope."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.tokens import key_hash
from tests.sql import through_djangos_cursor
from tests.tokens import key_for

pytestmark = pytest.mark.django_db


def client_with(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_valid_token_is_its_member_with_every_field_as_the_orm_reads_it(alice, monkeypatch):
    key = key_for(alice)
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


def token_of(key: str) -> ApiToken:
    return ApiToken.objects.get(key_hash=key_hash(key))


def test_a_revoked_an_expired_a_deleted_and_an_unknown_token_are_refused_saying_which(alice):
    revoked, expired, deleted = key_for(alice), key_for(alice), key_for(alice)
    for key in (revoked, expired, deleted):
        assert client_with(key).get("/api/games/").status_code == 200
    ApiToken.objects.filter(pk=token_of(revoked).pk).update(revoked_at=timezone.now())
    ApiToken.objects.filter(pk=token_of(expired).pk).update(expires_at=timezone.now())
    token_of(deleted).delete()
    said = {}
    for given in (revoked, expired, deleted, "0" * 40):
        response = client_with(given).get("/api/games/")
        assert response.status_code == 401
        said[given] = response.json()["error"]
    assert said[revoked] == "this token has been revoked"
    assert said[expired].startswith("this token expired at ")
    assert said[deleted] == said["0" * 40] == "Invalid token."


def test_only_the_keys_hash_is_kept(alice):
    key = key_for(alice)
    token = token_of(key)
    assert token.key_hash == key_hash(key) and key not in token.key_hash
    assert token.prefix == key[:12] and len(key) > 40


def test_a_deactivated_members_token_is_refused_at_once(alice):
    key = key_for(alice)
    assert client_with(key).get("/api/games/").status_code == 200
    alice.is_active = False
    alice.save(update_fields=["is_active"])
    assert client_with(key).get("/api/games/").status_code == 401


def test_the_check_skips_djangos_cursor_and_is_counted_all_the_same(alice):
    key = key_for(alice)
    client = client_with(key)
    client.get("/api/games/")  # the connection is open
    with through_djangos_cursor() as through_django, CaptureQueriesContext(connection) as captured:
        assert client.get("/api/games/").status_code == 200
    assert not [sql for sql in through_django if "accounts_apitoken" in sql]
    (check,) = [q["sql"] for q in captured.captured_queries if "accounts_apitoken" in q["sql"]]
    # Logged as Django logs a statement, its parameters in it: the key's hash, never the key.
    assert f"'{key_hash(key)}'" in check and key not in check


# -- a move's token, checked by the move's own write -------------------------------------------

DSA = "deep-sea-adventure"


@pytest.fixture
def table(alice, bob):
    """alice's client (her token already seen valid by this process) and a game of alice
    and bob, alice to play first."""
    key = key_for(alice)
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
    asked = [q["sql"] for q in captured.captured_queries if "accounts_apitoken" in q["sql"]]
    assert len(asked) == 1 and "UPDATE games_game" in asked[0]


def revoke(key):
    ApiToken.objects.filter(pk=token_of(key).pk).update(revoked_at=timezone.now())


def expire(key):
    ApiToken.objects.filter(pk=token_of(key).pk).update(expires_at=timezone.now())


def delete(key):
    token_of(key).delete()


def deactivate(key):
    user = token_of(key).user
    user.is_active = False
    user.save(update_fields=["is_active"])


WITHDRAWN = [revoke, expire, delete, deactivate]


@pytest.mark.parametrize("withdraw", WITHDRAWN, ids=lambda f: f.__name__)
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
    key = key_for(alice)
    from accounts.authentication import seen

    assert seen.get(key_hash(key)) is None
    client = client_with(key)
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/games/").status_code == 200
    assert [q for q in captured.captured_queries if "accounts_apitoken" in q["sql"]]
    assert seen.get(key_hash(key)) is not None


def test_only_the_move_is_checked_by_its_write_the_legal_actions_ask_first(table):
    client, key, game_id = table
    assert client.get(f"/api/games/{game_id}/actions/?seat=0").status_code == 200
    revoke(key)
    assert client.get(f"/api/games/{game_id}/actions/?seat=0").status_code == 401


@pytest.mark.parametrize("withdraw", [None, revoke], ids=["valid", "revoked"])
def test_a_withdrawn_token_seen_before_enters_nothing_in_a_table_log(alice, bob, withdraw):
    """A scorekeeper's entry is guarded as a move is: its write checks the token, and a
    withdrawn one writes nothing and gets a move's answer."""
    key = key_for(alice)
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


# -- a token's scopes on the move path ----------------------------------------------------------


def game_of_alice_and_bob(alice, bob) -> int:
    from games.play import services

    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    return game.pk


@pytest.mark.parametrize("seen_before", [False, True], ids=["never-seen", "seen"])
def test_a_token_without_the_play_scope_moves_nothing_and_gets_403_naming_it(
    alice, bob, seen_before
):
    game_id = game_of_alice_and_bob(alice, bob)
    client = client_with(key_for(alice, ["read"]))
    if seen_before:
        assert client.get(f"/api/games/{game_id}/").status_code == 200
    response = move(client, game_id)
    assert response.status_code == 403
    assert response.json() == {
        "error": 'this token does not have the "play" scope',
        "scope": "play",
    }
    assert log_of(game_id) == [1]


def test_a_token_seen_with_the_play_scope_whose_scope_is_gone_moves_nothing(table):
    """Scopes never change once a token is made; if its row said otherwise, the move's write
    (which checks the play scope in its own statement) would still write nothing."""
    client, key, game_id = table
    ApiToken.objects.filter(pk=token_of(key).pk).update(scope_play=False)
    response = move(client, game_id)
    assert response.status_code == 403 and response.json()["scope"] == "play"
    assert log_of(game_id) == [1]


def test_a_record_only_token_keeps_a_table_log_but_cannot_move_in_a_game(alice, bob):
    game_id = game_of_alice_and_bob(alice, bob)
    recorder = client_with(key_for(alice, ["record"]))
    created = recorder.post(
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
    log_id = created.json()["id"]
    entry = {
        "seat": 0,
        "expected_version": created.json()["version"],
        "action": {"type": "continue"},
    }
    assert recorder.post(f"/api/games/{log_id}/actions/", entry, format="json").status_code == 201
    refused = move(recorder, game_id)
    assert refused.status_code == 403 and refused.json()["scope"] == "play"
    assert log_of(game_id) == [1]
    game = recorder.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}]}, format="json"
    )
    assert game.status_code == 403 and game.json()["scope"] == "play"


def test_a_play_only_token_cannot_keep_a_table_log(alice, bob):
    player = client_with(key_for(alice, ["play"]))
    response = player.post(
        "/api/games/",
        {
            "game": DSA,
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "alice"}, {"user": "bob"}],
        },
        format="json",
    )
    assert response.status_code == 403 and response.json()["scope"] == "record"


def test_request_auth_carries_the_tokens_scopes(alice, monkeypatch):
    from accounts import scopes

    seen_auth = []
    require = scopes.require

    def keep(request, scope):
        seen_auth.append(request.auth)
        return require(request, scope)

    monkeypatch.setattr(scopes, "require", keep)
    client = client_with(key_for(alice, ["read", "organise"]))
    client.post("/api/leagues/", {"name": "Deep club"}, format="json")
    (auth,) = seen_auth
    assert auth.scopes == frozenset({"read", "organise"}) and auth.user_id == alice.pk


# -- when a token was last used -----------------------------------------------------------------


def touches(captured) -> list[str]:
    return [
        q["sql"]
        for q in captured.captured_queries
        if q["sql"].startswith("UPDATE accounts_apitoken") and "last_used_at" in q["sql"]
    ]


def test_last_used_is_written_once_a_minute_at_most_never_on_every_move(table, bob):
    client, key, game_id = table  # the game's creation used alice's token: written then
    clients = [client, client_with(key_for(bob))]
    assert clients[1].get("/api/games/").status_code == 200  # and bob's
    moves, writes = 0, []
    while moves < 30:
        detail = client.get(f"/api/games/{game_id}/").json()
        if detail["status"] != "active":
            break
        seat = detail["current_player"]
        url = f"/api/games/{game_id}/actions/"
        action = clients[seat].get(url, {"seat": seat}).json()[0]
        body = {"seat": seat, "expected_version": detail["version"], "action": action}
        with CaptureQueriesContext(connection) as captured:
            assert clients[seat].post(url, body, format="json").status_code == 201
        writes += touches(captured)
        moves += 1
    assert moves >= 10 and writes == []


def test_last_used_is_written_again_once_the_minute_has_passed(alice, monkeypatch):
    from accounts import authentication

    key = key_for(alice)
    client = client_with(key)
    clock = [authentication.time.time()]
    monkeypatch.setattr(authentication.time, "time", lambda: clock[0])
    with CaptureQueriesContext(connection) as captured:
        client.get("/api/games/")
        client.get("/api/games/")
    assert len(touches(captured)) == 1
    first = token_of(key).last_used_at
    clock[0] += authentication.TOUCH_EVERY + 1
    ApiToken.objects.filter(pk=token_of(key).pk).update(
        last_used_at=first - datetime.timedelta(seconds=authentication.TOUCH_EVERY + 1)
    )
    with CaptureQueriesContext(connection) as captured:
        client.get("/api/games/")
    assert len(touches(captured)) == 1
    assert token_of(key).last_used_at > first - datetime.timedelta(seconds=1)
