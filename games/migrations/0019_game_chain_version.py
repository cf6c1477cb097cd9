"""Each game records its chain's format (games/logchain.py): what each event's hash covers.

The games logged before keep format 1, their hashes leaving the actor out: events are never
rewritten, so their chain stays exactly as it is. The database's default stays 1, for them and
for any row written without the field (code of before this, still running during a deploy,
hashes format 1); the model makes every new game format 2, whose hashes cover the actor. On
PostgreSQL the column comes with a constant default, so the table is not rewritten.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("games", "0018_analysis_requested_by")]

    operations = [
        migrations.AddField(
            model_name="game",
            name="chain_version",
            field=models.PositiveSmallIntegerField(db_default=1, default=2),
        ),
    ]
