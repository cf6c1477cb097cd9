"""The steps every append shares, public so that the rooms above play (tablelog, records) take
them rather than reach into services: load a game's head, check a request's key, turn an action
into an event, play the chance that follows, append and project, and queue what comes next
once it has committed.

Work for a worker leaves as a signal (games.signals.bot_to_move, clock_started) that
games.tasks answers: play never imports the tasks.
"""

from __future__ import annotations

import logging
import random
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import replace
from typing import Any

from django.db import DEFAULT_DB_ALIAS, transaction
from django.dispatch import Signal
from django.http import Http404
from django.utils import timezone

from core import inputs
from core.errors import InvalidInput, KeyReused, RuleViolation
from games import events as game_events
from games import people, store
from games.models import EventKind, Game, GameMode, GameStatus
from games.play import clocks
from games.rules import CHANCE
from games.rules.base import State, ranks_from_keys
from games.signals import bot_to_move, clock_started, game_finished
from games.store import AppendResult, Head, NewEvent

log = logging.getLogger(__name__)

# The chance player's dice. Never seeded, never stored: no seat can learn it.
chance_rng: random.Random = random.SystemRandom()


def load(game: Game | int, version: int | None = None) -> tuple[Head, State]:
    """The game at ``version`` if this process has it committed (no query at all), else its
    current head from the database (one query) and its state. 404 for no such game, 422 for
    a game played on a table (it has results, not moves)."""
    game_id = game if isinstance(game, int) else game.pk
    db = DEFAULT_DB_ALIAS if isinstance(game, int) else store.where(game)
    if version is not None:
        hit = store.state_cache.get(db, game_id, version)
        if hit is not None:
            return hit
    head = store.load_head(game_id, db)
    if head is None:
        raise Http404("no such game")
    require_moves(head)
    return head, store.load_state(head)


def load_expected(game: Game | int, expected_version: Any) -> tuple[Head, State]:
    """:func:`load` for a request that names the version it expects (a move, an entry)."""
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise InvalidInput("expected_version must be a whole number")
    return load(game, expected_version)


def update_row(game: Game | int, head: Head) -> None:
    """A caller holding the Game row sees it at the new head, as after any write."""
    if isinstance(game, Game) and head.version >= game.version:
        for name in store.PROJECTED:
            setattr(game, name, getattr(head, name))


def has_open_seats(seats) -> bool:
    """Some seat is left for anyone to take (games.play.lobby): the game waits for it."""
    return any(s.user_id is None and not s.guest for s in seats)


def require_play_mode(game: Game | Head) -> None:
    """Only a game played here takes a seat's own moves, resignations, acceptances."""
    if game.mode == GameMode.LOG:
        raise RuleViolation("this game is a table log: its scorekeeper enters every move")
    require_moves(game)


def require_moves(game: Game | Head) -> None:
    """A game with a rule state: played here, or logged move by move at a table."""
    if game.mode not in (GameMode.PLAY, GameMode.LOG):
        raise RuleViolation("this game was played on a table: it has results, not moves")


# Idempotency keys. A client's key is stored as "client:<key>", the server's own (a bot's move,
# a clock running out) as "<what>:<seat>:<version>", so no client can take a key the server
# will use. A key names one request: reused for another, it is refused.
CLIENT_KEY_PREFIX = "client:"


Request = tuple[str, int | None, Any]  # (event kind, seat or None for chance, action or None)


def client_key(key: Any) -> str | None:
    if key is None:
        return None
    if not isinstance(key, str) or not 0 < len(key) <= 100:
        raise InvalidInput("idempotency_key must be a string of 1 to 100 characters")
    return CLIENT_KEY_PREFIX + key


def server_key(what: str, seat: int, version: int) -> str:
    return f"{what}:{seat}:{version}"


def earlier_result(
    game: Game | Head, idempotency_key: str | None, request: Request
) -> AppendResult | None:
    """A key seen before short-cuts to its first result: a retry must get that result, not a
    conflict with the version the game has moved on to."""
    if idempotency_key is None:
        return None
    earlier = store.batch_for_key(game, idempotency_key)
    return None if earlier is None else same_request(earlier, request)


def same_request(earlier: AppendResult, request: Request) -> AppendResult:
    kind, seat, action = request
    first = earlier.events[0]
    if (
        first.kind != kind
        or first.seat != seat
        or (action is not None and first.data.get("action") != action)
    ):
        raise KeyReused("this idempotency_key was used for a different request")
    return earlier


def seat_number(game: Game | Head, seat: Any) -> int:
    return inputs.seat(seat, game.num_players)


def version_number(game: Game, at: Any, *, allow_zero: bool = False) -> int:
    if at is None:
        return game.version
    return inputs.version(at, game.version, 0 if allow_zero else 1)


def action_data(state: State, action: Any) -> dict[str, Any]:
    """An event's data: the action, and its public form if only some seats may see it."""
    private = state.private_to(action)
    if private is None:
        return {"action": action}
    return {"action": action, "private_to": sorted(private), "public": state.public_form(action)}


def resolve_chance(state: State) -> list[NewEvent]:
    events = []
    while state.current_player == CHANCE:
        outcomes = state.chance_outcomes()
        outcome = chance_rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        data = action_data(state, outcome)
        state.apply(outcome)
        events.append(game_events.chance_resolved(**data))
    return events


def final_result(state: State, seats) -> list[dict[str, Any]]:
    """The rules' result, with resigned seats ranked below everyone who played on."""
    result = state.result()
    keys = [(not s.resigned, -r["rank"]) for s, r in zip(seats, result)]
    return [
        {"player": s.username or s.guest, "score": r["score"], "rank": rank}
        for s, r, rank in zip(seats, result, ranks_from_keys(keys))
    ]


def forfeit_result(seats) -> list[dict[str, Any]]:
    return [{"player": s.username, "score": None, "rank": 2 if s.resigned else 1} for s in seats]


def append_and_project(
    head: Head,
    expected_version: int,
    events: list[NewEvent],
    state: State,
    *,
    idempotency_key: str | None = None,
    request: Request | None = None,
    seat_changes: dict[int, dict[str, Any]] | None = None,
    game: Game | None = None,
    guard: store.Guard | None = None,
) -> tuple[AppendResult, Head]:
    """Append, finishing the game if the rules or resignations end it, project the head, and
    queue what follows once it has committed: the next bot's move, the clock, the news that
    the game is over. ``game``, the row of a game being created, is brought to the new head."""
    changes = seat_changes or {}
    seats = [replace(s, **changes[s.index]) if s.index in changes else s for s in head.seats]
    standing = [s for s in seats if not s.resigned]
    projection: dict[str, Any]
    if state.is_terminal():
        result = final_result(state, seats)
        reason = "rules"
    elif len(standing) <= 1 and len(seats) > 1:
        result = forfeit_result(seats)
        reason = "forfeit"
    else:
        result = None
    if result is not None:
        finished = game_events.game_finished(
            result=result, reason=reason, people=people.writer(seats=seats)
        )
        events = [*events, finished]
        projection = {"status": GameStatus.FINISHED, "current_player": None, "result": result}
    elif state.current_player != head.current_player:
        projection = {"current_player": state.current_player}
    else:
        projection = {}
    now = timezone.now()
    decision = events[0].seat if events[0].kind == EventKind.ACTION_APPLIED else None
    projection |= clocks.after_append(
        head,
        now=now,
        seats=seats,
        to_play=state.current_player,
        acted=decision,
        over=result is not None,
    )
    appended, new = store.write(
        head,
        expected_version,
        events,
        idempotency_key=idempotency_key,
        projection=projection,
        seat_changes=seat_changes,
        now=now,
        guard=guard,
    )
    if appended.replayed:
        # A request with the same key committed first: ours was never logged, so neither its
        # state (dice nobody rolled) nor its side effects may go anywhere.
        return (same_request(appended, request) if request else appended), head
    if game is not None:
        update_row(game, new)
    store.maybe_snapshot(new, state, head.version)
    store.remember_on_commit(new, state)
    if result is not None:
        announce(game_finished, new)
    else:
        schedule_next(new)
    return appended, new


def schedule_next(head: Head) -> None:
    """Once committed, what the game at ``head`` waits for: a bot's move, or the clock of the
    person to play checked when it runs out. Nothing while a seat is open (games.play.lobby)."""
    if head.status != GameStatus.ACTIVE or head.current_player is None:
        return
    if has_open_seats(head.seats):
        return
    game_id, seat, version = head.id, head.current_player, head.version
    actor = head.seats[seat]
    if actor.bot or actor.resigned:
        after_commit(
            "move for the bot",
            lambda: bot_to_move.send(sender=Game, game_id=game_id, seat=seat, version=version),
        )
    elif head.deadline is not None:
        seconds = (head.deadline - timezone.now()).total_seconds()
        after_commit(
            "start the clock",
            lambda: clock_started.send(
                sender=Game, game_id=game_id, seat=seat, version=version, seconds=seconds
            ),
        )


def after_commit(what: str, call: Callable[[], None]) -> None:
    """Run ``call`` once the transaction commits; if it fails (the broker is down, an eager
    task raises) log it and go on. The append has committed and the client must hear so; the
    beat sweeps (games.tasks, league.tasks) find what was left undone."""

    def run() -> None:
        try:
            call()
        except Exception:
            log.exception("after a commit, could not %s; the periodic sweep will catch up", what)

    transaction.on_commit(run)


def announce(signal: Signal, game: Game | Head) -> None:
    """Send ``signal`` for ``game`` once the transaction commits (games.signals); inside
    :func:`announcements_batched`, once for the whole batch."""
    game_id, slug = game.pk, game.slug
    batch = getattr(_announcing, "batch", None)
    if batch is not None:
        # Kept only if this game's own transaction (a savepoint, say) commits.
        transaction.on_commit(lambda: batch.setdefault((signal, slug), []).append(game_id))
        return
    after_commit(
        f"announce game {game_id}'s result",
        lambda: signal.send(sender=Game, game_id=game_id, slug=slug),
    )


_announcing = threading.local()


@contextmanager
def announcements_batched() -> Iterator[None]:
    """For a bulk writer (an import of thousands of records): once committed, each signal is
    sent once per game type rather than once per game, ``game_id`` the last game and
    ``game_ids`` all of them, so that a receiver acting per game type (the ratings) runs once.
    Use it inside the writer's transaction."""
    if getattr(_announcing, "batch", None) is not None:
        yield
        return
    batch: dict[tuple[Signal, str], list[int]] = {}
    _announcing.batch = batch
    try:
        yield
    finally:
        _announcing.batch = None

    def send() -> None:
        for (signal, slug), ids in batch.items():
            signal.send(sender=Game, game_id=ids[-1], slug=slug, game_ids=ids)

    after_commit("announce a batch of results", send)
