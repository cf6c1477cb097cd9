"""The event store: one writer (:func:`append`), replay, snapshots and per-seat redaction.

The store knows streams and versions, not game rules beyond the registry: services decide
what to append, the store makes the append atomic, ordered and idempotent.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, IntegrityError, transaction
from django.utils import timezone

from games.models import Event, EventKind, Game, GameStatus, Snapshot
from games.rules import get_rules
from games.rules.base import State, StateFormatError, state_from_json

logger = logging.getLogger(__name__)


class VersionConflict(Exception):
    """``expected_version`` is not the stream's version; nothing was written."""

    def __init__(self, expected: int, current: int):
        super().__init__(f"expected version {expected}, but the game is at version {current}")
        self.expected = expected
        self.current = current


@dataclass
class NewEvent:
    kind: str
    data: dict[str, Any]
    seat: int | None = None
    actor_id: int | None = None


@dataclass
class AppendResult:
    version: int
    events: list[Event] = field(default_factory=list)
    replayed: bool = False  # True when an idempotency key returned an earlier result


def append(
    game: Game,
    expected_version: int,
    events: list[NewEvent],
    *,
    idempotency_key: str | None = None,
    projection: dict[str, Any] | None = None,
) -> AppendResult:
    """Append ``events`` after ``expected_version`` and update the Game projection, atomically.

    A repeated ``idempotency_key`` returns the first call's result and writes nothing; a stale
    ``expected_version`` raises VersionConflict and writes nothing. The events go to the
    database the game was read from.
    """
    if not events:
        raise ValueError("nothing to append")
    db = where(game)
    # One savepoint: a conflict rolls back to it, so a caller may catch it and go on.
    with transaction.atomic(using=db):
        head = Game.objects.using(db).select_for_update().get(pk=game.pk)
        if idempotency_key is not None:
            earlier = batch_for_key(head, idempotency_key)
            if earlier is not None:
                return earlier
        if head.version != expected_version:
            raise VersionConflict(expected_version, head.version)
        first = head.version + 1
        rows = [
            Event(
                game=head,
                seq=first + i,
                kind=e.kind,
                data=e.data,
                seat=e.seat,
                actor_id=e.actor_id,
                batch=first,
                idempotency_key=idempotency_key if i == 0 else None,
            )
            for i, e in enumerate(events)
        ]
        try:
            Event.objects.using(db).bulk_create(rows)
        except IntegrityError as exc:
            # A writer that slipped past the lock (or a backend without row locks).
            raise VersionConflict(expected_version, head.version + 1) from exc
        head.version = first + len(rows) - 1
        for name, value in (projection or {}).items():
            setattr(head, name, value)
        if head.status == GameStatus.FINISHED and head.finished_at is None:
            head.finished_at = timezone.now()
        head.save()
        for name in _PROJECTED:
            setattr(game, name, getattr(head, name))
        return AppendResult(version=head.version, events=rows)


_PROJECTED = ("version", "status", "current_player", "result", "finished_at", "updated_at")


def where(game: Game) -> str:
    """The database alias a game lives in (the default one for a game not yet saved)."""
    return game._state.db or DEFAULT_DB_ALIAS


def batch_for_key(game: Game, key: str) -> AppendResult | None:
    """The result of the append that first used ``key``, or None."""
    events = Event.objects.using(where(game))
    first = events.filter(game=game, idempotency_key=key).first()
    if first is None:
        return None
    rows = list(events.filter(game=game, batch=first.batch).order_by("seq"))
    return AppendResult(version=rows[-1].seq, events=rows, replayed=True)


# -- replay --------------------------------------------------------------------------------------


def new_state(game: Game) -> State:
    rules = get_rules(game.slug)
    return rules.new_game(num_players=game.num_players, options=game.options)


def apply_event(state: State, kind: str, data: dict[str, Any]) -> None:
    """Advance a rule state by one stored event. Only actions and chance move the rules."""
    if kind in (EventKind.ACTION_APPLIED, EventKind.CHANCE_RESOLVED):
        state.apply(data["action"])


def replay(game: Game, events) -> State:
    """The state after ``events`` (ordered, starting at seq 1), without snapshots."""
    state = new_state(game)
    for event in events:
        apply_event(state, event.kind, event.data)
    return state


class StateCache:
    """Recently committed states by stream, version and rules version, in this process.

    Safe because a committed version of a stream never changes; entries are only added once
    the append that made them has committed, and the stream's key includes its creation time,
    so a primary key reused after a rollback or a flushed database never matches. Callers get
    clones, never the cached object.
    """

    def __init__(self, size: int = 512):
        self.size = size
        self._states: OrderedDict[tuple, State] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple) -> State | None:
        with self._lock:
            state = self._states.get(key)
            if state is None:
                return None
            self._states.move_to_end(key)
        return state.clone()

    def put(self, key: tuple, state: State) -> None:
        with self._lock:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()


state_cache = StateCache()


def _cache_key(game: Game, version: int) -> tuple:
    return (where(game), game.pk, game.created_at, version, get_rules(game.slug).spec.version)


def remember_on_commit(game: Game, state: State) -> None:
    """Cache ``state`` as the game's head once the current transaction commits."""
    key = _cache_key(game, game.version)
    kept = state.clone()
    transaction.on_commit(lambda: state_cache.put(key, kept), using=where(game))


def load_state(game: Game, at: int | None = None) -> State:
    """The rule state after event ``at`` (default: the head), from the newest valid snapshot."""
    target = game.version if at is None else at
    rules = get_rules(game.slug)
    cached = state_cache.get(_cache_key(game, target))
    if cached is not None:
        return cached
    state, start = _from_snapshot(game, rules, target) or (new_state(game), 0)
    for kind, data in (
        Event.objects.using(where(game))
        .filter(game=game, seq__gt=start, seq__lte=target)
        .order_by("seq")
        .values_list("kind", "data")
    ):
        apply_event(state, kind, data)
    return state


def _from_snapshot(game: Game, rules: ModuleType, target: int) -> tuple[State, int] | None:
    """The state of the newest snapshot at or before ``target`` that rebuilds, and its version.

    A snapshot that no longer fits the rules' State (written before a refactor, or damaged)
    is skipped for the next older one: snapshots are a cache, the events are the truth.
    """
    below = target + 1
    while True:
        snap = (
            Snapshot.objects.using(where(game))
            .filter(game=game, rules_version=rules.spec.version, version__lt=below)
            .order_by("-version")
            .only("version", "state")
            .first()
        )
        if snap is None:
            return None
        try:
            return state_from_json(rules, snap.state), snap.version
        except StateFormatError as exc:
            logger.warning(
                "game %s: snapshot at version %s ignored: %s", game.pk, snap.version, exc
            )
            below = snap.version


def maybe_snapshot(game: Game, state: State, previous_version: int) -> None:
    """Write a snapshot when the append crossed a multiple of HADAL_SNAPSHOT_EVERY."""
    every = settings.HADAL_SNAPSHOT_EVERY
    if every <= 0 or game.version // every == previous_version // every:
        return
    Snapshot.objects.using(where(game)).get_or_create(
        game=game,
        version=game.version,
        rules_version=get_rules(game.slug).spec.version,
        defaults={"state": state.to_json()},
    )


# -- what each reader may see ---------------------------------------------------------------------


def visible_data(event: Event, seats: set[int], game_over_public: bool) -> dict[str, Any]:
    """The event's data as a reader sitting at ``seats`` may see it."""
    data = event.data
    private_to = data.get("private_to")
    if private_to is None:
        return data
    if game_over_public or seats.intersection(private_to):
        return {"action": data["action"]}
    return {"action": data["public"]}
