"""The write on SQLite: the head's update (only at the expected version, and only while the
write's guard holds), the events' insert if it matched, the seats' updates, in one IMMEDIATE
transaction, which serialises the writers so that the head cannot move between them.

Two ways in, the statements the same and sent straight to sqlite3 (core.direct) both ways:
inside a caller's transaction, in the savepoint games.store.writer gave it; alone, in a
transaction of its own, begun and ended by this module (Django keeps sqlite3 in autocommit), the
transaction Django's atomic() would open and close, without its bookkeeping."""

from __future__ import annotations

import functools
from typing import Any

from django.db.backends.utils import debug_transaction

from core.direct import cursor_of, direct, execute
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
    update, insert, *seat_updates = write_sql(
        tuple(columns),
        len(values),
        tuple((index, tuple(c)) for index, c in seat_changes.items()),
        None if guard is None else guard.condition,
    )
    statements = [
        (update, [*columns.values(), head_id, expected, *(() if guard is None else guard.params)]),
        (insert, [value for row in values for value in row]),
    ]
    statements += [
        (sql, [*change.values(), head_id, index])
        for sql, (index, change) in zip(seat_updates, seat_changes.items())
    ]
    raw = direct(connection)
    cursor = cursor_of(connection, raw)
    if connection.in_atomic_block:
        return _run(connection, cursor, statements)
    execute(connection, cursor, "BEGIN IMMEDIATE")
    try:
        ids = _run(connection, cursor, statements)
        execute(connection, cursor, "COMMIT" if ids is not None else "ROLLBACK")
    except BaseException:
        if raw.in_transaction:
            with debug_transaction(connection, "ROLLBACK"), connection.wrap_database_errors:
                raw.rollback()
        raise
    return ids


def _run(connection, cursor, statements: list[tuple[str, list[Any]]]) -> list[int] | None:
    """The head's update (None if it was not at the expected version), the events' insert
    (their ids in order) and the seats' updates."""
    (update, update_params), (insert, insert_params), *seats = statements
    if execute(connection, cursor, update, update_params).rowcount != 1:
        return None
    rows = execute(connection, cursor, insert, insert_params).fetchall()
    for sql, params in seats:
        execute(connection, cursor, sql, params)
    return [pk for pk, _ in sorted(rows, key=lambda row: row[1])]


@functools.lru_cache(maxsize=256)
def write_sql(
    columns: tuple[str, ...],
    events: int,
    seat_changes: tuple[tuple[int, tuple[str, ...]], ...],
    guard: str | None,
) -> tuple[str, ...]:
    """SQLite's statements for a write's shape, with Django's placeholders, built once per
    shape: the head's update, the events' insert, the seats' updates."""
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
    return tuple(statements)
