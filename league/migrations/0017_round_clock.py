"""The round clock paused and extended (Round.paused_at), and extra time for one table
(Table.extra_minutes): league.services.tournaments.clock."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0016_formats"),
    ]

    operations = [
        migrations.AddField(
            model_name="round",
            name="paused_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="table",
            name="extra_minutes",
            field=models.PositiveSmallIntegerField(default=0),
        ),
    ]
