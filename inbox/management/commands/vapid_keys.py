"""manage.py vapid_keys: a new VAPID key pair for Web Push (inbox.push), as environment lines."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from inbox.push import vapid_key_pair


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for Web Push as lines for the environment (.env). Set "
        "both, with HADAL_VAPID_SUBJECT, to turn pushes on. A new pair makes every device "
        "subscribed under the old one ask again: keep the pair."
    )

    def handle(self, *args, **options):
        public, private = vapid_key_pair()
        self.stdout.write(f"HADAL_VAPID_PUBLIC_KEY={public}")
        self.stdout.write(f"HADAL_VAPID_PRIVATE_KEY={private}")
