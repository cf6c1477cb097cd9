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

from django.conf import settings
from django.db import close_old_connections

log = logging.getLogger(__name__)

_lock = threading.Lock()
_thread: threading.Thread | None = None
_stop = threading.Event()


def start(**kwargs) -> None:
    """Start the thread once per process, in eager mode only (a request_started receiver)."""
    global _thread
    if running():
        return  # every request after the first: nothing to import or look up
    from config.celery import app

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
    from games.tasks import sweep_stalled_bots

    while not _stop.wait(interval):
        try:
            sweep_stalled_bots()
        except Exception:
            log.exception("the in-process sweep failed; it tries again in %s s", interval)
        finally:
            close_old_connections()
