"""The database's own refusal to change an event, on SQLite (PostgreSQL's triggers are in
migrations 0002 and 0008).

SQLite drops a table's triggers whenever Django's schema editor remakes the table (altering a
column of games_event does), so they are created in migration 0008 and checked again after
every ``migrate``: a later migration cannot leave the log unguarded.
"""

from __future__ import annotations

OPERATIONS = ("UPDATE", "DELETE")


def sqlite_trigger(op: str) -> str:
    return f"""
    CREATE TRIGGER IF NOT EXISTS games_event_append_only_{op.lower()} BEFORE {op} ON games_event
    BEGIN
        SELECT RAISE(ABORT,
                     'games_event is append-only: {op} refused (corrections are new events)');
    END;
    """


def ensure_sqlite_triggers(connection) -> None:
    """Create the triggers where they are missing; a no-op on other backends."""
    if connection.vendor != "sqlite":
        return
    with connection.cursor() as cursor:
        if "games_event" not in connection.introspection.table_names(cursor):
            return
        for op in OPERATIONS:
            cursor.execute(sqlite_trigger(op))
