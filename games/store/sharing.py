"""Committed heads shared by the app's processes through the cache (Redis in production).

Each process keeps the heads it wrote (games.store.HeadCache), but gunicorn spreads a player's
moves over its workers, and a worker that did not write the last move had to read the game (its
row, seats, newest snapshot and tail) before it could check the next. Sharing the committed
heads lets any worker serve the move from the cache: one GET instead of three queries.

It is as safe as the process's own cache, and for the same reason: an entry is written only once
the append that made it has committed, and a committed version of a stream never changes. The
key carries the database (its oid on PostgreSQL, not its name), the game, the version and the
shape of the head (the fields of games.store.Head, so that an entry written by older code is
never read as the new shape). The state travels in its JSON form (State.to_json), rebuilt
under the game's own rules version, the head pickled by the cache. Entries expire after ``HADAL_SHARED_HEADS_SECONDS``; after restoring a database over
an existing one, clear the cache.

The cache failing costs a miss, never a move: errors are logged and the caller reads the game.
"""

from __future__ import annotations

import logging
import os
import zlib
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import connections

from games.rules import get_rules
from games.rules.base import State, StateFormatError, state_from_json

logger = logging.getLogger(__name__)

# Moved on by forget(): a process that forgets what it saw (the tests do, between tests)
# no longer reads what it, or anyone, shared before.
_epoch = 0


def enabled() -> bool:
    return settings.HADAL_SHARED_HEADS


def _key(shape: str, db: str, game_id: int, version: int) -> str:
    return f"hadal:head:{shape}:{_epoch}:{_instance(db)}:{game_id}:{version}"


_instances: dict[str, str] = {}


def _instance(db: str) -> str:
    """Which database this is, so that a database dropped and made again under the same name
    never reads the heads of the old one: PostgreSQL's oid of it. SQLite's heads stay with the
    process (a file gives no such name; ``make run`` serves from one process anyway)."""
    if db not in _instances:
        connection = connections[db]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT oid FROM pg_database WHERE datname = current_database()")
                _instances[db] = f"pg{cursor.fetchone()[0]}"
        else:
            _instances[db] = f"{connection.vendor}-{os.getpid()}"
    return _instances[db]


def shape_of(fields: tuple[str, ...]) -> str:
    """A short name for a head's shape: its field names."""
    return f"{zlib.crc32(','.join(fields).encode()):x}"


def share(shape: str, head: Any, state: State) -> None:
    """Offer a committed head and its state to the other processes."""
    try:
        caches["default"].set(
            _key(shape, head.db, head.id, head.version),
            (head, state.to_json()),
            settings.HADAL_SHARED_HEADS_SECONDS,
        )
    except Exception:
        logger.warning(
            "could not share game %s at version %s", head.id, head.version, exc_info=True
        )


def shared(shape: str, db: str, game_id: int, version: int) -> tuple[Any, State] | None:
    """(head, state) of a committed version another process shared, or None."""
    try:
        entry = caches["default"].get(_key(shape, db, game_id, version))
    except Exception:
        logger.warning("could not read game %s from the cache", game_id, exc_info=True)
        return None
    if entry is None:
        return None
    head, state_json = entry
    try:
        return head, state_from_json(get_rules(head.slug, head.rules_version), state_json)
    except (StateFormatError, KeyError, ValueError):
        logger.warning("game %s: a shared state that does not rebuild, ignored", game_id)
        return None


def forget() -> None:
    """Read nothing shared before now (this process only)."""
    global _epoch
    _epoch += 1
