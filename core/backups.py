"""A copy of the whole database, and that copy restored into an empty database
(``manage.py backup`` and ``manage.py restore``; docs/operations.md says when and how).

SQLite is copied with its own online backup API, page by page under a read lock, so the copy
is consistent while the server goes on writing; the copy is left in rollback-journal mode, one
file with nothing beside it. PostgreSQL is dumped by ``pg_dump --format=custom`` and restored by
``pg_restore`` in one transaction, so that a restore that fails leaves the database as it was.
The connection comes from the database's settings; a password goes to the child in its
environment (PGPASSWORD), never on a command line another user could read.

A restore goes only into a database that holds nothing yet: its tables, if it has any, hold no
row beyond what ``migrate`` writes itself (content types and permissions). A restore over a
club's data would be a loss no later step could undo.

A backup is written beside its destination and renamed into place once whole, so that a file
at the destination is always a whole backup.
"""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path
from typing import Any

from django.db import connections

SQLITE_HEADER = b"SQLite format 3\x00"
PG_DUMP_HEADER = b"PGDMP"  # pg_dump's custom format
# What migrate writes into a new database itself: a database holding only these is empty.
MIGRATE_WRITES = frozenset({"django_content_type", "auth_permission"})


class BackupError(Exception):
    """A backup or restore that cannot be made; the message says why. Nothing was changed."""


# -- backing up -----------------------------------------------------------------------------------


def database_backup(*, using: str, path: Path, force: bool = False) -> str:
    """Back up the database ``using`` to ``path``; what was written, in a sentence."""
    connection = connections[using]
    with _written(path, force=force) as part:
        if connection.vendor == "sqlite":
            _sqlite_copy(_sqlite_file(connection.settings_dict), part)
        elif connection.vendor == "postgresql":
            _run(
                "pg_dump",
                ["--format=custom", f"--file={part}", *_pg_connection(connection.settings_dict)],
                connection.settings_dict,
            )
        else:
            raise BackupError(f"backing up {connection.vendor} is not supported")
    return f"{_name(connection)} backed up to {path} ({path.stat().st_size:,} bytes)"


@contextmanager
def _written(path: Path, *, force: bool) -> Iterator[Path]:
    """A file beside ``path`` to write the backup into, renamed to ``path`` once whole and
    removed if anything fails."""
    if path.is_dir():
        raise BackupError(f"{path} is a directory: give the backup's file name")
    if path.exists() and not force:
        raise BackupError(f"{path} exists: give --force to replace it")
    folder = path.parent
    if not folder.is_dir():
        raise BackupError(f"cannot write {path}: there is no directory {folder}")
    try:
        handle, name = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    except OSError as exc:
        raise BackupError(f"cannot write {path}: {exc.strerror}") from None
    os.close(handle)
    part = Path(name)
    try:
        yield part
        part.replace(path)
    finally:
        part.unlink(missing_ok=True)


def _sqlite_file(settings: dict[str, Any]) -> Path:
    name = str(settings["NAME"])
    if name == ":memory:" or "mode=memory" in name:
        raise BackupError("an in-memory database has no file to back up or restore into")
    return Path(name)


def _sqlite_copy(source: Path, target: Path) -> None:
    if not source.is_file():
        raise BackupError(f"there is no database at {source}")
    # A connection of its own, not Django's: the copy must not see an open transaction's
    # writes, nor hold up the server's. One step: consistent, whatever the server writes.
    # (closing(): sqlite3's own ``with`` commits but never closes.)
    with (
        closing(sqlite3.connect(source, timeout=20)) as src,
        closing(sqlite3.connect(target)) as dst,
    ):
        src.backup(dst)
        dst.execute("PRAGMA journal_mode=DELETE")  # one file, no -wal beside it


# -- restoring ------------------------------------------------------------------------------------


def database_restore(*, using: str, path: Path) -> str:
    """Restore the backup ``path`` into the database ``using``, which must be empty; what was
    restored, in a sentence; BackupError, and nothing changed, otherwise."""
    connection = connections[using]
    kind = backup_kind(path)
    if kind != connection.vendor:
        words = {"sqlite": "an SQLite database's", "postgresql": "a PostgreSQL dump's"}
        raise BackupError(
            f"{path} is {words[kind]} backup and {_name(connection)} is {connection.vendor}: "
            f"restore it into a database of its kind"
        )
    if kind == "sqlite":
        _sqlite_check(path)
    held = rows_held(using=using)
    if held:
        raise BackupError(
            f"the database {_name(connection)} is not empty ({_what(held)}): restore into a "
            "new, empty database"
        )
    connection.close()  # nothing of Django's may hold the database while it is replaced
    if kind == "sqlite":
        _sqlite_copy(path, _sqlite_file(connection.settings_dict))
    else:
        _run(
            "pg_restore",
            # One transaction: an error anywhere restores nothing. --clean drops the empty
            # tables a migrate may have made; the objects take the restoring role as owner.
            [
                "--no-owner",
                "--exit-on-error",
                "--single-transaction",
                "--clean",
                "--if-exists",
                *_pg_connection(connection.settings_dict),
                str(path),
            ],
            connection.settings_dict,
        )
    connection.close()
    return f"{path} restored into {_name(connection)} ({_what(rows_held(using=using))})"


def backup_kind(path: Path) -> str:
    """ "sqlite" or "postgresql", by the file's first bytes; BackupError for anything else."""
    try:
        with path.open("rb") as file:
            head = file.read(len(SQLITE_HEADER))
    except OSError as exc:
        raise BackupError(f"cannot read {path}: {exc.strerror}") from None
    if head == SQLITE_HEADER:
        return "sqlite"
    if head.startswith(PG_DUMP_HEADER):
        return "postgresql"
    raise BackupError(
        f"{path} is not a backup: neither an SQLite database nor pg_dump's custom format"
    )


def _sqlite_check(path: Path) -> None:
    """An SQLite file that is whole and holds the service's tables."""
    try:
        with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            whole = db.execute("PRAGMA quick_check").fetchone()[0]
            tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    except sqlite3.DatabaseError as exc:
        raise BackupError(f"{path} is not a whole SQLite database: {exc}") from None
    if whole != "ok":
        raise BackupError(f"{path} is damaged: {whole}")
    if "games_game" not in tables:
        raise BackupError(f"{path} is an SQLite database but not a backup of this service")


def rows_held(*, using: str) -> dict[str, int]:
    """The rows in each of the database's tables that hold any, beyond what migrate writes
    itself; nothing for a database with no tables yet."""
    connection = connections[using]
    with connection.cursor() as cursor:
        tables = connection.introspection.django_table_names(
            only_existing=True, include_views=False
        )
        held = {}
        for table in sorted(set(tables) - MIGRATE_WRITES):
            cursor.execute(f"SELECT COUNT(*) FROM {connection.ops.quote_name(table)}")
            if count := cursor.fetchone()[0]:
                held[table] = count
    return held


def _what(held: dict[str, int]) -> str:
    """``12 games, 4 users``, and the other tables with rows when neither has any."""
    counts = f"{held.get('games_game', 0):,} games, {held.get('auth_user', 0):,} users"
    others = sorted(set(held) - {"games_game", "auth_user"})
    if others and not (held.get("games_game") or held.get("auth_user")):
        counts += f"; rows in {', '.join(others)}"
    return counts


# -- PostgreSQL's programs ------------------------------------------------------------------------


def _pg_connection(settings: dict[str, Any]) -> list[str]:
    """The arguments that name the database and how to reach it, as Django reaches it."""
    args = ["--no-password", f"--dbname={settings['NAME']}"]
    for flag, key in (("--host", "HOST"), ("--port", "PORT"), ("--username", "USER")):
        if settings.get(key):
            args.append(f"{flag}={settings[key]}")
    return args


def _run(program: str, args: list[str], settings: dict[str, Any]) -> None:
    found = shutil.which(program)
    if found is None:
        raise BackupError(
            f"{program} is not installed: it comes with PostgreSQL's client programs "
            "(postgresql-client, of the server's major version or newer)"
        )
    env = {**os.environ}
    if settings.get("PASSWORD"):
        env["PGPASSWORD"] = settings["PASSWORD"]
    if sslmode := settings.get("OPTIONS", {}).get("sslmode"):
        env["PGSSLMODE"] = sslmode
    done = subprocess.run([found, *args], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise BackupError(f"{program} failed (exit {done.returncode}): {done.stderr.strip()}")


def _name(connection) -> str:
    return str(connection.settings_dict["NAME"])
