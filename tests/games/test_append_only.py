"""Events are append-only below the model too: the database refuses every way around it, on
whichever backend the suite runs against (SQLite by default, PostgreSQL in CI)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command
from django.db import DatabaseError, connection, transaction
from django.db.models import QuerySet

from games import services
from games.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def game(alice, bob):
    return services.game_create(slug="deep-sea-adventure",
                                seats=[{"user": "alice"}, {"user": "bob"}], options={},
                                created_by=alice)


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
    Event.objects.bulk_create([Event(game=game, seq=1, kind="Tampered", data={}, batch=1)],
                              update_conflicts=True, unique_fields=["game", "seq"],
                              update_fields=["kind", "data"])


BYPASSES = [
    pytest.param(lambda game: Event._base_manager.filter(game=game).update(kind="Tampered"),
                 id="base-manager-update"),
    pytest.param(lambda game: Event._base_manager.filter(game=game).delete(),
                 id="base-manager-delete"),
    pytest.param(lambda game: QuerySet(model=Event).filter(game=game).update(kind="Tampered"),
                 id="bare-queryset-update"),
    pytest.param(lambda game: Event.objects.filter(game=game)._raw_delete(connection.alias),
                 id="raw-delete"),
    pytest.param(upsert_onto_event_one, id="bulk-create-update-conflicts"),
    pytest.param(raw_sql("UPDATE games_event SET kind = 'Tampered' WHERE game_id = %s"),
                 id="sql-update"),
    pytest.param(raw_sql("DELETE FROM games_event WHERE game_id = %s"), id="sql-delete"),
    pytest.param(raw_sql(CHECKED, "TRUNCATE games_event"), id="sql-truncate",
                 marks=pytest.mark.postgres),
    pytest.param(raw_sql(CHECKED, "TRUNCATE games_game CASCADE"), id="sql-truncate-cascading",
                 marks=pytest.mark.postgres),
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
    again = services.game_create(slug="deep-sea-adventure",
                                 seats=[{"user": "alice"}, {"user": "bob"}], options={},
                                 created_by=None)
    with pytest.raises(DatabaseError, match="append-only"):
        raw_sql("DELETE FROM games_event WHERE game_id = %s")(again)


def test_a_flush_not_confirmed_changes_nothing(game, monkeypatch):
    monkeypatch.setattr("builtins.input", lambda prompt: "no")
    call_command("flush", stdout=io.StringIO())
    assert [e["kind"] for e in the_log(game)] == ["GameCreated"]
