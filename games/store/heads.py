"""A game's head read from its row, and the cache of committed heads with their rule states
(this process's; with ``HADAL_SHARED_HEADS`` also those the app's other processes committed,
games.store.sharing) that lets a move read nothing before its write."""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import fields

from django.db import DEFAULT_DB_ALIAS, transaction

from games.models import Game, Seat
from games.rules.base import State
from games.store import sharing
from games.store.types import Head, SeatInfo, where


def head_of(game: Game) -> Head:
    """The head of a Game row whose seats (with their users) are loaded or loadable."""
    seats = tuple(
        SeatInfo(
            index=s.index,
            user_id=s.user_id,
            username=s.user.username if s.user_id else None,
            bot=s.bot,
            resigned=s.resigned,
            accepted=s.accepted,
            guest=s.guest,
        )
        for s in sorted(game.seats.all(), key=lambda s: s.index)
    )
    return Head(
        db=where(game),
        id=game.pk,
        slug=game.slug,
        mode=game.mode,
        status=game.status,
        version=game.version,
        num_players=game.num_players,
        options=game.options,
        current_player=game.current_player,
        result=game.result,
        move_seconds=game.move_seconds,
        on_timeout=game.on_timeout,
        created_at=game.created_at,
        moved_at=game.moved_at,
        updated_at=game.updated_at,
        finished_at=game.finished_at,
        seats=seats,
        chain_version=game.chain_version,
        rules_version=game.rules_version,
        fingerprint=game.fingerprint,
        scorekeeper_id=game.scorekeeper_id,
        bank_seconds=game.bank_seconds,
        increment_seconds=game.increment_seconds,
        banks=game.banks,
        deadline=game.deadline,
        paused=game.paused,
    )


def load_head(game_id: int, db: str = DEFAULT_DB_ALIAS) -> Head | None:
    """The current head from the database, in one query (the game and its seated users)."""
    seats = list(
        Seat.objects.using(db)
        .filter(game_id=game_id)
        .select_related("game", "user")
        .order_by("index")
    )
    if not seats:
        return None
    game = seats[0].game
    game._prefetched_objects_cache = {"seats": seats}
    return head_of(game)


class HeadCache:
    """Recently committed versions of games in this process: the head and the rule state, and
    with ``HADAL_SHARED_HEADS`` those the app's other processes committed (games.store.sharing).

    Safe because a committed version of a stream never changes: entries are only added once
    the write that made them has committed, and a version's seats and row are facts of that
    version (every change to them is an event), and its state is that of the game's own rules
    version. Callers get clones of the state, never the cached object; heads
    are immutable. (Primary keys are never reused, since games are never deleted; after
    restoring a database, restart the app's processes and clear the cache.)
    """

    def __init__(self, size: int = 1024):
        self.size = size
        self._entries: OrderedDict[tuple, tuple[Head, State]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, db: str, game_id: int, version: int) -> tuple[Head, State] | None:
        key = (db, game_id, version)
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None:
                self._entries.move_to_end(key)
        if entry is None:
            if not sharing.enabled():
                return None
            entry = sharing.shared(HEAD_SHAPE, db, game_id, version)
            if entry is None:
                return None
            self._keep(key, entry)
        head, state = entry
        return head, state.clone()

    def put(self, head: Head, state: State) -> None:
        self._keep((head.db, head.id, head.version), (head, state))
        if sharing.enabled():
            sharing.share(HEAD_SHAPE, head, state)

    def _keep(self, key: tuple, entry: tuple[Head, State]) -> None:
        with self._lock:
            self._entries[key] = entry
            self._entries.move_to_end(key)
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every head, this process's and those shared before now."""
        with self._lock:
            self._entries.clear()
        sharing.forget()


# What a shared entry's key says of the head's fields, so that older code's entries are
# never read as this shape (games.store.sharing).
HEAD_SHAPE = sharing.shape_of(tuple(f.name for f in fields(Head)))
state_cache = HeadCache()


def remember_on_commit(head: Head, state: State) -> None:
    """Cache ``head`` and ``state`` once the current transaction commits (at once when there
    is none)."""
    kept = state.clone()
    transaction.on_commit(lambda: state_cache.put(head, kept), using=head.db)
