"""Events are append-only below the model too: the database refuses every way around it, on
whichever backend the suite runs against (SQLite by default, PostgreSQL in CI), and on
PostgreSQL the app's role may neither change events nor lift that guard."""

from __future__ import annotations

import io
import os
import uuid
from contextlib import contextmanager

import pytest
from django.core.management import CommandError, call_command
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet

from games import store
from games.models import Event, EventKind, Game
from games.play import services
from games.store import NewEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )


def the_log(game) -> list[dict]:
    return list(Event.objects.filter(game=game).order_by("seq").values())


def raw_sql(*statements: str):
    """An attempt that runs ``statements``, with the game's id for each %s."""

    def attempt(game):
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement, [game.pk] * statement.count("%s"))

    return attempt


# PostgreSQL truncates nothing while foreign-key checks are pending, as they are in a test's
# transaction; running them first puts the TRUNCATE where it would be in a transaction of its own.
CHECKED = "SET CONSTRAINTS ALL IMMEDIATE"


def upsert_onto_event_one(game):
    Event.objects.bulk_create(
        [Event(game=game, seq=1, kind="Tampered", data={}, batch=1)],
        update_conflicts=True,
        unique_fields=["game", "seq"],
        update_fields=["kind", "data"],
    )


BYPASSES = [
    pytest.param(
        lambda game: Event._base_manager.filter(game=game).update(kind="Tampered"),
        id="base-manager-update",
    ),
    pytest.param(
        lambda game: Event._base_manager.filter(game=game).delete(), id="base-manager-delete"
    ),
    pytest.param(
        lambda game: QuerySet(model=Event).filter(game=game).update(kind="Tampered"),
        id="bare-queryset-update",
    ),
    pytest.param(
        lambda game: Event.objects.filter(game=game)._raw_delete(connection.alias), id="raw-delete"
    ),
    pytest.param(upsert_onto_event_one, id="bulk-create-update-conflicts"),
    pytest.param(
        raw_sql("UPDATE games_event SET kind = 'Tampered' WHERE game_id = %s"), id="sql-update"
    ),
    pytest.param(raw_sql("DELETE FROM games_event WHERE game_id = %s"), id="sql-delete"),
    pytest.param(
        raw_sql(CHECKED, "TRUNCATE games_event"), id="sql-truncate", marks=pytest.mark.postgres
    ),
    pytest.param(
        raw_sql(CHECKED, "TRUNCATE games_game CASCADE"),
        id="sql-truncate-cascading",
        marks=pytest.mark.postgres,
    ),
    # The events hold no foreign-key constraint on PostgreSQL (migration 0014): the game's row,
    # which the log needs, is kept by a trigger instead.
    pytest.param(
        raw_sql("DELETE FROM games_game WHERE id = %s"),
        id="sql-delete-the-game",
        marks=pytest.mark.postgres,
    ),
]


@pytest.mark.parametrize("bypass", BYPASSES)
def test_the_database_refuses_every_way_around_the_model(game, bypass):
    before = the_log(game)
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():  # a savepoint: PostgreSQL aborts the test's transaction
            bypass(game)
    assert the_log(game) == before


@pytest.mark.django_db(transaction=True)  # PostgreSQL truncates nothing with checks pending
def test_a_flush_empties_the_log_and_puts_the_guard_back(game, make_user):
    call_command("flush", interactive=False, verbosity=0)
    assert not Event.objects.exists()
    make_user("alice")
    make_user("bob")
    again = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=None,
    )
    with pytest.raises(DatabaseError, match="append-only"):
        raw_sql("DELETE FROM games_event WHERE game_id = %s")(again)


def test_a_flush_not_confirmed_changes_nothing(game, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    call_command("flush", stdout=io.StringIO())
    assert [e["kind"] for e in the_log(game)] == ["GameCreated"]


# -- PostgreSQL: the app's role ------------------------------------------------------------------


@pytest.fixture
def app_role(db):
    """A throwaway role granted what the app's role gets; the test's rollback removes it."""
    role = f"hadal_app_test_{uuid.uuid4().hex[:8]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')
    call_command("grant_app_role", role, stdout=io.StringIO())
    return role


@contextmanager
def acting_as(role: str):
    with connection.cursor() as cursor:
        cursor.execute(f'SET ROLE "{role}"')
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET ROLE")


def privileges(role: str) -> dict[str, set[str]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT table_name, privilege_type "
            "FROM information_schema.table_privileges WHERE grantee = %s",
            [role],
        )
        rows = cursor.fetchall()
    return {table: {p for t, p in rows if t == table} for table, _ in rows}


@pytest.mark.postgres
def test_the_app_role_appends_events_and_writes_the_other_tables(game, app_role):
    with acting_as(app_role):
        result = store.append(
            Game.objects.get(pk=game.pk),
            1,
            [NewEvent(EventKind.ACTION_APPLIED, {"action": {"type": "continue"}}, seat=0)],
        )
        assert result.version == 2
        assert [e["seq"] for e in the_log(game)] == [1, 2]
        assert Game.objects.filter(pk=game.pk).update(current_player=1) == 1


APP_ROLE_REFUSALS = [
    pytest.param(
        raw_sql("UPDATE games_event SET kind = 'Tampered'"), "permission denied", id="update"
    ),
    pytest.param(raw_sql("DELETE FROM games_event"), "permission denied", id="delete"),
    pytest.param(raw_sql(CHECKED, "TRUNCATE games_event"), "permission denied", id="truncate"),
    pytest.param(
        raw_sql("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only"),
        "must be owner",
        id="disable-trigger",
    ),
    pytest.param(
        raw_sql("DROP TRIGGER games_event_append_only_truncate ON games_event"),
        "must be owner",
        id="drop-trigger",
    ),
    pytest.param(
        lambda game: call_command("flush", interactive=False, verbosity=0),
        "must be owner",
        id="flush",
    ),
]


@pytest.mark.postgres
@pytest.mark.parametrize(("attempt", "refusal"), APP_ROLE_REFUSALS)
def test_the_app_role_may_not_change_events_or_lift_the_guard(game, app_role, attempt, refusal):
    before = the_log(game)
    with acting_as(app_role):
        with pytest.raises(DatabaseError, match=refusal):
            with transaction.atomic():
                attempt(game)
    assert the_log(game) == before


@pytest.mark.postgres
def test_grant_app_role_grants_exactly_the_apps_needs_each_time_it_runs(app_role):
    granted = privileges(app_role)
    assert granted["games_event"] == {"SELECT", "INSERT"}
    assert granted["django_migrations"] == {"SELECT"}
    assert granted["games_game"] == {"SELECT", "INSERT", "UPDATE", "DELETE"}
    assert set(granted) == {
        "django_migrations",
        *connection.introspection.django_table_names(only_existing=True, include_views=False),
    }
    with connection.cursor() as cursor:
        cursor.execute(f'GRANT ALL ON games_event TO "{app_role}"')
    call_command("grant_app_role", app_role, stdout=io.StringIO())
    assert privileges(app_role) == granted


@pytest.mark.postgres
def test_grant_app_role_refuses_the_owner_and_a_missing_role():
    with pytest.raises(CommandError, match="superuser or owns the tables"):
        call_command("grant_app_role", connection.settings_dict["USER"])
    with pytest.raises(CommandError, match="no role"):
        call_command("grant_app_role", "hadal_no_such_role")


@pytest.mark.skipif("postgres" in os.environ.get("DATABASE_URL", ""), reason="SQLite's refusal")
def test_grant_app_role_refuses_sqlite():
    with pytest.raises(CommandError, match="PostgreSQL's"):
        call_command("grant_app_role", "anyone")


@pytest.mark.skipif("os.environ.get('DATABASE_URL', '').startswith('postgres')")
def test_a_migration_that_rebuilds_the_table_cannot_leave_the_log_unguarded(game):
    """SQLite loses a table's triggers when a migration remakes it; every migrate puts them
    back (games.apps listens for post_migrate)."""
    from django.apps import apps
    from django.db.models.signals import post_migrate

    with connection.cursor() as cursor:
        for op in ("update", "delete"):
            cursor.execute(f"DROP TRIGGER games_event_append_only_{op}")
    post_migrate.send(
        sender=apps.get_app_config("games"),
        app_config=apps.get_app_config("games"),
        verbosity=0,
        interactive=False,
        using=connection.alias,
        apps=apps,
        plan=[],
    )
    with pytest.raises(DatabaseError, match="append-only"):
        with transaction.atomic():
            raw_sql("DELETE FROM games_event WHERE game_id = %s")(game)
    assert [e["kind"] for e in the_log(game)] == ["GameCreated"]
