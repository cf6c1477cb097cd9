"""Celery tasks for games. Each fetches by id and calls a service; all are idempotent."""

from __future__ import annotations

import logging
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import OperationalError
from django.utils import timezone

from games import services
from games.models import Game, GameStatus, Seat

log = logging.getLogger(__name__)


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True,
             max_retries=5, soft_time_limit=60, time_limit=90)
def bot_move(game_id: int, seat: int, version: int) -> int | None:
    """Move for a bot seat at ``version``. A stale or duplicate delivery does nothing."""
    appended = services.game_bot_move(game_id=game_id, seat=seat, version=version)
    return None if appended is None else appended.version


@shared_task(acks_late=True, soft_time_limit=50, time_limit=60)
def sweep_stalled_bots() -> int:
    """Re-enqueue bot or resigned seats that have waited too long (a lost task, a dead worker)."""
    cutoff = timezone.now() - timedelta(seconds=settings.HADAL_BOT_STALL_SECONDS)
    stalled = 0
    for game in Game.objects.filter(status=GameStatus.ACTIVE, updated_at__lt=cutoff,
                                    current_player__isnull=False).iterator():
        seat = Seat.objects.filter(game=game, index=game.current_player).first()
        if seat is not None and (seat.bot or seat.resigned):
            services.enqueue_bot_move(game.pk, game.current_player, game.version)
            stalled += 1
    if stalled:
        log.info("re-enqueued %d stalled bot seat(s)", stalled)
    return stalled
