"""manage.py backup PATH: a consistent copy of the whole database (core.backups), while the
service runs."""

from __future__ import annotations

import time
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from core.backups import BackupError, database_backup


class Command(BaseCommand):
    help = (
        "Back up the whole database to PATH: SQLite by its online backup API, PostgreSQL by "
        "pg_dump --format=custom. Restore it with manage.py restore."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup's file")
        parser.add_argument("--force", action="store_true", help="replace PATH if it exists")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias")

    def handle(self, *args, path: str, force: bool, database: str, **options):
        began = time.perf_counter()
        try:
            done = database_backup(using=database, path=Path(path), force=force)
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{done} in {time.perf_counter() - began:.1f} s")
