"""The event kind ResultAdjudicated: an organiser ends a game played here with the result they
set (games.records.table_results.result_adjudicate). No stored log changes."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0022_clock_paused"),
    ]

    operations = [
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
                    ("ResultAdjudicated", "Result Adjudicated"),
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
