"""manage.py restore PATH: a backup (manage.py backup) restored into an empty database
(core.backups), and what to do before the service serves it."""

from __future__ import annotations

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from core.backups import BackupError, database_restore

AFTERWARDS = """Before the service serves it:
  manage.py migrate          if this code is newer than the backup
  manage.py check_history    every game's chain, replay, head and ratings
  clear the shared cache     it holds game heads of the database replaced (docs/operations.md)
  restart the workers        so that none keeps what it read before
  manage.py erase_member --ledger FILE
                             erase again whoever was erased since the backup was taken"""


class Command(BaseCommand):
    help = (
        "Restore a backup made by manage.py backup into the configured database, which must "
        "be empty (a new database); then run check_history and clear the shared cache."
    )

    def add_arguments(self, parser):
        parser.add_argument("path", help="the backup's file")
        parser.add_argument("--database", default=DEFAULT_DB_ALIAS, help="the database alias")

    def handle(self, *args, path: str, database: str, **options):
        try:
            done = database_restore(using=database, path=Path(path))
        except BackupError as exc:
            raise CommandError(str(exc)) from None
        self.stdout.write(f"{done}\n{AFTERWARDS}")
