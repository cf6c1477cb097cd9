"""Celery tasks for games. Each fetches by id and calls a service; all are idempotent."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from games.models import Game, GameStatus, Seat
from games.play import analysis, lobby, services

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
    """Re-enqueue bot or resigned seats that have waited too long (a lost task, a dead worker),
    play the moves of people whose clock has run out, and call off games whose invitations
    went unanswered. A tournament never stalls. With no beat (eager mode, ``make run``)
    games.play.sweeper runs this in a thread of the web process."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=settings.HADAL_BOT_STALL_SECONDS)
    handled = 0
    waiting = Game.objects.filter(
        status=GameStatus.ACTIVE, current_player__isnull=False, mode="play"
    )
    # updated_at (indexed) is never later than moved_at, so it narrows the scan first.
    for game in waiting.filter(updated_at__lt=cutoff, moved_at__lt=cutoff).iterator():
        seat = Seat.objects.filter(game=game, index=game.current_player).first()
        if seat is not None and (seat.bot or seat.resigned):
            services.enqueue_bot_move(game.pk, game.current_player, game.version)
            handled += 1
    # The clocks that have run out, along a partial index of the running ones.
    expired = Game.objects.filter(deadline__lte=now, status=GameStatus.ACTIVE)
    for game_id, seat, version in expired.values_list("pk", "current_player", "version"):
        if services.game_timeout(game_id=game_id, seat=seat, version=version) is not None:
            handled += 1
    handled += lobby.lapse_invitations(now=now)
    if handled:
        log.info("moved %d stalled or timed-out seat(s) or lapsed invitation(s)", handled)
    return handled


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def turn_email(game_id: int, seat: int, version: int) -> bool:
    """Mail a person that it is their turn (games.live.notices); once per turn, whatever the retries."""
    from games.live import notices

    return notices.send_turn_email(game_id=game_id, seat=seat, version=version)


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def analyse_game(game_id: int) -> bool:
    """Compute a finished game's analysis; a duplicate delivery finds it done and does nothing."""
    return analysis.game_analysis_compute(game_id=game_id)
