from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0013_drafts"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="check_in_closed_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
