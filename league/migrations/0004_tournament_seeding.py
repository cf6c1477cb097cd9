from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0003_season_dates"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="seeding",
            field=models.CharField(
                choices=[("entry", "Entry"), ("rating", "Rating"), ("random", "Random")],
                default="entry",
                max_length=6,
            ),
        ),
    ]
