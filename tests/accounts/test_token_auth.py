"""The API's token check (accounts.authentication): one statement, straight to the database
driver when nothing watches the queries, with the same answers as DRF's own check."""

from __future__ import annotations

import datetime

import pytest
from django.db import connection
from django.db.backends.utils import CursorWrapper
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

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


def test_the_check_skips_djangos_cursor_unless_the_queries_are_watched(alice, monkeypatch):
    key = Token.objects.create(user=alice).key
    client = client_with(key)
    client.get("/api/games/")  # the connection is open
    through_django: list[str] = []
    execute = CursorWrapper.execute

    def watched(self, sql, params=None):
        through_django.append(sql)
        return execute(self, sql, params)

    monkeypatch.setattr(CursorWrapper, "execute", watched)
    assert client.get("/api/games/").status_code == 200
    assert not [sql for sql in through_django if "authtoken_token" in sql]
    monkeypatch.undo()
    with CaptureQueriesContext(connection) as captured:
        assert client.get("/api/games/").status_code == 200
    assert [q for q in captured.captured_queries if "authtoken_token" in q["sql"]]
