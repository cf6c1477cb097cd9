"""core.direct: statements straight to the driver through one kept cursor per connection and
thread, which a failed statement, a new connection or another thread never trip over."""

from __future__ import annotations

import threading

import pytest
from django.db import DEFAULT_DB_ALIAS, IntegrityError, connection, connections, transaction

from core.direct import cursor_of, direct, fetch_all, fetch_one

pytestmark = pytest.mark.django_db(transaction=True)


def open_direct():
    connection.ensure_connection()
    raw = direct(connection)
    assert raw is not None, "nothing watches this connection's queries: direct() gives it"
    return raw


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
