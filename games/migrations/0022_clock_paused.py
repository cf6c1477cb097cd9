"""A clock that waits for a member away from the board: ``Game.paused`` and the event kinds
ClockPaused and ClockResumed (games.play.clocks, games.play.away). No stored log changes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0021_people_by_id"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="paused",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.AlterField(
            model_name="event",
            name="kind",
            field=models.CharField(
                choices=[
                    ("GameCreated", "Game Created"),
                    ("ActionApplied", "Action Applied"),
                    ("ChanceResolved", "Chance Resolved"),
                    ("SeatAccepted", "Seat Accepted"),
                    ("SeatDeclined", "Seat Declined"),
                    ("SeatJoined", "Seat Joined"),
                    ("SeatResigned", "Seat Resigned"),
                    ("GameFinished", "Game Finished"),
                    ("ResultRecorded", "Result Recorded"),
                    ("ResultReported", "Result Reported"),
                    ("ResultConfirmed", "Result Confirmed"),
                    ("ResultDisputed", "Result Disputed"),
                    ("ResultOverridden", "Result Overridden"),
                    ("ResultCorrected", "Result Corrected"),
                    ("GameVoided", "Game Voided"),
                    ("LogStarted", "Log Started"),
                    ("EntryUndone", "Entry Undone"),
                    ("ClockPaused", "Clock Paused"),
                    ("ClockResumed", "Clock Resumed"),
                ],
                max_length=30,
            ),
        ),
    ]
