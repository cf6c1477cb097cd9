"""manage.py verify_log FILE: check an exported game bundle (games/verify_log.py)."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from games.verify_log import BundleError, verify


class Command(BaseCommand):
    help = "Check a game's export bundle: every hash, the fingerprint, and a replay by the rules."

    def add_arguments(self, parser):
        parser.add_argument("file", help="the bundle (GET /api/games/{id}/export/)")

    def handle(self, *args, file: str, **options):
        try:
            raw = Path(file).read_bytes()
        except OSError as exc:
            raise CommandError(f"cannot read {file}: {exc.strerror}") from None
        try:
            result = verify(raw)
        except BundleError as exc:
            raise CommandError(f"the bundle fails: {exc}") from None
        self.stdout.write(result.summary())
