"""A snapshot says what it was taken at, the hash of its event, and carries a keyed check of
what it holds (games.store): the app's database role may rewrite the table, never the check.
The state becomes text, the canonical JSON the check covers byte for byte (jsonb would spell it
its own way, and checking it would mean encoding the state again).

The snapshots written before are left as they are (their JSON cast to text): with no chain
hash and no check the store never uses them, and puts a sealed one in each one's place as a
read replays past it. The database's defaults keep a row written by code of before this
(during a deploy) unsealed, so it is never used either. On PostgreSQL the new columns come
with constant defaults; the cast rewrites the table, a cache of one row per 50 events.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0019_game_chain_version")]

    operations = [
        migrations.AddField(
            model_name="snapshot",
            name="chain_hash",
            field=models.CharField(db_default="", default="", max_length=64),
        ),
        migrations.AddField(
            model_name="snapshot",
            name="mac",
            field=models.CharField(db_default="", default="", max_length=64),
        ),
        migrations.AlterField(model_name="snapshot", name="state", field=models.TextField()),
    ]
