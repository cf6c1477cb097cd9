"""Django's flush, able to empty the event log.

A flush resets the whole database, and the test runner flushes after every transactional
test; the append-only triggers refuse its DELETE (SQLite) and TRUNCATE (PostgreSQL), and so
does games_game's on PostgreSQL. So it
lifts them inside its own transaction and puts them back before that commits. On PostgreSQL
only the tables' owner may lift a trigger: as the app role, a flush fails with "must be owner".
"""

from contextlib import contextmanager

from django.core.management.commands import flush
from django.db import connections, transaction

from games.models import Event, Game
from games.store.guards import ensure_sqlite_triggers


class Command(flush.Command):
    def handle(self, **options):
        connection = connections[options["database"]]
        # Ask before the transaction starts: lifting the triggers locks the event table.
        if (
            options["interactive"]
            and input(
                f"Flush every table of {connection.settings_dict['NAME']}, the event log "
                "included? Type 'yes' to continue: "
            )
            != "yes"
        ):
            self.stdout.write("Flush cancelled.")
            return
        # Nothing puts the triggers back on an error: the transaction's rollback does.
        with transaction.atomic(using=connection.alias), triggers_lifted(connection):
            super().handle(**{**options, "interactive": False})


@contextmanager
def triggers_lifted(connection):
    """The triggers of the event table (and on PostgreSQL of the games', which keep their
    heads) are off inside the block; the caller holds a transaction."""
    if connection.vendor != "postgresql":
        with _dropped(connection, Event._meta.db_table):
            yield
        return
    with _disabled(connection, Event._meta.db_table), _disabled(connection, Game._meta.db_table):
        yield


@contextmanager
def _disabled(connection, table):
    with connection.cursor() as cursor:
        cursor.execute(f'ALTER TABLE "{table}" DISABLE TRIGGER USER')
    yield
    with connection.cursor() as cursor:
        cursor.execute(f'ALTER TABLE "{table}" ENABLE TRIGGER USER')


@contextmanager
def _dropped(connection, table):
    """SQLite cannot disable a trigger: drop it, then create it again (the flush's own
    post-migrate signal may already have)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = %s", [table]
        )
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP TRIGGER "{name}"')
    yield
    ensure_sqlite_triggers(connection)
