"""The write on PostgreSQL: one statement, atomic in autocommit, sent straight to psycopg
(core.direct). Data-modifying CTEs update the head's row only at the expected version (and
only while the write's guard holds), insert the events only if it was updated, and change the
seats with them; the events' ids come back in order, none when the head did not match.

The statement is built once per shape of write (the columns projected, how many events, which
seats change what, the guard): a move writes the same few shapes again and again, and psycopg
prepares each one (bench/bench_statement.py measures the statement alone)."""

from __future__ import annotations

import functools
from typing import Any

from core.direct import fetch_one
from games.store.columns import EVENT_COLUMNS, EVENT_NAMES, JSON_COLUMNS, head_where
from games.store.types import Guard

_EVENT_ROW = "(" + ", ".join(f"%s::{kind}" for _, kind in EVENT_COLUMNS) + ")"


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
    params: list[Any] = [*columns.values(), head_id, expected]
    if guard is not None:
        params += guard.params
    for event in values:
        params += event
    for index, change in seat_changes.items():
        params += [*change.values(), head_id, index]
    sql = write_sql(
        tuple(columns),
        len(values),
        tuple((index, tuple(change)) for index, change in seat_changes.items()),
        None if guard is None else guard.condition,
    )
    (ids,) = fetch_one(connection, sql, params) or (None,)  # one row: the ids, in an array
    return ids or None


@functools.lru_cache(maxsize=256)
def write_sql(
    columns: tuple[str, ...],
    events: int,
    seat_changes: tuple[tuple[int, tuple[str, ...]], ...],
    guard: str | None,
) -> str:
    """The write's statement for its shape, with Django's placeholders."""
    sets = ", ".join(
        f"{name} = %s" + ("::jsonb" if name in JSON_COLUMNS else "") for name in columns
    )
    ctes = [f"head AS (UPDATE games_game SET {sets} WHERE {head_where(guard)} RETURNING id)"]
    ctes.append(
        f"new AS (INSERT INTO games_event ({EVENT_NAMES}) SELECT v.* FROM (VALUES "
        + ", ".join([_EVENT_ROW] * events)
        + f") AS v({EVENT_NAMES}) WHERE EXISTS (SELECT 1 FROM head) RETURNING id, seq)"
    )
    for index, names in seat_changes:
        seat_sets = ", ".join(f"{name} = %s" for name in names)
        ctes.append(
            f"seat{index} AS (UPDATE games_seat SET {seat_sets} WHERE game_id = %s AND"
            f' "index" = %s AND EXISTS (SELECT 1 FROM head) RETURNING id)'
        )
    return "WITH " + ", ".join(ctes) + " SELECT array(SELECT id FROM new ORDER BY seq)"
