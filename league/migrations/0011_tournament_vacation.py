"""Whether a tournament lets a player away from the board stop the clock of their
correspondence tables (``Tournament.vacation_allowed``, on for every tournament so far)."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0010_tournament_people_only"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="vacation_allowed",
            field=models.BooleanField(default=True),
        ),
    ]
