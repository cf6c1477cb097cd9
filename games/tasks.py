"""Celery tasks for games. Each fetches by id and calls a service; all are idempotent.

The top of the app: nothing imports this module but games.apps, whose ready() connects the
receivers below. Play asks for work by signal (games.signals): a bot's move, a clock to check,
an analysis; the receivers here queue the task, once the write has committed.
"""

from __future__ import annotations

import logging
import threading

from celery import shared_task
from django.db import OperationalError

from games.play import analysis, services, sweeper
from games.signals import analysis_wanted, bot_to_move, clock_started

log = logging.getLogger(__name__)


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=60,
    time_limit=90,
)
def bot_move(game_id: int, seat: int, version: int) -> int | None:
    """Move for a bot seat at ``version``. A stale or duplicate delivery does nothing."""
    appended = services.game_bot_move(game_id=game_id, seat=seat, version=version)
    return None if appended is None else appended.version


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=60,
    time_limit=90,
)
def move_timeout(game_id: int, seat: int, version: int) -> int | None:
    """A person's clock ran out: the random bot moves for them, or they forfeit."""
    appended = services.game_timeout(game_id=game_id, seat=seat, version=version)
    return None if appended is None else appended.version


@shared_task(acks_late=True, soft_time_limit=50, time_limit=60)
def sweep_stalled_bots() -> int:
    """games.play.sweeper.sweep, from the beat (with no beat, the sweeper's own thread)."""
    return sweeper.sweep()


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def analyse_game(game_id: int) -> bool:
    """Compute a finished game's analysis; a duplicate delivery finds it done and does nothing."""
    return analysis.game_analysis_compute(game_id=game_id)


# -- the receivers: play's requests for work ------------------------------------------------------


def connect() -> None:
    bot_to_move.connect(enqueue_bot_move, dispatch_uid="games.tasks.bot_move")
    clock_started.connect(enqueue_timeout, dispatch_uid="games.tasks.move_timeout")
    analysis_wanted.connect(enqueue_analysis, dispatch_uid="games.tasks.analyse_game")


_eager = threading.local()


def enqueue_bot_move(*, game_id: int, seat: int, version: int, **kwargs) -> None:
    """Enqueue a bot move. In eager mode, run bot moves one after another, not nested."""
    if not bot_move.app.conf.task_always_eager:
        bot_move.delay(game_id, seat, version)
        return
    queue = getattr(_eager, "queue", None)
    if queue is not None:
        queue.append((game_id, seat, version))
        return
    _eager.queue = [(game_id, seat, version)]
    try:
        while _eager.queue:
            bot_move.apply(args=_eager.queue.pop(0))
    finally:
        _eager.queue = None


def enqueue_timeout(*, game_id: int, seat: int, version: int, seconds: float, **kwargs) -> None:
    """Check the clock when it runs out. In eager mode there is no waiting: the sweep catches
    expired clocks instead, run by the beat or, with no beat, by games.play.sweeper's thread."""
    if not move_timeout.app.conf.task_always_eager:
        move_timeout.apply_async((game_id, seat, version), countdown=max(0.0, seconds) + 1)


def enqueue_analysis(*, game_id: int, **kwargs) -> None:
    analyse_game.delay(game_id)
