"""Statements sent straight to the database driver's connection that Django holds.

Django's cursor wrapper costs tens of microseconds a statement (the wrapper, its bookkeeping
and, on SQLite, rewriting the placeholders), a real share of a request that makes one or two.
The hot paths (an append's write, the token check) send their statements to the driver's
own connection instead, with Django's error translation kept, whenever nothing is watching
the connection's queries.
"""

from __future__ import annotations

import functools
import threading
from typing import Any


def direct(connection):
    """The DB-API connection under Django's ``connection``, when a statement may go straight to
    it, or None.

    Straight to it, with Django's own error translation (``wrap_database_errors``: a duplicate
    is an IntegrityError, a broken connection is closed at the request's end), when nothing
    watches the connection's queries. None, for Django's cursor, when its queries are logged
    or wrapped (DEBUG, the tests' query counts, an execute_wrapper), before the connection is
    open, and while its health check for this request is still to be done.
    """
    raw = connection.connection
    if (
        raw is None
        or connection.queries_logged
        or connection.execute_wrappers
        or (connection.health_check_enabled and not connection.health_check_done)
    ):
        return None
    connection.validate_no_broken_transaction()
    return raw


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


def fetch_one(connection, sql: str, params: list[Any]) -> tuple | None:
    """Run ``sql`` (written with Django's ``%s`` placeholders) and return its first row, or
    None; straight to the driver where :func:`direct` allows."""
    return _run(connection, sql, params, "fetchone")


def fetch_all(connection, sql: str, params: list[Any]) -> list[tuple]:
    """Run ``sql`` as :func:`fetch_one` does and return all its rows."""
    return _run(connection, sql, params, "fetchall")


def _run(connection, sql: str, params: list[Any], fetch: str) -> Any:
    raw = direct(connection)
    if raw is None:
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
            return getattr(cursor, fetch)()
    if connection.vendor == "sqlite":
        sql = qmark(sql)
    with connection.wrap_database_errors:
        return getattr(cursor_of(connection, raw).execute(sql, params), fetch)()


@functools.lru_cache(maxsize=256)
def qmark(sql: str) -> str:
    """``sql`` with sqlite3's placeholders for Django's (the statements given here hold no
    literal percent signs)."""
    return sql.replace("%s", "?")
