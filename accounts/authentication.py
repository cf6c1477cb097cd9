"""Token authentication that asks the database one prepared question per request, or none.

DRF's TokenAuthentication builds an ORM query with a join for every request, and building it
costs several times what the database takes to answer; measured, it was a third of a move.
This asks the same question in plain SQL, built once per process and sent straight to the
driver (core.direct), and builds the user from the row, so a revoked token or a deactivated
member is refused at once, exactly as before.

A move's request does not even ask (``TokenAuthentication(checked_by_write=True)``). Its
token, if this process has seen it valid before, is checked again by the move's write, in the
same statement as the version (the view hands the move :meth:`CheckedByWrite.condition` as the
write's guard, games.store.Guard): a revoked token or a deactivated member writes nothing, and
whenever the request does not end in a write of its own, :meth:`CheckedByWrite.confirm` asks
the question before the answer goes out, so such a request still gets its 401.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework import authentication, exceptions

from core.direct import fetch_one


@dataclass(frozen=True)
class _TokenQuery:
    """What checking a token takes, worked out once per process (:func:`_query`)."""

    sql: str  # the member's row by token
    names: list[str]  # the attributes of the fields it selects, in order
    # The converters the ORM would apply to them, by index (SQLite's datetimes are read naive,
    # and the ORM makes them aware). Those of the connection that first asked, which read only
    # the settings, so any thread's connection may use them.
    converters: list[tuple[int, list, Any]]
    model: Any  # the user model
    condition: str  # what a write checks the token with (CheckedByWrite)


@functools.cache
def _query() -> _TokenQuery:
    user = get_user_model()
    fields = user._meta.concrete_fields
    table = user._meta.db_table
    select = ", ".join(f'u."{f.column}"' for f in fields)
    converters = []
    for index, field in enumerate(fields):
        column = field.get_col(table)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((index, found, column))
    return _TokenQuery(
        sql=(
            f"SELECT {select} FROM {table} u"
            ' JOIN authtoken_token t ON t.user_id = u."id" WHERE t."key" = %s'
        ),
        names=[f.attname for f in fields],
        converters=converters,
        model=user,
        condition=(
            f'EXISTS (SELECT 1 FROM authtoken_token t JOIN {table} u ON u."id" = t.user_id'
            ' WHERE t."key" = %s AND u."id" = %s AND u."is_active")'
        ),
    )


class _Seen:
    """The rows of tokens this process has found valid, most recent last, at most ``size``.
    Only ever a hint: whatever is taken from here is checked again by the database."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._rows: OrderedDict[str, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: str) -> tuple | None:
        with self._lock:
            return self._rows.get(key)

    def put(self, key: str, row: tuple) -> None:
        with self._lock:
            self._rows[key] = row
            self._rows.move_to_end(key)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def forget(self, key: str) -> None:
        with self._lock:
            self._rows.pop(key, None)


seen = _Seen()


def _checked_row(key: str) -> tuple:
    """The token's member as a row, converted as the ORM would; AuthenticationFailed if the
    token is unknown or its member deactivated."""
    query = _query()
    row = fetch_one(connection, query.sql, [key])
    if row is None:
        seen.forget(key)
        raise exceptions.AuthenticationFailed("Invalid token.")
    if not query.converters:
        return row
    values = list(row)
    for index, functions, column in query.converters:
        for function in functions:
            values[index] = function(values[index], column, connection)
    return tuple(values)


def _user(row: tuple):
    query = _query()
    return query.model.from_db(connection.alias, query.names, row)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, one statement a request. With ``checked_by_write``, for an
    endpoint whose only effect is a guarded write (a move): a token this process has seen
    valid is taken as its member for now, with :class:`CheckedByWrite` as ``request.auth``,
    and a token not seen before is checked as usual. (One class either way, so the API's
    schema names one token scheme.)"""

    def __init__(self, checked_by_write: bool = False):
        self.checked_by_write = checked_by_write

    def authenticate_credentials(self, key):
        if self.checked_by_write:
            row = seen.get(key)
            if row is not None:
                user = _user(row)
                return user, CheckedByWrite(key, user.pk)
        row = _checked_row(key)
        user = _user(row)
        if not user.is_active:
            seen.forget(key)
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        seen.put(key, row)
        return user, key


@dataclass(frozen=True)
class CheckedByWrite:
    """``request.auth`` of a request whose token this process saw valid before and did not
    ask about again: its write must check it (:meth:`condition`), and anything else the
    request ends in must :meth:`confirm` it first."""

    key: str
    user_id: int

    def condition(self) -> tuple[str, list[Any]]:
        """SQL that holds while the token is the member's and the member is active, and its
        parameters."""
        return _query().condition, [self.key, self.user_id]

    def confirm(self) -> None:
        """Ask the database; AuthenticationFailed (401) if the token is no longer good."""
        user = _user(_checked_row(self.key))
        if not user.is_active or user.pk != self.user_id:
            seen.forget(self.key)
            raise exceptions.AuthenticationFailed("Invalid token.")
