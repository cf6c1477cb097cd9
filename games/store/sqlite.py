"""The write on SQLite: the head's update (only at the expected version, and only while the
write's guard holds), the events' insert if it matched, the seats' updates, in one IMMEDIATE
transaction, which serialises the writers so that the head cannot move between them.

Two ways in: inside a caller's transaction (the savepoint games.store.writer gave it), through
Django's cursor; alone, straight to sqlite3 (core.direct), in a transaction begun and ended by
this module (Django keeps sqlite3 in autocommit), the transaction Django's atomic() would open
and close, without its bookkeeping."""

from __future__ import annotations

import functools
from typing import Any

from django.db import transaction

from core.direct import cursor_of, direct, qmark
from games.store.columns import EVENT_COLUMNS, EVENT_NAMES, head_where
from games.store.types import Guard

_EVENT_ROW = "(" + ", ".join("%s" for _ in EVENT_COLUMNS) + ")"


def write(
    connection,
    head_id: int,
    expected: int,
    columns: dict[str, Any],
    values: list[list[Any]],
    seat_changes: dict[int, dict[str, Any]],
    guard: Guard | None,
) -> list[int] | None:
    """The events' ids, or None if the head was not at ``expected`` (or the guard refused)."""
    raw = None if connection.in_atomic_block else direct(connection)
    update, insert, *seat_updates = write_sql(
        tuple(columns),
        len(values),
        tuple((index, tuple(c)) for index, c in seat_changes.items()),
        None if guard is None else guard.condition,
        raw is not None,
    )
    statements = [
        (update, [*columns.values(), head_id, expected, *(() if guard is None else guard.params)]),
        (insert, [value for row in values for value in row]),
    ]
    statements += [
        (sql, [*change.values(), head_id, index])
        for sql, (index, change) in zip(seat_updates, seat_changes.items())
    ]
    if raw is None:
        # Within the caller's transaction (write() gave it a savepoint), or one of its own.
        with transaction.atomic(using=connection.alias, savepoint=False), connection.cursor() as c:
            return _run(c.execute, statements)
    cursor = cursor_of(connection, raw)
    with connection.wrap_database_errors:
        cursor.execute("BEGIN IMMEDIATE")
        try:
            ids = _run(cursor.execute, statements)
            cursor.execute("COMMIT" if ids is not None else "ROLLBACK")
        except BaseException:
            if raw.in_transaction:
                raw.rollback()
            raise
    return ids


def _run(execute, statements: list[tuple[str, list[Any]]]) -> list[int] | None:
    """The head's update (None if it was not at the expected version), the events' insert
    (their ids in order) and the seats' updates."""
    (update, update_params), (insert, insert_params), *seats = statements
    if execute(update, update_params).rowcount != 1:
        return None
    rows = execute(insert, insert_params).fetchall()
    for sql, params in seats:
        execute(sql, params)
    return [pk for pk, _ in sorted(rows, key=lambda row: row[1])]


@functools.lru_cache(maxsize=256)
def write_sql(
    columns: tuple[str, ...],
    events: int,
    seat_changes: tuple[tuple[int, tuple[str, ...]], ...],
    guard: str | None,
    for_sqlite3: bool,
) -> tuple[str, ...]:
    """SQLite's statements for a write's shape, built once per shape: the head's update, the
    events' insert, the seats' updates. With Django's placeholders for its cursor (which
    converts them, and formats them into the statement it logs), or sqlite3's own."""
    sets = ", ".join(f'"{name}" = %s' for name in columns)
    statements = [
        f"UPDATE games_game SET {sets} WHERE {head_where(guard)}",
        f"INSERT INTO games_event ({EVENT_NAMES}) VALUES "
        + ", ".join([_EVENT_ROW] * events)
        + " RETURNING id, seq",
    ]
    statements += [
        "UPDATE games_seat SET "
        + ", ".join(f'"{name}" = %s' for name in names)
        + ' WHERE game_id = %s AND "index" = %s'
        for _, names in seat_changes
    ]
    return tuple(qmark(sql) if for_sqlite3 else sql for sql in statements)
