import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0010_moves_in_place"),
    ]

    operations = [
        migrations.CreateModel(
            name="ScoreSheet",
            fields=[
                (
                    "game",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="score_sheet",
                        serialize=False,
                        to="games.game",
                    ),
                ),
                ("slug", models.CharField(max_length=40)),
                ("sheet", models.JSONField()),
            ],
            options={
                "indexes": [models.Index(fields=["slug"], name="games_score_slug_1b8f84_idx")],
            },
        ),
    ]
