import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models


def moved_at_from_updated_at(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    Game.objects.using(schema_editor.connection.alias).update(moved_at=models.F("updated_at"))


def room_for_updates_in_place(apps, schema_editor):
    """Leave a fifth of each page free, so that a move's new row version fits beside the old
    one (PostgreSQL's HOT update)."""
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_game SET (fillfactor = 80)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0009_event_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="moved_at",
            field=models.DateTimeField(default=django.utils.timezone.now),
        ),
        migrations.RunPython(moved_at_from_updated_at, migrations.RunPython.noop),
        migrations.RunPython(room_for_updates_in_place, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="event",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AlterField(
            model_name="seat",
            name="game",
            field=models.ForeignKey(
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="seats",
                to="games.game",
            ),
        ),
    ]
