"""Tie-break formulas get a version (issue 38): events finished before it keep version 1, so a
published final standing never changes; events still open or running take version 2."""

from django.db import migrations, models


def keep_finished_on_version_1(apps, schema_editor):
    Tournament = apps.get_model("league", "Tournament")
    Tournament.objects.filter(status="finished").update(tiebreak_version=1)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0017_round_clock"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="tiebreak_version",
            field=models.PositiveSmallIntegerField(default=2),
        ),
        migrations.RunPython(keep_finished_on_version_1, migrations.RunPython.noop),
    ]
