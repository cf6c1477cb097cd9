"""A member's tokens (accounts.tokens): signing in with a password makes one with every scope
each time, listed among theirs and bounded in number; the keys DRF's authtoken app made keep
working after the migration hashes them (accounts/migrations/0004)."""

from __future__ import annotations

import datetime

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.models import ApiToken
from accounts.scopes import SCOPES
from accounts.tokens import PASSWORD_TOKENS, key_hash, password_token_create, token_create
from core.errors import InvalidInput, UnknownName
from tests.games.test_store_conformance import backend

pytestmark = pytest.mark.django_db


def sign_in(password: str = "pw-for-tests-only"):
    return APIClient().post(
        "/api/auth/token/", {"username": "alice", "password": password}, format="json"
    )


def test_signing_in_with_a_password_keeps_its_contract_and_makes_a_token_each_time(alice):
    first, second = sign_in(), sign_in()
    assert first.status_code == second.status_code == 200
    assert set(first.json()) == {"token"}
    keys = [first.json()["token"], second.json()["token"]]
    assert keys[0] != keys[1]
    tokens = ApiToken.objects.filter(user=alice).order_by("pk")
    assert [t.key_hash for t in tokens] == [key_hash(k) for k in keys]
    assert all(t.scopes == list(SCOPES) and t.from_password for t in tokens)
    assert all(t.name.startswith("password sign-in ") for t in tokens)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {keys[0]}")
    assert client.get("/api/games/").status_code == 200


def test_a_member_keeps_at_most_ten_password_tokens_the_least_used_revoked(alice):
    keys = [password_token_create(user=alice) for _ in range(PASSWORD_TOKENS)]
    used = ApiToken.objects.get(key_hash=key_hash(keys[0]))  # the oldest, but in use
    ApiToken.objects.filter(pk=used.pk).update(last_used_at=timezone.now())
    made = token_create(user=alice, name="my bot", scopes=["play"])[0]  # not a password's
    password_token_create(user=alice)
    live = ApiToken.objects.filter(user=alice, revoked_at__isnull=True)
    assert live.filter(from_password=True).count() == PASSWORD_TOKENS
    revoked = ApiToken.objects.get(revoked_at__isnull=False)
    assert revoked.key_hash == key_hash(keys[1])  # the least recently used: made, never used
    assert live.filter(pk=used.pk).exists() and live.filter(pk=made.pk).exists()


def test_revoked_password_tokens_are_deleted_after_thirty_days(alice):
    old = ApiToken.objects.get(key_hash=key_hash(password_token_create(user=alice)))
    ApiToken.objects.filter(pk=old.pk).update(
        revoked_at=timezone.now() - datetime.timedelta(days=31)
    )
    password_token_create(user=alice)
    assert not ApiToken.objects.filter(pk=old.pk).exists()


@pytest.mark.parametrize(
    "changes, message",
    [
        ({"name": ""}, "name may not be empty"),
        ({"name": "x" * 61}, "name may be at most 60 characters"),
        ({"scopes": []}, "scopes must be a non-empty list"),
        ({"scopes": ["read", "admin"]}, "unknown scope 'admin'"),
        ({"expires": "2000-01-01T00:00:00Z"}, "expires must be in the future"),
        ({"expires": "next week"}, "is not an ISO 8601 date-time"),
    ],
)
def test_a_token_is_refused_with_a_clear_reason_and_nothing_made(alice, changes, message):
    asked = {"name": "my bot", "scopes": ["read"], "expires": None, **changes}
    with pytest.raises(InvalidInput, match=message):
        token_create(user=alice, **asked)
    assert not ApiToken.objects.exists()


def test_revoking_someone_elses_token_is_as_if_it_did_not_exist(alice, bob):
    from accounts.tokens import token_revoke

    token, _ = token_create(user=bob, name="bob's bot", scopes=["play"])
    with pytest.raises(UnknownName):
        token_revoke(user=alice, token_id=token.pk)
    token.refresh_from_db()
    assert token.revoked_at is None


# -- the keys made before: hashed by the migration --------------------------------------------

BEFORE = [("accounts", "0002_person")]
LEGACY_TABLE = {
    "sqlite": 'CREATE TABLE "authtoken_token" ("key" varchar(40) NOT NULL PRIMARY KEY,'
    ' "created" datetime NOT NULL, "user_id" integer NOT NULL UNIQUE)',
    "postgresql": 'CREATE TABLE "authtoken_token" ("key" varchar(40) NOT NULL PRIMARY KEY,'
    ' "created" timestamp with time zone NOT NULL, "user_id" integer NOT NULL UNIQUE'
    ' REFERENCES "auth_user" ("id") DEFERRABLE INITIALLY DEFERRED)',
}


@pytest.fixture(params=[backend("store_sqlite"), backend("store_postgres", pytest.mark.postgres)])
def migrated(request):
    """A member's DRF token as authtoken kept it (its table, its key in the clear), then the
    migration."""
    alias = request.param
    connection = connections[alias]
    executor = MigrationExecutor(connection)
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    user = old.get_model("auth", "User").objects.using(alias).create(username="ann")
    key = "0123456789abcdef0123456789abcdef01234567"
    with connection.cursor() as cursor:
        cursor.execute(LEGACY_TABLE[connection.vendor])
        cursor.execute(
            'INSERT INTO "authtoken_token" ("key", "created", "user_id") VALUES (%s, %s, %s)',
            [key, timezone.now(), user.pk],
        )
        cursor.execute(
            "INSERT INTO django_migrations (app, name, applied) VALUES (%s, %s, %s)",
            ["authtoken", "0001_initial", timezone.now()],
        )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    return alias, key, user.pk


def test_an_old_key_is_kept_hashed_with_every_scope_and_the_clear_one_is_gone(migrated):
    alias, key, user_id = migrated
    token = ApiToken.objects.using(alias).get(user_id=user_id)
    assert token.key_hash == key_hash(key) and token.prefix == key[:8]
    assert token.scopes == list(SCOPES) and token.revoked_at is None and token.expires_at is None
    connection = connections[alias]
    assert "authtoken_token" not in connection.introspection.table_names()
    with connection.cursor() as cursor:
        cursor.execute("SELECT COUNT(*) FROM django_migrations WHERE app = 'authtoken'")
        assert cursor.fetchone()[0] == 0
