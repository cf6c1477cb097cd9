"""The check of a stored game against itself: its hash chain, its moves replayed under its own
rules version, and its head (the Game row) against its events. ``manage.py check_history``
(league, which adds the ratings) runs it over every stored game, after a restore or an upgrade.

Pure of league. It reads as the store's own replay does, but for many games at once: the games
in id order, a batch at a time, and every event of a batch in one query, its rows as the driver
gives them (no model instance, no ORM conversion per event), so that checking a club's whole
history takes minutes, not hours (bench/bench_history.py).

What a game is checked for:

- the chain: every event's hash is that of what it holds under the game's chain format
  (games.logchain), seqs run 1..n without a gap, the fingerprint is the last hash and the
  version the last seq;
- the set-up: the head's game, mode, rules version, players and options are those its first
  event (and, for a tournament table turned into a table log, its LogStarted) set up;
- the moves, for a game played here or logged at a table: each is legal where it stands,
  replayed under the game's rules version, an entry taken back (EntryUndone) skipped; a
  decision is made by the seat to act, a chance outcome at a chance node; and where the rules
  ended the game, the scores and ranks it logged are those the replay gives, resigned seats
  ranked below everyone who played on (games.play.steps.final_result);
- the head: its status is what the last GameFinished or GameVoided says, and its result's
  scores and ranks are those of the last GameFinished (a recorded game's corrections each end
  in one);
- the fingerprint it had before its log was moved to people's ids (games.EarlierFingerprint,
  migration 0021), while what it covered is kept: it must follow from the log as it was.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.db import connections, transaction
from django.db.models import TextField
from django.db.models.functions import Cast

from games import logchain
from games.models import EarlierFingerprint, Event, EventKind, Game, GameMode, GameStatus
from games.rules import CHANCE, IllegalAction, get_rules
from games.rules.base import State, ranks_from_keys

BATCH = 500  # games a query: a batch of long Abyss games is a few hundred thousand events

# The kinds as plain strings: compared once per event, where an enum member costs more.
_CREATED = str(EventKind.GAME_CREATED)
_STARTED = str(EventKind.LOG_STARTED)
_DECISION = str(EventKind.ACTION_APPLIED)
_CHANCE = str(EventKind.CHANCE_RESOLVED)
_RESIGNED = str(EventKind.SEAT_RESIGNED)
_FINISHED = str(EventKind.GAME_FINISHED)
_VOIDED = str(EventKind.GAME_VOIDED)
_UNDONE = str(EventKind.ENTRY_UNDONE)

KINDS = {GameMode.PLAY: "played", GameMode.LOG: "table log", GameMode.RECORD: "record"}

# The head's columns the check reads, and an event's, in the order the tuples hold them.
HEAD_COLUMNS = (
    "id",
    "slug",
    "mode",
    "rules_version",
    "options",
    "num_players",
    "status",
    "version",
    "result",
    "fingerprint",
    "chain_version",
)
# An event's columns as events_of gives them: its data decoded, its time as the chain has it.
EVENT_COLUMNS = ("game_id", "seq", "kind", "data", "seat", "actor_id", "time", "hash")
FETCH = 2000  # rows a fetch from the driver


@dataclass
class GameCheck:
    """One game checked: what it is, what its events say, and every difference found."""

    id: int
    slug: str
    mode: str
    rules_version: int
    events: int  # how many are stored: the game's version as its log has it
    status: str  # as its events say (active, finished or void)
    result: list[dict[str, Any]] | None  # the last GameFinished's, by seat
    differences: list[str] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return KINDS.get(self.mode, self.mode)

    def describe(self) -> str:
        """How a line about this game names it: ``game 17 (deep-vents v2, played)``."""
        version = "" if self.mode == GameMode.RECORD else f" v{self.rules_version}"
        return f"game {self.id} ({self.slug}{version}, {self.kind})"


def game_ids(
    *, using: str, ids: Sequence[int] | None = None, batch: int = BATCH
) -> list[list[int]]:
    """The ids of every stored game, or of those of ``ids`` that are stored, in id order, in
    batches of ``batch``: what :func:`check_batch` takes, one query for them all."""
    stored = Game.objects.using(using).order_by("id").values_list("id", flat=True)
    if ids is not None:
        stored = stored.filter(id__in=ids)
    found = list(stored)
    return [found[start : start + batch] for start in range(0, len(found), batch)]


@contextmanager
def snapshot(*, using: str) -> Iterator[None]:
    """One view of the database for a batch's reads, while the service may go on writing: a
    game moved on between reading its head and its events would otherwise differ from itself.
    PostgreSQL's REPEATABLE READ, read only; on SQLite a deferred transaction, a snapshot in WAL
    mode that holds up no writer (Django's own would begin IMMEDIATE, taking the write lock).
    Inside a transaction already open, that transaction is the view."""
    connection = connections[using]
    if connection.in_atomic_block:
        yield
    elif connection.vendor == "postgresql":
        with transaction.atomic(using=using), connection.cursor() as cursor:
            cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            yield
    else:
        with connection.cursor() as cursor:
            cursor.execute("BEGIN DEFERRED")
            try:
                yield
            finally:
                cursor.execute("COMMIT")


def check_batch(*, using: str, ids: list[int]) -> list[GameCheck]:
    """The checks of the games ``ids`` (in id order, a batch of :func:`game_ids`): two
    queries, their heads and all their events (in a :func:`snapshot`, with whatever else is
    compared with them)."""
    heads = list(
        Game.objects.using(using).filter(id__in=ids).order_by("id").values_list(*HEAD_COLUMNS)
    )
    events = events_of(using=using, ids=ids)
    earlier = {
        game_id: (fingerprint, held)
        for game_id, fingerprint, held in EarlierFingerprint.objects.using(using)
        .filter(game_id__in=ids, events__isnull=False)
        .values_list("game_id", "fingerprint", "events")
    }
    return [check_game(head, events[head[0]], earlier.get(head[0])) for head in heads]


def events_of(*, using: str, ids: list[int]) -> dict[int, list[tuple]]:
    """Every event of the games ``ids`` (in id order), by game, in seq order, as tuples of
    EVENT_COLUMNS with the time already as the chain hashes it: one query, over the unique
    (game, seq) index from the first id to the last.

    The rows come from the driver as they are, not through the ORM's conversions, which cost
    more than the hashing: the data's JSON is decoded here, and the time is read as text (a
    cast, the same SQL on each backend) and turned into the chain's form once for all the
    events of an append, which share it."""
    query = (
        Event.objects.using(using)
        .filter(game_id__gte=ids[0], game_id__lte=ids[-1])
        .order_by("game_id", "seq")
        .annotate(time=Cast("created_at", TextField()))
        .values_list("game_id", "seq", "kind", "data", "seat", "actor_id", "time", "hash")
    )
    sql, params = query.query.get_compiler(using).as_sql()
    by_game: dict[int, list[tuple]] = {game_id: [] for game_id in ids}
    times: dict[str, str | None] = {}
    with connections[using].cursor() as cursor:
        cursor.execute(sql, params)
        while rows := cursor.fetchmany(FETCH):
            for game_id, seq, kind, data, seat, actor, stored, digest in rows:
                log = by_game.get(game_id)
                if log is None:  # a game in the range but not asked for (--game)
                    continue
                if stored in times:
                    time = times[stored]
                else:
                    time = times[stored] = _chain_time(stored)
                log.append((game_id, seq, kind, _decoded(data), seat, actor, time, digest))
    return by_game


_SCAN = json.JSONDecoder().scan_once  # type: ignore[attr-defined]


def _decoded(text: str) -> Any:
    """A stored event's JSON: the decoder's scanner straight away, half json.loads's time on
    an event's few dozen bytes (its checks of what a column never holds, a BOM or leading
    space, cost as much as the decoding); json.loads, and its error, for anything else."""
    try:
        value, end = _SCAN(text, 0)
    except StopIteration:
        end = -1
    return value if end == len(text) else json.loads(text)


def _chain_time(stored: str) -> str | None:
    """A stored time's text (SQLite's, naive and in UTC; PostgreSQL's, with its offset) in
    the form the chain hashes (logchain.time_text); None if it is no time at all."""
    try:
        moment = datetime.fromisoformat(stored)
    except (TypeError, ValueError):
        return None
    return logchain.time_text(moment if moment.tzinfo else moment.replace(tzinfo=UTC))


def check_game(
    head: tuple, rows: list[tuple], earlier: tuple[str, dict] | None = None
) -> GameCheck:
    """Check one game: its head (a tuple of HEAD_COLUMNS) against its events (tuples of
    EVENT_COLUMNS, in seq order), and the fingerprint it had before the move to ids against
    the log as it was (``earlier``: that fingerprint and the data each rewritten event held)."""
    game_id, slug, mode, rules_version, options, players, status, version, result = head[:9]
    fingerprint, chain_version = head[9:]
    finished = [row for row in rows if row[2] == _FINISHED]
    logged_status = _status(rows)
    check = GameCheck(
        id=game_id,
        slug=slug,
        mode=mode,
        rules_version=rules_version,
        events=len(rows),
        status=logged_status,
        result=_logged_result(finished[-1][3]) if finished else None,
    )
    found = check.differences
    found += _chain(rows, fingerprint, chain_version)
    if version != len(rows):
        found.append(f"the head is at version {version}, but {len(rows)} events are stored")
    found += _setup(head, rows)
    if mode in (GameMode.PLAY, GameMode.LOG) and not found:
        # Only a log that is whole and set up as the head says is worth replaying: anything
        # else would fail here too, saying less than the lines above.
        found += _replay(slug, rules_version, players, options, rows)
    if status != logged_status:
        found.append(f"the head says {status}, its events say {logged_status}")
    found += _result(result, check.result)
    if earlier is not None and not found:
        found += _earlier(rows, chain_version, *earlier)
    return check


def _chain(rows: list[tuple], fingerprint: str, chain_version: int) -> list[str]:
    """Every hash recomputed under the game's chain format from what its event holds and the
    hash before it. An event whose hash fails is one line: the next event is checked against
    the stored hash before it and, if that one failed, against what it should have been, so
    that a changed event or a changed hash is a line of its own, not one for every event
    after it."""
    previous, should_have_been, broken = logchain.GENESIS, None, []
    canonical, event_hash = logchain.canonical_text, logchain.event_hash_of_text
    for number, (_, seq, kind, data, seat, actor, time, digest) in enumerate(rows, 1):
        if seq != number:
            return [f"event {number} is missing (the log jumps to {seq})"]
        if time is None:
            broken.append(f"event {seq} ({kind}): its time cannot be read")
            previous, should_have_been = digest, None
            continue
        try:
            text = canonical(data)
            computed = event_hash(previous, seq, kind, text, seat, time, actor, chain_version)
            if computed != digest and (
                should_have_been is None
                or event_hash(should_have_been, seq, kind, text, seat, time, actor, chain_version)
                != digest
            ):
                broken.append(
                    f"event {seq} ({kind}): its hash is not that of what it holds and the hash "
                    f"before it (chain format {chain_version}): the event or its hash was changed"
                )
        except (TypeError, ValueError) as exc:
            broken.append(f"event {seq} ({kind}): cannot be hashed ({exc})")
            computed = digest
        previous, should_have_been = digest, (computed if computed != digest else None)
    if fingerprint not in (previous, should_have_been):
        broken.append("the fingerprint is not the hash of the last event")
    return broken


def _earlier(rows: list[tuple], chain_version: int, fingerprint: str, held: dict) -> list[str]:
    """The chain recomputed with each rewritten event's data as it was: it must end in the
    fingerprint the game had then (the one players may have copied)."""
    previous = logchain.GENESIS
    for _, seq, kind, data, seat, actor, time, _ in rows:
        text = logchain.canonical_text(held.get(str(seq), data))
        previous = logchain.event_hash_of_text(
            previous, seq, kind, text, seat, time, actor, chain_version
        )
    if previous != fingerprint:
        return [
            f"its fingerprint from before the move to ids, {logchain.short(fingerprint)}, no "
            "longer follows from the log as it was"
        ]
    return []


def _setup(head: tuple, rows: list[tuple]) -> list[str]:
    """The head's set-up against the log's: event 1, and a LogStarted's where a tournament
    table became a table log (games.tablelog.services.table_log_start)."""
    if not rows or rows[0][2] != _CREATED or not isinstance(rows[0][3], dict):
        return ["event 1 is not the game being set up (GameCreated)"]
    said = {"mode": GameMode.PLAY, "rules_version": 0, **rows[0][3]}
    for _, _, kind, data, *_ in rows:
        if kind == _STARTED and isinstance(data, dict):
            said.update(mode=GameMode.LOG, rules_version=data.get("rules_version"))
            if "options" in data:
                said["options"] = data["options"]
    _, slug, mode, rules_version, options, players = head[:6]
    differences = []
    for name, value in (
        ("game", slug),
        ("mode", mode),
        ("rules_version", rules_version),
        ("num_players", players),
        ("options", options),
    ):
        if name in said and said[name] != value:
            differences.append(f"the head's {name} is {value!r}, its events say {said[name]!r}")
    return differences


def _replay(slug: str, version: int, players: int, options: Any, rows: list[tuple]) -> list[str]:
    """The moves replayed in order, each where it stands; the first that fails is the line
    (the state after it means nothing)."""
    try:
        state = get_rules(slug, version).new_game(num_players=players, options=options)
    except (KeyError, ValueError) as exc:
        return [f"cannot be set up under rules version {version} of this copy: {exc}"]
    undone = logchain.undone((row[1], row[2], row[3]) for row in rows if row[2] == _UNDONE)
    resigned: set[int] = set()
    ended = False
    for _, seq, kind, data, seat, *_ in rows:
        if kind == _DECISION or kind == _CHANCE:
            if seq not in undone and (refused := _move(state, kind, data, seat)):
                return [f"event {seq} ({kind}): {refused}"]
        elif kind == _RESIGNED:
            resigned.add(seat)
        elif kind == _FINISHED and isinstance(data, dict) and data.get("reason") == "rules":
            if lines := _ended_by_rules(state, seq, data, resigned):
                return lines
            ended = True
    if state.is_terminal() and not ended:
        return ["replayed, the rules end the game, but no event says they ended it"]
    return []


def _move(state: State, kind: str, data: Any, seat: int | None) -> str | None:
    """Apply a decision or a chance outcome made where it is due; else why not."""
    if (kind == _CHANCE) != (state.current_player == CHANCE) or (
        kind == _DECISION and seat != state.current_player
    ):
        to_act = "chance" if state.current_player == CHANCE else f"seat {state.current_player}"
        made_by = "a chance outcome" if kind == _CHANCE else f"a move by seat {seat}"
        return f"{made_by}, but replayed it is {to_act}'s turn"
    try:
        state.apply(data.get("action") if isinstance(data, dict) else None)
    except IllegalAction as exc:
        return f"the rules refuse this move ({exc})"
    return None


def _ended_by_rules(state: State, seq: int, data: dict, resigned: set[int]) -> list[str]:
    """The result the rules give at the end, resigned seats ranked below the rest, against
    the one logged."""
    if not state.is_terminal():
        return [f"event {seq} (GameFinished): the rules ended the game, but replayed it goes on"]
    replayed = state.result()
    ranks = ranks_from_keys([(i not in resigned, -r["rank"]) for i, r in enumerate(replayed)])
    expected = [(r["score"], rank) for r, rank in zip(replayed, ranks)]
    logged = [(r.get("score"), r.get("rank")) for r in _logged_result(data) or []]
    if expected != logged:
        return [
            f"event {seq} (GameFinished): replayed, the scores and ranks are "
            f"{_pairs(expected)}, the log says {_pairs(logged)}"
        ]
    return []


def _logged_result(data: Any) -> list[dict[str, Any]] | None:
    result = data.get("result") if isinstance(data, dict) else None
    return result if isinstance(result, list) else None


def _status(rows: list[tuple]) -> str:
    """What the events say of the game: the last GameFinished or GameVoided decides."""
    status = str(GameStatus.ACTIVE)
    for row in rows:
        if row[2] == _FINISHED:
            status = str(GameStatus.FINISHED)
        elif row[2] == _VOIDED:
            status = str(GameStatus.VOID)
    return status


def _result(head: list[dict] | None, logged: list[dict] | None) -> list[str]:
    """The head's result against the last one logged, by their scores and ranks (the names
    are the members', which an erasure may change on the head alone)."""
    if head is None and logged is None:
        return []
    if head is None or logged is None:
        return [f"the head's result is {_of(head)}, its events' {_of(logged)}"]
    pairs = [(r.get("score"), r.get("rank")) for r in head]
    expected = [(r.get("score"), r.get("rank")) for r in logged]
    if pairs != expected:
        return [
            f"the head's scores and ranks are {_pairs(pairs)}, its last result's {_pairs(expected)}"
        ]
    return []


def _of(result: list[dict] | None) -> str:
    if result is None:
        return "none"
    return _pairs([(r.get("score"), r.get("rank")) for r in result])


def _pairs(pairs: list[tuple]) -> str:
    """``[(38, 1), (12, 2)]``, seat by seat, in a line's words: ``38 (rank 1), 12 (rank 2)``."""
    return ", ".join(f"{score} (rank {rank})" for score, rank in pairs) or "nothing"
