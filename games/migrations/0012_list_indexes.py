from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0011_score_sheet"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="game",
            options={"ordering": ["-updated_at", "-id"]},
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="games_game_status_b73818_idx",
        ),
        migrations.RemoveIndex(
            model_name="game",
            name="game_recent",
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["updated_at", "id"], name="game_recent"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["status", "updated_at", "id"], name="game_status_recent"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(fields=["slug", "updated_at", "id"], name="game_slug_recent"),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                fields=["slug", "status", "updated_at", "id"], name="game_slug_status_recent"
            ),
        ),
        migrations.AddIndex(
            model_name="game",
            index=models.Index(
                condition=models.Q(("status", "finished")),
                fields=["slug", "finished_at", "id"],
                name="game_slug_finished",
            ),
        ),
    ]
