"""Snapshots hold a state's JSON form, not a pickle: a row must never be able to run code.

The pickled snapshots are dropped rather than converted: they are a cache derived from the
events (reads replay where none is left), and unpickling them here is what is being removed.
A binary column cannot be cast to JSON, so the column is replaced, not altered.
"""

from django.db import migrations, models


def drop_snapshots(apps, schema_editor):
    snapshots = apps.get_model("games", "Snapshot").objects
    snapshots.using(schema_editor.connection.alias).all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_seat_accepted"),
    ]

    # Either way, the rows of the old form go before its column does.
    operations = [
        migrations.RunPython(drop_snapshots, migrations.RunPython.noop),
        migrations.RemoveField(model_name="snapshot", name="state"),
        migrations.AddField(
            model_name="snapshot",
            name="state",
            field=models.JSONField(default=dict),
            preserve_default=False,
        ),
        migrations.RunPython(migrations.RunPython.noop, drop_snapshots),
    ]
