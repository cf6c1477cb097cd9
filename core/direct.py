"""Statements sent straight to the database driver's connection that Django holds.

Django's cursor wrapper costs tens of microseconds a statement (the wrapper, its bookkeeping
and, on SQLite, rewriting the placeholders), a real share of a request that makes one or two.
The hot paths (an append's write, the token check) send their statements to the driver's
own connection instead, with Django's error translation kept.

They go that way always, so the tests run the path production runs. Whatever watches the
connection's queries still sees each statement as it would through Django's cursor: it is
logged in ``connection.queries_log`` while queries are logged (DEBUG, CaptureQueriesContext,
assertNumQueries, django_assert_num_queries), as Django logs it, and runs inside the
connection's execute wrappers. Watching costs the watcher, never an unwatched statement.
"""

from __future__ import annotations

import functools
import threading
from typing import Any

from django.db.backends.utils import CursorDebugWrapper


def direct(connection):
    """The DB-API connection under Django's ``connection``, open, and checked as Django's
    cursor would check it first: its health check for this request done (a connection found
    unusable is closed and opened again) and its transaction not broken."""
    if connection.connection is None or (
        connection.health_check_enabled and not connection.health_check_done
    ):
        connection.close_if_health_check_failed()
        connection.ensure_connection()
    connection.validate_no_broken_transaction()
    return connection.connection


def cursor_of(connection, raw):
    """A driver cursor on ``raw`` (what :func:`direct` gave), kept on ``connection`` and used
    again by the same thread for as long as ``raw`` is its connection.

    ``raw.execute()`` makes a new cursor for every statement, and psycopg's costs more to make
    than a prepared statement of a few parameters costs to send. Each caller reads its
    statement's rows before it sends the next, so one cursor serves them all. Kept per thread:
    a Django connection belongs to one thread, except where the test server shares an
    in-memory SQLite database's connection with the test's own thread.
    """
    thread = threading.get_ident()
    kept = getattr(connection, "_hadal_direct_cursor", None)
    if kept is not None and kept[0] == thread and kept[1].connection is raw:
        return kept[1]
    cursor = raw.cursor()
    connection._hadal_direct_cursor = (thread, cursor)
    return cursor


def execute(connection, cursor, sql: str, params: Any = ()):
    """Send ``sql`` (written with Django's ``%s`` placeholders) through ``cursor``, a driver
    cursor on :func:`direct`'s connection, and return the cursor; a driver's error comes out
    as Django's (a duplicate key is an IntegrityError). Logged and wrapped as through Django's
    cursor where something watches the connection's queries."""
    if connection.execute_wrappers or connection.queries_logged:
        return _watched(connection, cursor, sql, params)
    try:
        return cursor.execute(qmark(sql) if connection.vendor == "sqlite" else sql, params)
    except Exception:
        # Translated only when raised: entering the wrapper for every statement cost more
        # than a placeholder's rewriting.
        with connection.wrap_database_errors:
            raise


def _watched(connection, cursor, sql: str, params: Any):
    """:func:`execute` as Django's debug cursor does it: the connection's execute wrappers
    around the statement, the whole timed and logged with the statement as the database
    got it (``last_executed_query``), each statement one entry of ``queries_log``."""
    sqlite = connection.vendor == "sqlite"

    def send(sql, params, many, context):
        with connection.wrap_database_errors:
            return cursor.execute(qmark(sql) if sqlite else sql, params)

    executor = send
    for wrapper in reversed(connection.execute_wrappers):
        executor = functools.partial(wrapper, executor)
    context = {"connection": connection, "cursor": cursor}
    if not connection.queries_logged:
        return executor(sql, params, False, context)
    with CursorDebugWrapper(cursor, connection).debug_sql(sql, params, True):
        return executor(sql, params, False, context)


def fetch_one(connection, sql: str, params: list[Any]) -> tuple | None:
    """Run ``sql`` (written with Django's ``%s`` placeholders) and return its first row, or
    None."""
    cursor = cursor_of(connection, direct(connection))
    return execute(connection, cursor, sql, params).fetchone()


def fetch_all(connection, sql: str, params: list[Any]) -> list[tuple]:
    """Run ``sql`` as :func:`fetch_one` does and return all its rows."""
    cursor = cursor_of(connection, direct(connection))
    return execute(connection, cursor, sql, params).fetchall()


@functools.lru_cache(maxsize=256)
def qmark(sql: str) -> str:
    """``sql`` with sqlite3's placeholders for Django's (the statements given here hold no
    literal percent signs)."""
    return sql.replace("%s", "?")
