"""The sweep, run by the web process itself when there is no beat to run it.

In production a clock fires twice over: a countdown task the worker runs when it runs out, and
the beat's periodic sweep (games.tasks.sweep_stalled_bots) as the backstop. With Celery eager
(``make run``, the embedded default) there is neither a worker to wait nor a beat, so nothing
would ever fire: a daemon thread started by the first request runs the same sweep every
``HADAL_EAGER_SWEEP_SECONDS``. A thread rather than a check on every read: a clock must fire
while nobody is looking (a tournament table with an absent player), and a read stays a read.
The sweep is idempotent (every timeout carries the version it fired at), so a second process
sweeping too (runserver's reloader, several workers) does no harm.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta

from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

from accounts import vacations
from games.models import Game, GameStatus, Seat
from games.play import away, lobby, services
from games.signals import bot_to_move

log = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()


def start(**kwargs) -> None:
    """Start the thread once per process, in eager mode only (a request_started receiver)."""
    global _thread
    if running():
        return  # every request after the first: nothing to import or look up
    from celery import current_app as app

    interval = settings.HADAL_EAGER_SWEEP_SECONDS
    if interval <= 0 or not app.conf.task_always_eager:
        return
    with _lock:
        if running():
            return
        _stop.clear()
        _thread = threading.Thread(target=_run, args=(interval,), name="hadal-sweep", daemon=True)
        _thread.start()


def running() -> bool:
    return _thread is not None and _thread.is_alive()


def stop() -> None:
    """Stop the thread and wait for it (tests; a process shutting down needs nothing)."""
    global _thread
    _stop.set()
    if _thread is not None:
        _thread.join(timeout=10)
    _thread = None


def _run(interval: float) -> None:
    while not _stop.wait(interval):
        try:
            sweep()
        except Exception:
            log.exception("the in-process sweep failed; it tries again in %s s", interval)
        finally:
            close_old_connections()


def sweep() -> int:
    """Re-enqueue bot or resigned seats that have waited too long (a lost task, a dead worker),
    begin and end the vacations due (before the clocks: a member away is not timed out),
    play the moves of people whose clock has run out, and call off games whose invitations
    went unanswered. A tournament never stalls. With no beat (eager mode, ``make run``)
    this module's thread runs it in the web process."""
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
            bot_to_move.send(
                sender=Game, game_id=game.pk, seat=game.current_player, version=game.version
            )
            handled += 1
    # Vacations whose start or end has come: their members' clocks stop or run again.
    handled += vacations.vacations_sweep(now=now)
    handled += away.members_away_pause()  # games they sat down at since they left
    # The clocks that have run out, along a partial index of the running ones.
    expired = Game.objects.filter(deadline__lte=now, status=GameStatus.ACTIVE)
    for game_id, seat, version in expired.values_list("pk", "current_player", "version"):
        if services.game_timeout(game_id=game_id, seat=seat, version=version) is not None:
            handled += 1
    handled += lobby.lapse_invitations(now=now)
    if handled:
        log.info("moved %d stalled or timed-out seat(s) or lapsed invitation(s)", handled)
    return handled
