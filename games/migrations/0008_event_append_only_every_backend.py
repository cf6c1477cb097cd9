"""Events are append-only on every backend, not only through the model.

The model and its queryset refuse updates and deletes, but ``_base_manager``, a bare
``QuerySet(model=Event)``, ``_raw_delete``, ``bulk_create(update_conflicts=True)`` and raw SQL
go around them. So the database refuses too: on SQLite, row triggers (0002 covered PostgreSQL's
UPDATE and DELETE), and on PostgreSQL a statement trigger for TRUNCATE, which row triggers
never see.

SQLite drops a table's triggers when Django's schema editor remakes the table; games.apps
creates any that are missing after every migrate (games/store/guards.py).
"""

from django.db import migrations

from games.store.guards import OPERATIONS, sqlite_trigger

SQLITE_CREATE = [sqlite_trigger(op) for op in OPERATIONS]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS games_event_append_only_update;",
    "DROP TRIGGER IF EXISTS games_event_append_only_delete;",
]

# 0002's function raises for whatever TG_OP it is called with.
POSTGRES_CREATE = [
    """
    CREATE TRIGGER games_event_append_only_truncate
    BEFORE TRUNCATE ON games_event
    FOR EACH STATEMENT EXECUTE FUNCTION games_event_append_only();
"""
]
POSTGRES_DROP = ["DROP TRIGGER IF EXISTS games_event_append_only_truncate ON games_event;"]

STATEMENTS = {
    "sqlite": (SQLITE_CREATE, SQLITE_DROP),
    "postgresql": (POSTGRES_CREATE, POSTGRES_DROP),
}


def forwards(apps, schema_editor):
    create, _ = STATEMENTS.get(schema_editor.connection.vendor, ([], []))
    for sql in create:
        schema_editor.execute(sql, params=None)


def backwards(apps, schema_editor):
    _, drop = STATEMENTS.get(schema_editor.connection.vendor, ([], []))
    for sql in drop:
        schema_editor.execute(sql, params=None)


class Migration(migrations.Migration):
    dependencies = [("games", "0007_snapshot_state_json")]

    operations = [migrations.RunPython(forwards, backwards)]
