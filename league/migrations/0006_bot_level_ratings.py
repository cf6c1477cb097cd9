from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0005_tournament_stages"),
    ]

    operations = [
        migrations.CreateModel(
            name="BotLevelRating",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("slug", models.CharField(max_length=40)),
                ("level", models.CharField(max_length=20)),
                ("budget", models.CharField(blank=True, max_length=60)),
                ("rating", models.FloatField()),
                ("games", models.PositiveIntegerField()),
                ("measured_at", models.DateTimeField()),
            ],
            options={
                "ordering": ["-rating"],
                "constraints": [
                    models.UniqueConstraint(
                        fields=("slug", "level"), name="bot_level_rating_unique"
                    )
                ],
            },
        ),
    ]
