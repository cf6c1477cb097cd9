"""Turn e-mails are a choice of the inbox now (inbox.models.Choices.mail["your_turn"]):
inbox's first migration copied every member's Profile.turn_emails there, so it runs first."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0004_api_tokens_and_bot_accounts"),
        ("inbox", "0001_notices"),
    ]

    operations = [
        migrations.RemoveField(model_name="profile", name="turn_emails"),
    ]
