"""Named API tokens with scopes, their keys kept only as SHA-256 hashes (accounts.tokens);
and bot accounts (``Profile.bot_since``, accounts.bots).

The keys DRF's authtoken app made (one a member, in ``authtoken_token``, in the clear) become
tokens here with every scope, hashed, so that every client keeps working with the key it
has; then that table is dropped with the keys in it, and the app forgotten (it is no longer
installed). Going back cannot bring the keys back: it drops the new tokens, and members sign
in again.
"""

import hashlib
from datetime import UTC

import django.db.models.deletion
import django.utils.timezone
from django.conf import settings
from django.db import migrations, models
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone as django_timezone
from django.utils.dateparse import parse_datetime

LEGACY = "authtoken_token"


def _aware(created):
    created = parse_datetime(created) if isinstance(created, str) else created
    if django_timezone.is_naive(created):  # SQLite's, read as text
        created = django_timezone.make_aware(created, UTC)
    return created


def hash_the_old_keys(apps, schema_editor):
    connection = schema_editor.connection
    if LEGACY not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "key", "user_id", "created" FROM {LEGACY}')
        rows = cursor.fetchall()
    ApiToken.objects.using(connection.alias).bulk_create(
        [
            ApiToken(
                user_id=user_id,
                name="API token from before named tokens",
                prefix=key[:8],
                key_hash=hashlib.sha256(key.encode("utf-8")).hexdigest(),
                scope_read=True,
                scope_play=True,
                scope_record=True,
                scope_organise=True,
                created_at=_aware(created),
            )
            for key, user_id, created in rows
        ]
    )
    schema_editor.execute(f"DROP TABLE {LEGACY}")
    MigrationRecorder(connection).migration_qs.filter(app="authtoken").delete()


class Migration(migrations.Migration):
    # After 0004 (the members' e-mail addresses, made on another branch at the same time and
    # merged first), so that the accounts app keeps one line of migrations.
    dependencies = [
        ("accounts", "0003_email_addresses"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("name", models.CharField(max_length=60)),
                ("prefix", models.CharField(max_length=12)),
                ("key_hash", models.CharField(max_length=64, unique=True)),
                ("scope_read", models.BooleanField(default=False)),
                ("scope_play", models.BooleanField(default=False)),
                ("scope_record", models.BooleanField(default=False)),
                ("scope_organise", models.BooleanField(default=False)),
                ("from_password", models.BooleanField(default=False)),
                ("created_at", models.DateTimeField(default=django.utils.timezone.now)),
                ("expires_at", models.DateTimeField(blank=True, null=True)),
                ("last_used_at", models.DateTimeField(blank=True, null=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(hash_the_old_keys, migrations.RunPython.noop, elidable=False),
        migrations.AddField(
            model_name="profile",
            name="bot_since",
            field=models.DateTimeField(blank=True, null=True),
        ),
    ]
