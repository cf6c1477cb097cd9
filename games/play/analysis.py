"""Post-game analysis services: start it, read it, compute it (the Celery task's body).

The judging itself is pure (games.bots.analysis); this module feeds it a finished game's log
and keeps the outcome in an :class:`~games.models.Analysis` row. An analysis exists only once
a game is over: every hand is public then, and each decision was searched from its own seat's
view alone, so the result may be shown to anyone who may watch the game.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.http import Http404
from django.utils import timezone

from core.errors import Busy, Conflict, TooMany
from games import audience, store
from games.bots.analysis import Budget, Step, analyse
from games.models import Analysis, Event, EventKind, Game, GameMode, GameStatus
from games.signals import analysis_wanted

log = logging.getLogger(__name__)

# A running analysis whose row has not moved for this long lost its worker: start it again.
STALE_AFTER = timedelta(minutes=5)
PROGRESS_EVERY_SECONDS = 0.5


def analysis_budget(slug: str) -> Budget:
    """The budget for a game of ``slug``: HADAL_ANALYSIS, with its per-game overrides."""
    config = settings.HADAL_ANALYSIS
    per_game = config.get("per_game", {}).get(slug, {})
    return Budget(
        **{
            f.name: per_game.get(f.name, config.get(f.name, f.default))
            for f in dataclasses.fields(Budget)
        }
    )


def game_analysis_get(*, game_id: int, user) -> Analysis:
    """The game's analysis, started for ``user`` if nobody has asked before (or its worker was
    lost). 404 for no such game; 409 for a game not finished or without moves to analyse; 429
    when ``user`` has started as many as they may for now, 503 when the analysis queue is as
    long as it may be. Reading an analysis that exists, finished or running, is free."""
    game = Game.objects.filter(pk=game_id).prefetch_related("seats").first()
    if game is None or not audience.may_see(game, user):
        raise Http404("no such game")
    _require_analysable(game)
    row = Analysis.objects.filter(game=game).first()
    if row is not None and not _must_start(row):
        return row
    with transaction.atomic():
        row, created = Analysis.objects.select_for_update().get_or_create(
            game=game,
            defaults={"budget": _budget_json(analysis_budget(game.slug)), "requested_by": user},
        )
        restart = not created and _must_start(row)
        if created or restart:
            _check_share(user, game_id=game.pk)
        if restart:
            row.status, row.progress, row.started_at = Analysis.RUNNING, 0.0, timezone.now()
            row.requested_by = user
            row.save(
                update_fields=["status", "progress", "started_at", "updated_at", "requested_by"]
            )
        if created or restart:
            transaction.on_commit(lambda: analysis_wanted.send(sender=Game, game_id=game.pk))
    row.refresh_from_db()  # an eager task has finished by now
    return row


def _must_start(row: Analysis) -> bool:
    """A failed analysis, or one whose worker was lost, is started again."""
    return row.status == Analysis.FAILED or (
        row.status == Analysis.RUNNING and timezone.now() - row.updated_at > STALE_AFTER
    )


def _check_share(user, *, game_id: int) -> None:
    """Whether ``user`` may start one more analysis now (the row for ``game_id`` is theirs in
    this transaction already, and not counted): each takes minutes of a worker's search, so a
    member has a few at once and a few an hour, and the queue as a whole has a length."""
    now = timezone.now()
    limits = settings.HADAL_ANALYSIS_LIMITS
    running = Analysis.objects.filter(
        status=Analysis.RUNNING, updated_at__gt=now - STALE_AFTER
    ).exclude(game_id=game_id)
    mine = running.filter(requested_by=user).count()
    if mine >= limits["at_once"]:
        raise TooMany(
            f"you have {mine} analyses being computed; ask again once one is done",
            retry_after=60,
        )
    started = (
        Analysis.objects.filter(requested_by=user, started_at__gt=now - timedelta(hours=1))
        .exclude(game_id=game_id)
        .order_by("started_at")
        .values_list("started_at", flat=True)
    )
    if len(started) >= limits["per_hour"]:
        wait = int((started[0] + timedelta(hours=1) - now).total_seconds()) + 1
        raise TooMany(
            f"you have started {len(started)} analyses in the last hour, the most allowed; "
            f"the next may start in {wait // 60 + 1} minutes",
            retry_after=wait,
        )
    if running.count() >= limits["waiting"]:
        raise Busy(
            "as many analyses as the service computes at once are waiting; ask again in a few "
            "minutes",
            retry_after=120,
        )


def _require_analysable(game: Game) -> None:
    if game.mode == GameMode.RECORD:
        raise Conflict(
            "this game was played on a table and recorded by its result: it has no moves to analyse"
        )
    if game.status == GameStatus.ACTIVE:
        raise Conflict("the game is still being played: its analysis is ready once it is over")
    if game.status != GameStatus.FINISHED:
        raise Conflict("the game was called off: there is nothing to analyse")
    if not store.rules_of(game).spec.reveal_at_end:
        raise Conflict("this game keeps its hands secret after the end: it is not analysed")


def game_analysis_compute(*, game_id: int) -> bool:
    """Compute and store the analysis of a finished game; False if there is nothing to do
    (no such game, not finished, already done)."""
    game = Game.objects.filter(pk=game_id).first()
    # A game played here, or a table log (its moves entered as they were played).
    if game is None or game.status != GameStatus.FINISHED or game.mode == GameMode.RECORD:
        return False
    row, _ = Analysis.objects.get_or_create(game=game)
    if row.status == Analysis.DONE:
        return False
    budget = analysis_budget(game.slug)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    last_saved = [time.monotonic()]

    def progress(fraction: float) -> None:
        now = time.monotonic()
        if now - last_saved[0] >= PROGRESS_EVERY_SECONDS:
            last_saved[0] = now
            Analysis.objects.filter(pk=game.pk, status=Analysis.RUNNING).update(
                progress=round(fraction, 3), updated_at=timezone.now()
            )

    try:
        report = analyse(
            store.new_state(game),
            log_steps(events),
            budget=budget,
            seed=game.pk,
            progress=progress,
        )
    except Exception:
        Analysis.objects.filter(pk=game.pk).update(status=Analysis.FAILED)
        raise
    Analysis.objects.filter(pk=game.pk).update(
        status=Analysis.DONE,
        progress=1.0,
        result=report.to_json(),
        budget=_budget_json(budget),
        updated_at=timezone.now(),
    )
    return True


def log_steps(events) -> list[Step]:
    """The decisions and chance outcomes of a log, in order. A seat's moves after it resigned
    were played for it by the random bot: they are stepped through but not judged. A table
    log's entries its scorekeeper took back are left out, as replay leaves them."""
    events = list(events)
    undone = store.undone((e.seq, e.kind, e.data) for e in events)
    resigned: set[int] = set()
    steps = []
    for event in events:
        if event.seq in undone:
            continue
        if event.kind == EventKind.SEAT_RESIGNED:
            resigned.add(event.seat)
        elif event.kind in (EventKind.ACTION_APPLIED, EventKind.CHANCE_RESOLVED):
            judged = event.kind == EventKind.CHANCE_RESOLVED or event.seat not in resigned
            steps.append(Step(event.seq, event.data["action"], judged))
    return steps


def analysis_payload(row: Analysis) -> dict[str, Any]:
    if row.status == Analysis.DONE:
        return row.result
    return {"status": "running", "progress": row.progress}


def _budget_json(budget: Budget) -> dict[str, int | str]:
    """The budget as stored with the analysis: every setting but a root left to the game's."""
    return {name: value for name, value in dataclasses.asdict(budget).items() if value is not None}
