"""core.direct: statements straight to the driver through one kept cursor per connection and
thread, which a failed statement, a new connection or another thread never trip over; and
seen by whatever watches the queries (the query log, execute wrappers) as through Django's
cursor, so that the tests' query counts count them on the path production takes."""

from __future__ import annotations

import threading

import pytest
from django.db import (
    DEFAULT_DB_ALIAS,
    DatabaseError,
    IntegrityError,
    connection,
    connections,
    transaction,
)
from django.test.utils import CaptureQueriesContext

from core.direct import cursor_of, direct, fetch_all, fetch_one
from tests.sql import through_djangos_cursor

pytestmark = pytest.mark.django_db(transaction=True)


def open_direct():
    connection.ensure_connection()
    return direct(connection)


def test_statements_share_one_cursor_and_each_reads_its_own_rows():
    raw = open_direct()
    first = cursor_of(connection, raw)
    assert cursor_of(connection, raw) is first
    assert fetch_one(connection, "SELECT %s, %s", [1, "a"]) == (1, "a")
    assert fetch_all(connection, "SELECT %s UNION ALL SELECT %s", [2, 3]) == [(2,), (3,)]
    assert fetch_one(connection, "SELECT %s", [4]) == (4,)
    assert cursor_of(connection, raw) is first


def test_a_refused_statement_leaves_the_kept_cursor_usable():
    raw = open_direct()
    kept = cursor_of(connection, raw)
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE direct_probe (id integer PRIMARY KEY)")
    try:
        fetch_all(connection, "INSERT INTO direct_probe (id) VALUES (%s) RETURNING id", [1])
        with pytest.raises(IntegrityError):  # Django's error, not the driver's
            fetch_all(connection, "INSERT INTO direct_probe (id) VALUES (%s) RETURNING id", [1])
        assert fetch_one(connection, "SELECT count(*) FROM direct_probe", []) == (1,)
        assert cursor_of(connection, raw) is kept
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE direct_probe")


def test_a_new_connection_gets_a_new_cursor():
    before = cursor_of(connection, open_direct())
    connection.close()
    raw = open_direct()
    after = cursor_of(connection, raw)
    assert after is not before
    assert after.connection is raw
    assert fetch_one(connection, "SELECT %s", [5]) == (5,)


def test_another_thread_on_the_same_connection_gets_a_cursor_of_its_own():
    # As when the test server shares an in-memory SQLite connection with the test's thread.
    raw = open_direct()
    shared = connections[DEFAULT_DB_ALIAS]  # this thread's wrapper itself, not the proxy
    mine = cursor_of(shared, raw)
    theirs = []
    thread = threading.Thread(target=lambda: theirs.append(cursor_of(shared, raw)))
    thread.start()
    thread.join()
    assert theirs[0] is not mine
    assert theirs[0].connection is raw


def test_inside_a_transaction_the_cursor_sees_its_uncommitted_rows():
    raw = open_direct()
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE direct_probe (id integer PRIMARY KEY)")
    try:
        with transaction.atomic():
            with connection.cursor() as cursor:
                cursor.execute("INSERT INTO direct_probe (id) VALUES (7)")
            assert cursor_of(connection, raw) is cursor_of(connection, direct(connection))
            assert fetch_one(connection, "SELECT id FROM direct_probe", []) == (7,)
        assert fetch_one(connection, "SELECT count(*) FROM direct_probe", []) == (1,)
    finally:
        with connection.cursor() as cursor:
            cursor.execute("DROP TABLE direct_probe")


def test_a_statement_sent_straight_is_counted_and_logged_as_djangos_cursor_logs_it(
    django_assert_num_queries,
):
    open_direct()
    with through_djangos_cursor() as through_django:
        with django_assert_num_queries(2) as counted:
            assert fetch_one(connection, "SELECT %s", [41]) == (41,)
            assert fetch_all(connection, "SELECT %s UNION ALL SELECT %s", ["a", "b"]) == [
                ("a",),
                ("b",),
            ]
    assert through_django == []
    assert [q["sql"] for q in counted.captured_queries] == [
        "SELECT 41",
        "SELECT 'a' UNION ALL SELECT 'b'",
    ]
    assert all(float(q["time"]) >= 0 for q in counted.captured_queries)


def test_a_refused_statement_is_counted_too():
    open_direct()
    with CaptureQueriesContext(connection) as captured:
        with pytest.raises(DatabaseError):  # Django's, not the driver's
            fetch_one(connection, "SELECT * FROM no_such_table WHERE id = %s", [1])
    assert len(captured) == 1


def test_an_execute_wrapper_sees_every_statement_sent_straight():
    """As Django runs the connection's execute wrappers around its own cursor's statements:
    one may watch, change or refuse a statement."""
    open_direct()
    seen = []

    def watch(execute, sql, params, many, context):
        seen.append((sql, list(params), many, context["connection"] is connection))
        return execute(sql, params, many, context)

    def refuse(execute, sql, params, many, context):
        raise RuntimeError("no statements here")

    with connection.execute_wrapper(watch):
        assert fetch_one(connection, "SELECT %s", [3]) == (3,)
    assert seen == [("SELECT %s", [3], False, True)]
    with connection.execute_wrapper(refuse), pytest.raises(RuntimeError):
        fetch_one(connection, "SELECT %s", [4])


def test_a_closed_connection_is_opened_first():
    connection.close()
    assert connection.connection is None
    assert fetch_one(connection, "SELECT %s", [6]) == (6,)
    assert connection.connection is not None


def test_a_connection_that_fails_its_health_check_is_opened_again(monkeypatch):
    """As Django's cursor does once per request with CONN_HEALTH_CHECKS: an unusable
    connection (the server restarted, say) is closed and a new one opened."""
    before = open_direct()
    monkeypatch.setattr(connection, "health_check_enabled", True)
    monkeypatch.setattr(connection, "health_check_done", False)
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    assert fetch_one(connection, "SELECT %s", [8]) == (8,)
    assert connection.connection is not before and connection.health_check_done
