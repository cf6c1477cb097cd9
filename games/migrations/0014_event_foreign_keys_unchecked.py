"""Events' game and actor without foreign-key constraints in PostgreSQL: each append checked
both in a trigger, a third of the statement's time, for what the store's one writer already
makes true (events are inserted only for the game row updated in the same statement, and games
are never deleted; the actor is the request's user, and users are protected). Django still
refuses to delete a game or a user that events refer to, and on PostgreSQL so does the
database: what the constraint refused (deleting a game, or truncating games_game and with it,
by cascade, the log) a trigger on games_game refuses now.

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


HEADS_KEPT = """
CREATE FUNCTION games_game_kept() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'games_game holds the heads of an append-only log: % refused', TG_OP
        USING ERRCODE = 'restrict_violation';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER games_game_kept BEFORE DELETE ON games_game
    FOR EACH ROW EXECUTE FUNCTION games_game_kept();
CREATE TRIGGER games_game_kept_truncate BEFORE TRUNCATE ON games_game
    FOR EACH STATEMENT EXECUTE FUNCTION games_game_kept();
"""
HEADS_UNKEPT = """
DROP TRIGGER IF EXISTS games_game_kept_truncate ON games_game;
DROP TRIGGER IF EXISTS games_game_kept ON games_game;
DROP FUNCTION IF EXISTS games_game_kept();
"""


def keep_heads(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(HEADS_KEPT, params=None)


def unkeep_heads(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(HEADS_UNKEPT, params=None)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_event_hash_chain"),
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
        migrations.RunPython(keep_heads, unkeep_heads),
    ]
