"""``manage.py check_history``'s run and its ratings' side: every stored game checked a batch at
a time, in as many processes as asked, into one report (games.history checks each game's log
and head); and what was rated against what each game's log says.

A game the ratings took in (RatedGame) must be finished, must have been rated at the version
it is at (a correction moves the version, and the ratings follow it: league.services.ratings),
and its rating changes must give each member the rank its result gives them, seat by seat as
the ratings number them (the members in seat order, guests left out: table_of). A game held
for someone's agreement, refused, or with fewer than two members carries no change at all.
"""

from __future__ import annotations

import functools
import multiprocessing
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from django.db import connections

from games import history
from games.history import GameCheck
from games.models import GameStatus, Seat
from league.models import RatedGame, RatingChange


@dataclass
class HistoryReport:
    """What ``manage.py check_history`` found: the games checked by (game, rules version,
    kind), their events, the rated games compared, the finished games not rated yet, every
    difference in a line of its own, and the time it took."""

    games: Counter[tuple[str, int, str]] = field(default_factory=Counter)
    events: int = 0
    rated: int = 0
    unrated: int = 0
    differences: list[str] = field(default_factory=list)
    seconds: float = 0.0
    jobs: int = 1  # the processes that checked

    @property
    def checked(self) -> int:
        return sum(self.games.values())

    def per_minute(self) -> float:
        return self.checked * 60 / self.seconds if self.seconds else 0.0

    def add(self, batch: HistoryReport) -> None:
        self.games.update(batch.games)
        self.events += batch.events
        self.rated += batch.rated
        self.unrated += batch.unrated
        self.differences += batch.differences


def history_check(
    *,
    using: str,
    ids: Sequence[int] | None = None,
    found: Callable[[str], None] | None = None,
    jobs: int = 1,
    batch: int = history.BATCH,
) -> HistoryReport:
    """Check every stored game (or the games ``ids``) and its ratings, ``batch`` games at a
    time, in ``jobs`` processes; ``found`` hears each difference as it is found (in id order),
    so that a long run says so at once."""
    started = time.perf_counter()
    batches = history.game_ids(using=using, ids=ids, batch=batch)
    report = HistoryReport(jobs=_processes(jobs, batches, using=using))
    for part in _checked(batches, using=using, jobs=report.jobs):
        report.add(part)
        if found is not None:
            for line in part.differences:
                found(line)
    report.seconds = time.perf_counter() - started
    return report


def _processes(jobs: int, batches: list[list[int]], *, using: str) -> int:
    """How many processes check: as many as asked and there are batches, each forked from
    this one (a check is Python's work, on one core a process); but this one alone while it
    has a transaction open, which the workers, reading through connections of their own,
    would not see."""
    return 1 if connections[using].in_atomic_block else max(1, min(jobs, len(batches)))


def _checked(batches: list[list[int]], *, using: str, jobs: int) -> Iterator[HistoryReport]:
    """The batches' reports in order, checked here or by ``jobs`` processes."""
    if jobs == 1:
        yield from (batch_check(batch, using=using) for batch in batches)
        return
    # A forked worker opens connections of its own and must never share this process's:
    # none is left open, nor a pool of them (DB_POOL), whose threads would not follow.
    connection = connections[using]
    connection.close()
    if getattr(connection, "pool", None) is not None:
        connection.close_pool()
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        yield from pool.imap(functools.partial(batch_check, using=using), batches)


def batch_check(ids: list[int], *, using: str) -> HistoryReport:
    """One batch of games checked, logs and ratings, as a report of its own: its reads in
    one snapshot, so that a game the service moves on meanwhile is seen as it was."""
    with history.snapshot(using=using):
        checks = history.check_batch(using=using, ids=ids)
        ratings = ratings_check(checks, using=using)
    report = HistoryReport(rated=ratings.rated, unrated=ratings.unrated)
    for check in checks:
        report.games[check.slug, check.rules_version, check.kind] += 1
        report.events += check.events
        for line in [*check.differences, *ratings.differences.get(check.id, ())]:
            report.differences.append(f"{check.describe()}: {line}")
    return report


@dataclass
class RatingsCheck:
    """The ratings of a batch of games: how many were compared, how many finished games are
    not rated yet (a rating task still to run is no difference), and the differences found,
    by game."""

    rated: int
    unrated: int
    differences: dict[int, list[str]]


def ratings_check(checks: list[GameCheck], *, using: str) -> RatingsCheck:
    """Compare the ratings of the games ``checks`` with their logs: three queries."""
    ids = [check.id for check in checks]
    markers = {
        game_id: (version, skipped, consent)
        for game_id, version, skipped, consent in RatedGame.objects.using(using)
        .filter(game_id__in=ids)
        .values_list("game_id", "version", "skipped", "consent")
    }
    changes: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for game_id, seat, user, rank in (
        RatingChange.objects.using(using)
        .filter(game_id__in=ids)
        .order_by("game_id", "seat")
        .values_list("game_id", "seat", "user_id", "rank")
    ):
        changes[game_id].append((seat, user, rank))
    members: dict[int, list[tuple[int, int]]] = defaultdict(list)
    for game_id, index, user in (
        Seat.objects.using(using)
        .filter(game_id__in=ids, user__isnull=False)
        .order_by("game_id", "index")
        .values_list("game_id", "index", "user_id")
    ):
        members[game_id].append((index, user))
    found: dict[int, list[str]] = {}
    unrated = 0
    for check in checks:
        marker = markers.get(check.id)
        if marker is None:
            unrated += check.status == GameStatus.FINISHED
            if changes.get(check.id):
                found[check.id] = ["it has rating changes, but the ratings never took it in"]
        elif lines := _rated(check, marker, changes[check.id], members[check.id]):
            found[check.id] = lines
    return RatingsCheck(rated=len(markers), unrated=unrated, differences=found)


def _rated(
    check: GameCheck,
    marker: tuple[int, str, str],
    changes: list[tuple[int, int, int]],
    members: list[tuple[int, int]],
) -> list[str]:
    version, skipped, consent = marker
    if check.status != GameStatus.FINISHED:
        return [f"it was rated, but its events say it is {check.status}"]
    found = []
    if version != check.events:
        found.append(
            f"it was rated at version {version}, but its log is at version {check.events}: "
            "its ratings are not up to date"
        )
    if skipped or consent != RatedGame.Consent.AGREED:
        expected = []
    else:
        ranks = [entry.get("rank") for entry in check.result or []]
        expected = [
            (number, user, ranks[index] if index < len(ranks) else None)
            for number, (index, user) in enumerate(members)
        ]
    if changes != expected:
        found.append(
            f"its rating changes give {_ranks(changes)}, its result gives {_ranks(expected)}"
        )
    return found


def _ranks(rows: Sequence[tuple[int, int, int | None]]) -> str:
    """``[(0, 7, 1), (1, 9, 2)]`` in a line's words: ``member #7 rank 1, member #9 rank 2``."""
    return ", ".join(f"member #{user} rank {rank}" for _, user, rank in rows) or "no change"
