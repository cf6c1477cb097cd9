"""Consent (issue 33): a tournament entry's answer, and a finished game held until everyone in
it has agreed. Entries made before this migration were made when entering was agreeing: they
are taken as accepted, so that no game rated before it changes."""

from django.db import migrations, models

ANSWERS = [("invited", "Invited"), ("accepted", "Accepted"), ("declined", "Declined")]


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0007_league_invitations"),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="answer",
            field=models.CharField(choices=ANSWERS, default="accepted", max_length=8),
        ),
        migrations.AlterField(
            model_name="entry",
            name="answer",
            field=models.CharField(choices=ANSWERS, default="invited", max_length=8),
        ),
        migrations.AddField(
            model_name="ratedgame",
            name="consent",
            field=models.CharField(
                choices=[("agreed", "Agreed"), ("waiting", "Waiting"), ("refused", "Refused")],
                default="agreed",
                max_length=8,
            ),
        ),
        migrations.AlterField(
            model_name="ratedgame",
            name="skipped",
            field=models.CharField(blank=True, max_length=200),
        ),
    ]
