"""Migration accounts 0005: whoever asked for turn e-mails on the settings page keeps them as
an inbox choice (copied by inbox 0001, which runs first), then the old field goes; run on
SQLite and on PostgreSQL, each a database of its own."""

from __future__ import annotations

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from tests.games.test_store_conformance import backend

BEFORE = [("accounts", "0004_api_tokens_and_bot_accounts"), ("inbox", None)]
AFTER = [("accounts", "0005_drop_turn_emails")]


@pytest.fixture(params=[backend("store_sqlite"), backend("store_postgres", pytest.mark.postgres)])
def migrated(request):
    alias = request.param
    executor = MigrationExecutor(connections[alias])
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[:1]).apps
    User = old.get_model("auth", "User")
    Profile = old.get_model("accounts", "Profile")
    for name, wanted in [("alice", True), ("bob", False)]:
        user = User.objects.using(alias).create(username=name)
        Profile.objects.using(alias).create(user=user, turn_emails=wanted)
    User.objects.using(alias).create(username="carol")  # no settings saved
    executor = MigrationExecutor(connections[alias])
    executor.migrate(AFTER)
    new = executor.loader.project_state(AFTER).apps
    yield alias, new
    executor = MigrationExecutor(connections[alias])
    executor.migrate(executor.loader.graph.leaf_nodes())


def test_turn_emails_become_the_inbox_choice_and_the_field_goes(migrated):
    alias, new = migrated
    Choices = new.get_model("inbox", "Choices")
    rows = Choices.objects.using(alias).select_related("user")
    assert {(row.user.username, tuple(row.mail.items())) for row in rows} == {
        ("alice", (("your_turn", "now"),))
    }
    fields = {field.name for field in new.get_model("accounts", "Profile")._meta.get_fields()}
    assert "turn_emails" not in fields and "bot_since" in fields
