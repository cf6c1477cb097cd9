"""Every event gets a hash chained over the one before it, and every game the hash of its last
event, its fingerprint (games/logchain.py).

The logs written before this get their chain here, computed from what they hold: the only
time events are written to after they are appended, so the append-only triggers stand aside
for it (PostgreSQL's disabled within this migration's transaction, SQLite's dropped and made
again). Only the new column is filled; nothing an event says changes.
"""

import django.utils.timezone
from django.db import migrations, models

from games.logchain import GENESIS, event_hash, time_text
from games.store.guards import OPERATIONS, sqlite_trigger

BATCH = 2000


def chain_existing_logs(apps, schema_editor):
    Event = apps.get_model("games", "Event")
    Game = apps.get_model("games", "Game")
    db = schema_editor.connection.alias
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_event DISABLE TRIGGER games_event_append_only")
    elif vendor == "sqlite":
        for op in OPERATIONS:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS games_event_append_only_{op.lower()}")
    events = Event.objects.using(db)
    pending = []
    # Read each list whole before writing beside it (SQLite and open cursors do not mix).
    for game_id in list(Game.objects.using(db).order_by("id").values_list("id", flat=True)):
        previous = GENESIS
        for event in list(
            events.filter(game_id=game_id)
            .order_by("seq")
            .only("id", "seq", "kind", "data", "seat", "created_at")
        ):
            previous = event_hash(
                previous,
                event.seq,
                event.kind,
                event.data,
                event.seat,
                time_text(event.created_at),
                chain=1,  # the logs of the time: format 1 (Game.chain_version)
            )
            event.hash = previous
            pending.append(event)
            if len(pending) >= BATCH:
                events.bulk_update(pending, ["hash"])
                pending = []
        Game.objects.using(db).filter(pk=game_id).update(fingerprint=previous)
    if pending:
        events.bulk_update(pending, ["hash"])
    if vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_event ENABLE TRIGGER games_event_append_only")
    elif vendor == "sqlite":
        for op in OPERATIONS:
            schema_editor.execute(sqlite_trigger(op))


class Migration(migrations.Migration):
    dependencies = [("games", "0012_list_indexes")]

    operations = [
        migrations.AddField(
            model_name="event",
            name="hash",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="game",
            name="fingerprint",
            field=models.CharField(blank=True, default="", max_length=64),
        ),
        migrations.AlterField(
            model_name="event",
            name="created_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        migrations.RunPython(chain_existing_logs, migrations.RunPython.noop),
    ]
