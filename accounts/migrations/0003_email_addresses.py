"""Every member's e-mail address as django-allauth keeps it: the address on their user row
(given on the settings page for turn e-mails, before allauth) becomes their primary address,
not verified. Nobody confirmed it was theirs, so it gets no mail (turn e-mails included) until
they verify it from their settings page. Addresses are kept lower-cased, as allauth keeps them;
two members who gave the same address each hold it unverified, and whoever verifies it first
has it."""

from django.conf import settings
from django.db import migrations


def addresses_from_user_rows(apps, schema_editor):
    db = schema_editor.connection.alias
    User = apps.get_model(settings.AUTH_USER_MODEL)
    EmailAddress = apps.get_model("account", "EmailAddress")
    has_address = set(EmailAddress.objects.using(db).values_list("user_id", flat=True))
    EmailAddress.objects.using(db).bulk_create(
        [
            EmailAddress(user_id=pk, email=email.strip().lower(), primary=True, verified=False)
            for pk, email in User.objects.using(db)
            .exclude(email="")
            .order_by("pk")
            .values_list("pk", "email")
            .iterator()
            if pk not in has_address and email.strip()
        ],
        batch_size=500,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_person"),
        ("account", "0009_emailaddress_unique_primary_email"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        # Backwards, the rows stay: they are allauth's, and go with its own tables.
        migrations.RunPython(addresses_from_user_rows, migrations.RunPython.noop),
    ]
