"""Walk-ins: an entry by a guest's name, without an account, that a member may claim later with
its code. Every entry stored has a user, so none changes."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0018_tiebreak_version"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="claim_code",
            field=models.CharField(blank=True, default="", max_length=12),
        ),
        migrations.AddField(
            model_name="entry",
            name="guest",
            field=models.CharField(blank=True, default="", max_length=60),
        ),
        migrations.AlterField(
            model_name="entry",
            name="user",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="entries",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.UniqueConstraint(
                condition=models.Q(
                    models.Q(("guest", ""), _negated=True),
                    models.Q(("guest", "a former guest"), _negated=True),
                ),
                fields=("tournament", "guest"),
                name="entry_guest_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="entry",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("user__isnull", False), models.Q(("guest", ""), _negated=True), _connector="OR"
                ),
                name="entry_user_or_guest",
            ),
        ),
    ]
