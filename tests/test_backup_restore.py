"""``manage.py backup`` and ``manage.py restore`` (issue 35, item 5): a database holding games of
every kind, backed up, restored into a new database and checked there by check_history, has
every fingerprint, result and rating row it had; a restore into a database that holds data, or
of a file that is no backup, is refused and changes nothing; a backup says why it cannot write.

The round trips commit (a backup reads what another connection sees), on SQLite in every run
and on PostgreSQL where DATABASE_URL names one (CI), into a database made for the test."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from contextlib import closing, contextmanager
from pathlib import Path

import psycopg
import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from games.models import Event, Game
from league.models import RatingChange
from tests.league.history_world import build_world

ROOT = Path(__file__).resolve().parent.parent


def run(command: str, *args: str, **options) -> str:
    out = io.StringIO()
    call_command(command, *args, stdout=out, **options)
    return out.getvalue()


def manage(*args: str, database: str) -> subprocess.CompletedProcess:
    """``manage.py`` as an operator runs it, with DATABASE_URL naming ``database``."""
    env = {**os.environ, "DATABASE_URL": database}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def url_of(settings: dict) -> str:
    """The DATABASE_URL of a database's settings (the test database's, say)."""
    if settings["ENGINE"].endswith("sqlite3"):
        return f"sqlite:///{settings['NAME']}"
    who = settings["USER"] + (f":{settings['PASSWORD']}" if settings.get("PASSWORD") else "")
    return f"postgres://{who}@{settings['HOST']}:{settings['PORT'] or 5432}/{settings['NAME']}"


# What a restore must keep: every game's head and fingerprint, every event, seat and rating row.
KEPT = ["games.game", "games.seat", "games.event", "league.ratedgame", "league.ratingchange"]


def rows(database: str) -> list[dict]:
    dumped = manage("dumpdata", *KEPT, "league.rating", database=database)
    assert dumped.returncode == 0, dumped.stderr
    return json.loads(dumped.stdout)


def restored_and_checked(backup: Path, database: str) -> None:
    """Restore ``backup`` into the new ``database``, check it there, and compare it whole
    with the database it was taken from."""
    restored = manage("restore", str(backup), database=database)
    assert restored.returncode == 0, restored.stderr
    assert "check_history" in restored.stdout and "clear the shared cache" in restored.stdout
    checked = manage("check_history", database=database)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "no differences" in checked.stdout
    original = rows(url_of(connection.settings_dict))
    kinds = {row["model"] for row in original}
    assert {"games.event", "league.ratingchange", "league.rating"} <= kinds
    assert rows(database) == original


# -- the round trips ------------------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_sqlite_a_backup_restored_into_a_new_database_holds_everything(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("the SQLite round trip; the PostgreSQL one is the next test")
    build_world()
    backup = tmp_path / "club.sqlite3"
    assert f"backed up to {backup}" in run("backup", str(backup))
    restored_and_checked(backup, f"sqlite:///{tmp_path / 'restored.sqlite3'}")
    # The append-only guard came with it.
    with closing(sqlite3.connect(tmp_path / "restored.sqlite3")) as db:
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            db.execute("UPDATE games_event SET kind = 'Tampered'")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_postgresql_a_dump_restored_into_a_new_database_holds_everything(tmp_path):
    build_world()
    backup = tmp_path / "club.dump"
    assert f"backed up to {backup}" in run("backup", str(backup))
    with new_postgres_database() as name:
        restored_and_checked(backup, url_of({**connection.settings_dict, "NAME": name}))
        # The append-only guard came with it.
        with psycopg.connect(**{**connection.get_connection_params(), "dbname": name}) as db:
            with pytest.raises(psycopg.Error, match="append-only"):
                db.execute("UPDATE games_event SET kind = 'Tampered'")


@contextmanager
def new_postgres_database() -> Iterator[str]:
    """A database of the test's own on the test database's server, dropped afterwards."""
    name = f"{connection.settings_dict['NAME']}_restored_{uuid.uuid4().hex[:8]}"
    server = {**connection.get_connection_params(), "dbname": "postgres", "autocommit": True}
    with psycopg.connect(**server) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield name
    finally:
        with psycopg.connect(**server) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# -- what is refused ------------------------------------------------------------------------------


def held() -> dict[str, list]:
    """This database's games, events and rating changes, as the test's connection sees them."""
    return {
        "games": list(Game.objects.order_by("id").values_list("id", "fingerprint", "result")),
        "events": list(Event.objects.order_by("game_id", "seq").values_list("game_id", "hash")),
        "changes": list(RatingChange.objects.order_by("id").values_list("game_id", "rank")),
    }


@pytest.mark.django_db
def test_a_restore_into_a_database_that_holds_data_is_refused_and_changes_nothing(tmp_path):
    # A whole backup of this database's committed state: its tables, none of the test's rows.
    backup = tmp_path / "backup"
    run("backup", str(backup))
    build_world()
    before = held()
    games = len(before["games"])
    with pytest.raises(CommandError) as refused:
        run("restore", str(backup))
    name = connection.settings_dict["NAME"]
    assert str(refused.value).startswith(
        f"the database {name} is not empty ({games} games, 4 users"
    )
    assert str(refused.value).endswith("restore into a new, empty database")
    assert held() == before


@pytest.mark.django_db
@pytest.mark.parametrize(
    "content, error",
    [
        (b"", "is not a backup: neither an SQLite database nor pg_dump's custom format"),
        (b"game,date\n1,2026-10-01\n", "is not a backup"),
        (b"SQLite format 3\x00" + b"\x00" * 200, "is not a whole SQLite database"),
    ],
    ids=["empty", "csv", "sqlite-header-only"],
)
def test_a_file_that_is_not_a_backup_is_refused(tmp_path, content, error):
    if connection.vendor != "sqlite" and content.startswith(b"SQLite"):
        error = "is an SQLite database's backup and"
    path = tmp_path / "not-a-backup"
    path.write_bytes(content)
    with pytest.raises(CommandError, match=error):
        run("restore", str(path))


@pytest.mark.django_db
def test_an_sqlite_file_of_something_else_is_refused(tmp_path):
    if connection.vendor != "sqlite":
        pytest.skip("an SQLite backup restores into SQLite only")
    other = tmp_path / "other.sqlite3"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE recipes (name TEXT)")
    with pytest.raises(CommandError, match="is an SQLite database but not a backup of this"):
        run("restore", str(other))


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_a_damaged_dump_restores_nothing(tmp_path):
    dump = tmp_path / "club.dump"
    run("backup", str(dump))
    damaged = tmp_path / "damaged.dump"
    damaged.write_bytes(dump.read_bytes()[: dump.stat().st_size // 2])
    with new_postgres_database() as name:
        restored = manage(
            "restore", str(damaged), database=url_of({**connection.settings_dict, "NAME": name})
        )
        assert restored.returncode == 1 and "pg_restore failed" in restored.stderr
        server = {**connection.get_connection_params(), "dbname": name}
        with psycopg.connect(**server) as db:
            tables = db.execute("SELECT count(*) FROM pg_tables WHERE schemaname = 'public'")
            assert tables.fetchone() == (0,)


@pytest.mark.django_db
def test_a_backup_says_why_it_cannot_write(tmp_path):
    existing = tmp_path / "kept"
    existing.write_text("last week's backup")
    with pytest.raises(CommandError, match="exists: give --force to replace it"):
        run("backup", str(existing))
    assert existing.read_text() == "last week's backup"
    assert "backed up to" in run("backup", str(existing), force=True)
    with pytest.raises(CommandError, match="there is no directory"):
        run("backup", str(tmp_path / "no-such-folder" / "backup"))
    locked = Path("/sys") if os.geteuid() == 0 else tmp_path / "locked"  # root writes anywhere
    if locked != Path("/sys"):
        locked.mkdir(mode=0o500)
    with pytest.raises(CommandError, match=f"cannot write {locked / 'backup'}: Permission denied"):
        run("backup", str(locked / "backup"))
    assert [p.name for p in tmp_path.iterdir() if p.name.endswith(".part")] == []


@pytest.mark.postgres
@pytest.mark.django_db
def test_postgresql_without_pg_dump_a_backup_says_so(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(CommandError, match="pg_dump is not installed"):
        run("backup", str(tmp_path / "backup"))
    assert list(tmp_path.iterdir()) == []
