"""Events' game and actor without foreign-key constraints in PostgreSQL: each append checked
both in a trigger, a third of the statement's time, for what the store's one writer already
makes true (events are inserted only for the game row updated in the same statement, and games
are never deleted; the actor is the request's user, and users are protected). Django still
refuses to delete a game or a user that events refer to.

On SQLite the constraints stay: changing them rebuilds the table, which would drop the
append-only triggers of 0008, and SQLite's checks cost little."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class AlterFieldOnPostgreSQL(migrations.AlterField):
    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "postgresql":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_list_indexes"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        AlterFieldOnPostgreSQL(
            model_name="event",
            name="actor",
            field=models.ForeignKey(
                blank=True,
                db_constraint=False,
                db_index=False,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        AlterFieldOnPostgreSQL(
            model_name="event",
            name="game",
            field=models.ForeignKey(
                db_constraint=False,
                db_index=False,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="events",
                to="games.game",
            ),
        ),
    ]
