"""The ASGI edge: what production does with a request before Django reads a byte of its body.

Django's ASGI handler reads a request's whole body (into a temporary file past 2.5 MB) before
any middleware runs, so a refusal in a middleware comes too late: a Content-Length of 1 GB was
spooled to disk first, one of 10^20 held the connection open. Here:

- a body is refused on its headers: over the limit, a 413; without a Content-Length (sent in
  chunks), a 411;
- an event stream (games.api.live) runs its few moments of synchronous work (who asks, the
  log it catches up on) on a small shared set of threads instead of a thread of its own, which
  Django would keep for as long as the stream stays open (1,000 streams held 969 threads).

The same limits hold under WSGI (``make run``): config.http.RequestGuardMiddleware asks
:func:`config.http.body_refusal` too, and there the body is read only when a view asks.
"""

from __future__ import annotations

import itertools
import json
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext
from django.conf import settings

from config.http import body_refusal

STREAM_PATHS = ("/api/me/stream/",)
STREAM_SUFFIX = "/stream/"


def is_stream(path: str) -> bool:
    return path in STREAM_PATHS or (path.startswith("/api/games/") and path.endswith(STREAM_SUFFIX))


class _StreamThreads:
    """Single-thread executors the streams share, handed out in turn: a stream's synchronous
    calls all run on one thread (Django's connections are that thread's), and a thread serves
    any number of streams, one call at a time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._executors: list[ThreadPoolExecutor] = []
        self._turn: itertools.cycle[ThreadPoolExecutor] | None = None

    def next(self) -> ThreadPoolExecutor:
        with self._lock:
            if self._turn is None:
                count = max(1, settings.HADAL_STREAM_THREADS)
                self._executors = [
                    ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"hadal-stream-{i}")
                    for i in range(count)
                ]
                self._turn = itertools.cycle(self._executors)
            return next(self._turn)


stream_threads = _StreamThreads()


def _headers(scope: dict[str, Any], name: bytes) -> list[str]:
    return [value.decode("latin-1") for key, value in scope["headers"] if key == name]


async def _refuse(scope, send, message: str, status: int) -> None:
    if scope["path"].startswith("/api/"):
        body, kind = json.dumps({"error": message}).encode(), b"application/json"
    else:
        body, kind = message.encode(), b"text/plain; charset=utf-8"
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", kind),
                (b"content-length", str(len(body)).encode()),
                # The body it did not want may still be on its way: do not read it, end here.
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class Edge:
    """ASGI middleware around Django's application (config.asgi)."""

    def __init__(self, app) -> None:
        self.app = app

    async def __call__(self, scope, receive, send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        lengths = _headers(scope, b"content-length")
        kind = next(iter(_headers(scope, b"content-type")), "")
        if len(lengths) > 1:
            await _refuse(scope, send, "the request has more than one Content-Length", 400)
            return
        refusal = body_refusal(lengths[0] if lengths else None, kind)
        if refusal is not None:
            await _refuse(scope, send, *refusal)
            return
        if not lengths and _headers(scope, b"transfer-encoding"):
            # A body of unknown length Django would read whole before asking anyone, and DRF
            # would then not read at all: ask for it whole, with its length.
            await _refuse(scope, send, "send the request body with a Content-Length", 411)
            return
        if is_stream(scope["path"]):
            async with ThreadSensitiveContext(executor=stream_threads.next()):
                await self.app(scope, receive, send)
            return
        await self.app(scope, receive, send)
