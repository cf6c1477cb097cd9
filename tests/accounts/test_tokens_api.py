"""``/api/me/tokens/``: list (never a key), make (the key once), revoke; only the session or a
token with every scope manages tokens; bad input is a clear JSON error and changes nothing."""

from __future__ import annotations

import datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from tests.tokens import key_for

pytestmark = pytest.mark.django_db

SOON = (timezone.now() + datetime.timedelta(days=30)).isoformat()


@pytest.fixture
def session(alice):
    client = APIClient()
    client.force_login(alice)
    return client


def with_key(key: str) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    return client


def test_a_token_is_made_listed_used_within_its_scopes_and_revoked(session, alice, bob):
    made = session.post(
        "/api/me/tokens/", {"name": "score app", "scopes": ["read"], "expires": SOON}, format="json"
    )
    assert made.status_code == 201
    body = made.json()
    key = body.pop("key")
    assert body["name"] == "score app" and body["scopes"] == ["read"]
    assert body["prefix"] == key[:12] and body["expired"] is False
    assert body["last_used"] is None and body["from_password"] is False

    listed = session.get("/api/me/tokens/").json()
    assert listed == [body]  # never the key
    assert key not in str(listed)

    app = with_key(key)
    assert app.get("/api/games/").status_code == 200
    refused = app.post("/api/leagues/", {"name": "A club"}, format="json")
    assert refused.status_code == 403 and refused.json()["scope"] == "organise"

    assert session.delete(f"/api/me/tokens/{body['id']}/").status_code == 204
    gone = app.get("/api/games/")
    assert gone.status_code == 401 and gone.json() == {"error": "this token has been revoked"}
    assert session.get("/api/me/tokens/").json() == []


def test_a_token_with_every_scope_manages_tokens_a_scoped_one_cannot(alice):
    full = with_key(key_for(alice))
    assert full.get("/api/me/tokens/").status_code == 200
    made = full.post("/api/me/tokens/", {"name": "bot", "scopes": ["play"]}, format="json")
    assert made.status_code == 201 and made.json()["expires"] is None
    scoped = with_key(key_for(alice, ["read", "play"]))
    for response in (
        scoped.get("/api/me/tokens/"),
        scoped.post("/api/me/tokens/", {"name": "more", "scopes": ["organise"]}, format="json"),
        scoped.delete(f"/api/me/tokens/{made.json()['id']}/"),
    ):
        assert response.status_code == 403
        assert response.json()["scope"] == "record"
        assert "every scope" in response.json()["error"]
    assert ApiToken.objects.filter(user=alice, revoked_at__isnull=True).count() == 3


@pytest.mark.parametrize(
    "body, status, said",
    [
        ({"name": "x", "scopes": ["read", "admin"]}, 400, "scopes"),
        ({"name": "x", "scopes": []}, 400, "scopes"),
        ({"name": "x"}, 400, "scopes"),
        ({"name": "", "scopes": ["read"]}, 400, "name"),
        ({"name": "x" * 61, "scopes": ["read"]}, 400, "name"),
        ({"name": "x", "scopes": ["read"], "expires": "2001-01-01T00:00:00Z"}, 422, "future"),
        ({"name": "x", "scopes": ["read"], "expires": "tomorrow"}, 400, "expires"),
    ],
)
def test_bad_input_is_refused_clearly_and_makes_nothing(session, body, status, said):
    response = session.post("/api/me/tokens/", body, format="json")
    assert response.status_code == status
    assert said in response.json()["error"]
    assert not ApiToken.objects.exists()


def test_revoking_someone_elses_token_or_one_revoked_is_a_404(session, bob):
    theirs = ApiToken.objects.get(user=bob, pk=with_id(key_for(bob)))
    response = session.delete(f"/api/me/tokens/{theirs.pk}/")
    assert response.status_code == 404 and "error" in response.json()
    theirs.refresh_from_db()
    assert theirs.revoked_at is None
    mine = session.post("/api/me/tokens/", {"name": "x", "scopes": ["read"]}, format="json")
    url = f"/api/me/tokens/{mine.json()['id']}/"
    assert session.delete(url).status_code == 204
    assert session.delete(url).status_code == 404


def with_id(key: str) -> int:
    from accounts.tokens import key_hash

    return ApiToken.objects.get(key_hash=key_hash(key)).pk


def test_an_expired_token_is_refused_and_listed_as_expired(session, alice):
    key = key_for(alice, ["read"])
    ApiToken.objects.filter(pk=with_id(key)).update(expires_at=timezone.now())
    response = with_key(key).get("/api/games/")
    assert response.status_code == 401
    assert response.json()["error"].startswith("this token expired at ")
    (listed,) = session.get("/api/me/tokens/").json()
    assert listed["expired"] is True


def test_signed_out_nobody_manages_tokens():
    assert APIClient().get("/api/me/tokens/").status_code == 401


def test_a_member_holds_at_most_a_hundred_tokens_and_the_key_is_never_cached(session, alice):
    from accounts import tokens

    for _ in range(tokens.LIVE_TOKENS - 1):
        key_for(alice)
    made = session.post("/api/me/tokens/", {"name": "last", "scopes": ["read"]}, format="json")
    assert made.status_code == 201 and made["Cache-Control"] == "no-store"
    refused = session.post("/api/me/tokens/", {"name": "more", "scopes": ["read"]}, format="json")
    assert refused.status_code == 409 and "revoke one first" in refused.json()["error"]
    assert ApiToken.objects.filter(user=alice).count() == tokens.LIVE_TOKENS
    assert tokens.password_token_create(user=alice)  # signing in is bounded apart, never refused
