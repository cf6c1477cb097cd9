"""Migration accounts 0004: the addresses members gave on the settings page before allauth
become allauth's, primary and unverified, so that they verify them before any mail goes there;
run on SQLite and on PostgreSQL, each a database of its own."""

from __future__ import annotations

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from tests.games.test_store_conformance import backend

BEFORE = [("accounts", "0002_person"), ("account", "0009_emailaddress_unique_primary_email")]
AFTER = [("accounts", "0003_email_addresses")]


@pytest.fixture(
    params=[
        backend("store_sqlite"),
        backend("store_postgres", pytest.mark.postgres),
    ]
)
def migrated(request):
    alias = request.param
    executor = MigrationExecutor(connections[alias])
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    User = old.get_model("auth", "User")
    EmailAddress = old.get_model("account", "EmailAddress")
    users = {
        name: User.objects.using(alias).create(username=name, email=email)
        for name, email in [
            ("alice", "Alice@Example.org"),
            ("bob", ""),
            ("carol", "shared@example.org"),
            ("dave", "shared@example.org"),  # nothing stopped two members giving one address
            ("erin", "erin@example.org"),
        ]
    }
    # erin verified hers already, through allauth: her row stays as it is.
    EmailAddress.objects.using(alias).create(
        user=users["erin"], email="erin@example.org", primary=True, verified=True
    )
    executor = MigrationExecutor(connections[alias])
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    rows = new.get_model("account", "EmailAddress").objects.using(alias)
    yield {(r.user.username, r.email, r.primary, r.verified) for r in rows.select_related("user")}
    executor = MigrationExecutor(connections[alias])
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_each_address_becomes_a_primary_unverified_one(migrated):
    assert migrated == {
        ("alice", "alice@example.org", True, False),
        ("carol", "shared@example.org", True, False),
        ("dave", "shared@example.org", True, False),
        ("erin", "erin@example.org", True, True),
    }
