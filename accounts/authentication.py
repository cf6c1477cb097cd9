"""Token authentication that asks the database one prepared question per request, or none.

DRF's TokenAuthentication builds an ORM query with a join for every request, and building it
costs several times what the database takes to answer; measured, it was a third of a move.
This asks the same question in plain SQL, built once per process and sent straight to the
driver (core.direct): the token's row, found by the SHA-256 of the key (accounts.tokens keeps
nothing else), with its member's. A revoked or expired token, or a deactivated member, is
refused at once with a 401 that says which. ``request.auth`` is a :class:`TokenAuth`: the
token, its member and its scopes (accounts.scopes checks them).

A move's request does not even ask (``TokenAuthentication(checked_by_write=True)``). Its
token, if this process has seen it valid before, is checked again by the move's write, in the
same statement as the version (the view hands the move :meth:`CheckedByWrite.condition` as the
write's guard, games.store.Guard): a token revoked, expired or without the scope the write
needs, or a deactivated member, writes nothing, and whenever the request does not end in a
write of its own, :meth:`CheckedByWrite.confirm` asks the question before the answer goes out,
so such a request still gets its 401.

When a token was last used is kept to the minute: a process writes it at most once a minute a
token, with a statement that changes nothing if another process wrote it within the minute,
and never as part of a move's write (:func:`_touch`).
"""

from __future__ import annotations

import functools
import hashlib
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone
from rest_framework import authentication, exceptions

from accounts.models import ApiToken
from accounts.scopes import SCOPES, MissingScope
from core.direct import cursor_of, direct, execute, fetch_one

TOUCH_EVERY = 60  # seconds: how stale a token's last_used_at may be
# The token's columns read with its member's, after the member's own.
_TOKEN_FIELDS = ["id", *(f"scope_{s}" for s in SCOPES), "expires_at", "revoked_at", "last_used_at"]


@dataclass(frozen=True)
class _TokenQuery:
    """What checking a token takes, worked out once per process (:func:`_query`)."""

    sql: str  # the token's row and its member's, by the key's hash
    sql_by_id: str  # the same by the token's id
    names: list[str]  # the attributes of the member's fields it selects, in order
    # The converters the ORM would apply to the columns, by index (SQLite's datetimes are read
    # naive and its booleans as numbers, and the ORM makes them aware and bools). Those of the
    # connection that first asked, which read only the settings, so any thread's connection may
    # use them.
    converters: list[tuple[int, list, Any]]
    model: Any  # the user model
    # SQL that holds while a token is good, by the scope it must also have (None: any):
    # CheckedByWrite's guard, a stream's check.
    good: dict[str | None, str]
    touch: str  # last_used_at written, unless it was within the minute


@functools.cache
def _query() -> _TokenQuery:
    user = get_user_model()
    user_fields = user._meta.concrete_fields
    token_fields = [ApiToken._meta.get_field(name) for name in _TOKEN_FIELDS]
    table, tokens = user._meta.db_table, ApiToken._meta.db_table
    select = ", ".join(
        [f'u."{f.column}"' for f in user_fields] + [f't."{f.column}"' for f in token_fields]
    )
    converters = []
    for index, (field, owner) in enumerate(
        [(f, table) for f in user_fields] + [(f, tokens) for f in token_fields]
    ):
        column = field.get_col(owner)
        found = connection.ops.get_db_converters(column) + field.get_db_converters(connection)
        if found:
            converters.append((index, found, column))
    joined = f'SELECT {select} FROM {tokens} t JOIN {table} u ON u."id" = t."user_id"'
    return _TokenQuery(
        sql=f'{joined} WHERE t."key_hash" = %s',
        sql_by_id=f'{joined} WHERE t."id" = %s',
        names=[f.attname for f in user_fields],
        converters=converters,
        model=user,
        good={
            scope: (
                f'EXISTS (SELECT 1 FROM {tokens} t JOIN {table} u ON u."id" = t."user_id"'
                ' WHERE t."id" = %s AND u."id" = %s AND u."is_active" AND t."revoked_at" IS NULL'
                ' AND (t."expires_at" IS NULL OR t."expires_at" > %s)'
                + ("" if scope is None else f' AND t."scope_{scope}"')
                + ")"
            )
            for scope in (None, *SCOPES)
        },
        touch=(
            f'UPDATE {tokens} SET "last_used_at" = %s'
            ' WHERE "id" = %s AND ("last_used_at" IS NULL OR "last_used_at" < %s)'
        ),
    )


@dataclass(frozen=True)
class _Token:
    """A token's row as checking it reads it: its member's fields, then its own."""

    user_row: tuple
    id: int
    scopes: frozenset[str]
    expires_at: datetime | None
    revoked_at: datetime | None
    last_used_at: datetime | None

    @classmethod
    def of(cls, row: tuple) -> _Token:
        n = len(row) - len(_TOKEN_FIELDS)
        token = row[n:]
        held = frozenset(s for s, on in zip(SCOPES, token[1 : 1 + len(SCOPES)]) if on)
        expires_at, revoked_at, last_used_at = token[1 + len(SCOPES) :]
        return cls(row[:n], token[0], held, expires_at, revoked_at, last_used_at)

    def user(self):
        query = _query()
        return query.model.from_db(connection.alias, query.names, self.user_row)

    def refusal(self, now: datetime) -> str | None:
        """Why the token is refused now, or None."""
        if self.revoked_at is not None:
            return "this token has been revoked"
        if self.expires_at is not None and self.expires_at <= now:
            return f"this token expired at {self.expires_at.isoformat(timespec='seconds')}"
        return None


class _Seen:
    """The tokens this process has found valid (by the hash of their key), most recent last, at
    most ``size``, and when each was last known to be used. Only ever a hint: whatever is
    taken from here is checked again by the database."""

    def __init__(self, size: int = 4096):
        self.size = size
        self._rows: OrderedDict[str, _Token] = OrderedDict()
        self._used: OrderedDict[str, float] = OrderedDict()  # hash -> time.time()
        self._lock = threading.Lock()

    def get(self, digest: str) -> _Token | None:
        with self._lock:
            return self._rows.get(digest)

    def put(self, digest: str, token: _Token) -> None:
        with self._lock:
            self._rows[digest] = token
            self._rows.move_to_end(digest)
            while len(self._rows) > self.size:
                self._rows.popitem(last=False)

    def forget(self, digest: str) -> None:
        with self._lock:
            self._rows.pop(digest, None)

    def used_at(self, digest: str) -> float:
        with self._lock:
            return self._used.get(digest, 0.0)

    def use(self, digest: str, when: float) -> None:
        with self._lock:
            self._used[digest] = max(when, self._used.get(digest, 0.0))
            self._used.move_to_end(digest)
            while len(self._used) > self.size:
                self._used.popitem(last=False)


seen = _Seen()


def digest_of(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def _read(sql: str, param: Any) -> _Token | None:
    """The token's row by ``sql``, converted as the ORM would, or None."""
    query = _query()
    row = fetch_one(connection, sql, [param])
    if row is None:
        return None
    if query.converters:
        values = list(row)
        for index, functions, column in query.converters:
            for function in functions:
                values[index] = function(values[index], column, connection)
        row = tuple(values)
    return _Token.of(row)


def _checked(digest: str) -> _Token:
    """The token and its member; AuthenticationFailed if the token is unknown, revoked or
    expired (its member's being active is the caller's to check)."""
    token = _read(_query().sql, digest)
    if token is None:
        seen.forget(digest)
        raise exceptions.AuthenticationFailed("Invalid token.")
    refusal = token.refusal(timezone.now())
    if refusal is not None:
        seen.forget(digest)
        raise exceptions.AuthenticationFailed(refusal)
    if token.last_used_at is not None:
        seen.use(digest, token.last_used_at.timestamp())
    return token


def _touch(digest: str, token_id: int) -> None:
    """Write when the token was used, if this process has not known it used within the minute;
    the statement changes nothing if another process wrote it within the minute."""
    now = time.time()
    if now - seen.used_at(digest) < TOUCH_EVERY:
        return
    seen.use(digest, now)
    moment = timezone.now()
    adapt = connection.ops.adapt_datetimefield_value
    params = [adapt(moment), token_id, adapt(moment - timedelta(seconds=TOUCH_EVERY))]
    execute(connection, cursor_of(connection, direct(connection)), _query().touch, params)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF's token authentication, one statement a request. With ``checked_by_write``, for an
    endpoint whose only effect is a guarded write (a move): a token this process has seen
    valid is taken as its member for now, with :class:`CheckedByWrite` as ``request.auth``,
    and a token not seen before is checked as usual. (One class either way, so the API's
    schema names one token scheme.)"""

    def __init__(self, checked_by_write: bool = False):
        self.checked_by_write = checked_by_write

    def authenticate_credentials(self, key):
        digest = digest_of(key)
        if self.checked_by_write:
            token = seen.get(digest)
            if token is not None and token.refusal(timezone.now()) is None:
                user = token.user()
                _touch(digest, token.id)
                return user, CheckedByWrite(token.id, user.pk, token.scopes, digest)
        token = _checked(digest)
        user = token.user()
        if not user.is_active:
            seen.forget(digest)
            raise exceptions.AuthenticationFailed("User inactive or deleted.")
        seen.put(digest, token)
        _touch(digest, token.id)
        return user, TokenAuth(token.id, user.pk, token.scopes)


@dataclass(frozen=True)
class TokenAuth:
    """``request.auth`` of a request signed with a token: the token, its member, its scopes."""

    token_id: int
    user_id: int
    scopes: frozenset[str]

    def condition(self, scope: str | None = None) -> tuple[str, list[Any]]:
        """SQL that holds while the token is the member's, not revoked, not expired (and has
        ``scope``, if given), and the member is active; and its parameters."""
        return _query().good[scope], [self.token_id, self.user_id, _now_param()]

    def still_good(self) -> bool:
        """Whether the token may still be used: one statement (an open stream asks now and
        then)."""
        sql, params = self.condition()
        row = fetch_one(connection, f"SELECT CASE WHEN {sql} THEN 1 ELSE 0 END", params)
        return row is not None and row[0] == 1


@dataclass(frozen=True)
class CheckedByWrite(TokenAuth):
    """``request.auth`` of a request whose token this process saw valid before and did not
    ask about again: its write must check it (:meth:`condition`, with the scope the write
    needs: play for a move), and anything else the request ends in must :meth:`confirm` it
    first."""

    digest: str = ""

    def confirm(self, scope: str | None = None) -> None:
        """Ask the database: AuthenticationFailed (401) if the token is no longer good,
        MissingScope (403) if it lacks ``scope``, the scope its write was guarded with."""
        token = _read(_query().sql_by_id, self.token_id)
        refusal = "Invalid token." if token is None else token.refusal(timezone.now())
        if refusal is None and token is not None:
            user = token.user()
            if not user.is_active or user.pk != self.user_id:
                refusal = "Invalid token."
        if refusal is not None:
            seen.forget(self.digest)
            raise exceptions.AuthenticationFailed(refusal)
        if scope is not None and token is not None and scope not in token.scopes:
            seen.forget(self.digest)
            raise MissingScope(scope)


def _now_param() -> Any:
    return connection.ops.adapt_datetimefield_value(timezone.now())
