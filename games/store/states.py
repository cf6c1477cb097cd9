"""A game's rule state at a version: the replay of its events, read from the cache of
committed heads (games.store.heads), else from the newest snapshot that holds
(games.store.snapshots) and the events after it."""

from __future__ import annotations

from typing import Any

from games import logchain
from games.models import Event, EventKind, GameMode
from games.rules import get_rules
from games.rules.base import State
from games.store import snapshots
from games.store.heads import state_cache
from games.store.types import where


def rules_of(game):
    """The rules ``game`` (a Game row or a Head) is played under: its own version, for ever."""
    return get_rules(game.slug, game.rules_version)


def new_state(game) -> State:
    return rules_of(game).new_game(num_players=game.num_players, options=game.options)


# The kinds of event that move the rules, as plain strings: a set lookup, where reading an
# enum's members costs more than the rest of apply_event (bench/bench_replay.py).
_MOVES = frozenset({str(EventKind.ACTION_APPLIED), str(EventKind.CHANCE_RESOLVED)})


def apply_event(state: State, kind: str, data: dict[str, Any]) -> None:
    """Advance a rule state by one stored event. Only actions and chance move the rules."""
    if kind in _MOVES:
        state.apply(data["action"])


undone = (
    logchain.undone
)  # the entries a table log's scorekeeper took back (games.tablelog.services)


def replay(game, events) -> State:
    """The state after ``events`` (ordered, starting at seq 1), without snapshots."""
    events = list(events)
    skipped = undone((e.seq, e.kind, e.data) for e in events)
    state = new_state(game)
    for event in events:
        if event.seq not in skipped:
            apply_event(state, event.kind, event.data)
    return state


def load_state(game, at: int | None = None) -> State:
    """The rule state after event ``at`` (default: the head), from the newest snapshot that
    holds (see :func:`games.store.snapshots.newest_usable`) and the events after it."""
    target = game.version if at is None else at
    hit = state_cache.get(where(game), game.pk, target)
    if hit is not None:
        return hit[1]
    rules = rules_of(game)
    if game.mode == GameMode.LOG:
        # An undo reaches back behind any snapshot: a table log (entered by hand, hundreds
        # of events at most) replays from the start, less the entries taken back.
        rows = list(
            Event.objects.using(where(game))
            .filter(game_id=game.pk, seq__lte=target)
            .order_by("seq")
            .values_list("seq", "kind", "data")
        )
        skipped, state = undone(rows), new_state(game)
        for seq, kind, data in rows:
            if seq not in skipped:
                apply_event(state, kind, data)
        return state
    found, start, unusable = snapshots.newest_usable(game, rules, target)
    state = new_state(game) if found is None else found
    for seq, kind, data in (
        Event.objects.using(where(game))
        .filter(game_id=game.pk, seq__gt=start, seq__lte=target)
        .order_by("seq")
        .values_list("seq", "kind", "data")
    ):
        apply_event(state, kind, data)
        if seq in unusable:
            snapshots.replace_unusable(game, rules, seq, unusable[seq], state)
    return state
