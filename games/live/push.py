"""Fan-out of what was just committed to whoever is listening: a game's new events, and the
notices a person gets (their turn, an invitation, a round paired).

One place publishes: :func:`after_write`, which hears of every append once it has committed
(the store's hook, games.store.on_write, subscribed in games.apps). What it sends goes through
a hub:

- :class:`LocalHub` (no REDIS_URL, as under ``make run``): within this process.
- :class:`RedisHub` (REDIS_URL set): Redis pub/sub, so a move served by one worker reaches the
  streams held open by every other. Each process keeps one subscribing connection per event
  loop and fans a message out to its own listeners, so Redis sends a message once per process
  and not once per open stream.

Why Redis pub/sub and not PostgreSQL's LISTEN/NOTIFY: Redis is already running (the Celery
broker), a NOTIFY payload is capped at 8000 bytes (an Abyss batch with its private outcomes can
exceed it), and LISTEN needs one PostgreSQL connection per listening process held outside the
pool, with psycopg's notifications read by polling that connection. A message lost while Redis
is away is not lost for a stream: the events are in the log, and a stream that sees a gap in
the versions reads what it missed from the database (games.live.streams).

Messages are JSON. A game's channel carries the raw events with the head they produced (the
private parts too: redaction happens per listener, with the same code as the events API); a
person's channel carries notices ready to send.
"""

from __future__ import annotations

import asyncio
import json
import logging
import queue
import threading
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from dataclasses import fields
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import connections

from games.signals import invitation_sent, turn_started
from games.store import Head, LoggedEvent, SeatInfo

log = logging.getLogger(__name__)

# Put in every listener's inbox when the hub may have dropped messages (Redis went away):
# each stream then reads what it missed from the database.
RESYNC = "resync"
QUIET_AFTER_FAILURE = 5.0  # seconds


# -- channels -------------------------------------------------------------------------------------


def _prefix(connection) -> str:
    # Redis pub/sub ignores the database number: the database the game lives in names it, so
    # that two deployments (or test runs) sharing one Redis never hear each other's games.
    return f"hadal:{connection.settings_dict['NAME']}:"


def game_channel(game_id: int, db: str = "default", connection=None) -> str:
    """The game's channel; ``connection`` (the writer's) spares looking it up by ``db``."""
    return f"{_prefix(connection or connections[db])}game:{game_id}"


def user_channel(user_id: int, db: str = "default") -> str:
    return f"{_prefix(connections[db])}user:{user_id}"


# -- hubs -----------------------------------------------------------------------------------------


class Inbox:
    """What one listener has been sent and not yet read; filled from any thread.

    Under ASGI a list and one future to wait on: an asyncio.Queue, with its events, and the
    task asyncio.wait_for makes at every wait, cost each open stream 4 KB more."""

    def __init__(self, loop: asyncio.AbstractEventLoop | None = None):
        self.loop = loop
        self.items: list[str] = []  # rarely more than one: a list is a tenth of a deque
        self.waiter: asyncio.Future[None] | None = None
        self.queue: queue.SimpleQueue[str] | None = queue.SimpleQueue() if loop is None else None

    def put(self, message: str) -> None:
        if self.queue is not None:
            self.queue.put_nowait(message)
            return
        assert self.loop is not None
        try:
            self.loop.call_soon_threadsafe(self._arrived, message)
        except RuntimeError:  # the listener's loop has closed: it is gone
            pass

    def _arrived(self, message: str) -> None:
        self.items.append(message)
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def get(self, timeout: float) -> str | None:
        """The next message, or None after ``timeout`` seconds."""
        if not self.items:
            assert self.loop is not None
            self.waiter = self.loop.create_future()
            timer = self.loop.call_later(timeout, _wake, self.waiter)
            try:
                await self.waiter
            finally:
                timer.cancel()
                self.waiter = None
        return self.items.pop(0) if self.items else None

    def get_sync(self, timeout: float) -> str | None:
        assert self.queue is not None
        try:
            return self.queue.get(timeout=timeout)
        except queue.Empty:
            return None


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class LocalHub:
    """Fan-out within this process; also what RedisHub delivers through once a message is in."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Inbox]] = {}
        self._lock = threading.Lock()

    def publish(self, channel: str, message: str) -> None:
        self.deliver(channel, message)

    def wants(self, channel: str) -> bool:
        """Whether anyone in this process listens on ``channel`` (else there is no message to
        build: no other process can hear this hub)."""
        with self._lock:
            return bool(self._listeners.get(channel))

    def deliver(self, channel: str, message: str) -> None:
        with self._lock:
            inboxes = list(self._listeners.get(channel, ()))
        for inbox in inboxes:
            inbox.put(message)

    def deliver_everywhere(self, message: str) -> None:
        with self._lock:
            inboxes = {i for listening in self._listeners.values() for i in listening}
        for inbox in inboxes:
            inbox.put(message)

    def add(self, channel: str, inbox: Inbox) -> bool:
        """Listen; True if this is the channel's first listener here."""
        with self._lock:
            listening = self._listeners.setdefault(channel, set())
            listening.add(inbox)
            return len(listening) == 1

    def remove(self, channel: str, inbox: Inbox) -> bool:
        """Stop listening; True if that was the channel's last listener here."""
        with self._lock:
            listening = self._listeners.get(channel, set())
            listening.discard(inbox)
            if listening:
                return False
            self._listeners.pop(channel, None)
            return True

    def listeners(self, channel: str) -> int:
        with self._lock:
            return len(self._listeners.get(channel, ()))

    @asynccontextmanager
    async def subscribed(self, channel: str) -> AsyncIterator[Inbox]:
        inbox = Inbox(asyncio.get_running_loop())
        self.add(channel, inbox)
        try:
            yield inbox
        finally:
            self.remove(channel, inbox)

    @contextmanager
    def subscribed_sync(self, channel: str) -> Iterator[Inbox]:
        inbox = Inbox()
        self.add(channel, inbox)
        try:
            yield inbox
        finally:
            self.remove(channel, inbox)


class RedisHub:
    """Redis pub/sub between processes, one subscribing connection per event loop."""

    def __init__(self, url: str):
        import redis

        self.url = url
        # Publishing runs after a commit, in the request: never let a Redis away hold it up.
        self.client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
        self.quiet_until = 0.0
        self.local = LocalHub()
        self._bridges: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Bridge] = (
            weakref.WeakKeyDictionary()
        )

    def wants(self, channel: str) -> bool:
        return True  # a stream in another process may listen

    def publish(self, channel: str, message: str) -> None:
        # After a failure, publish nothing for a while rather than make every write wait for
        # the timeout: the streams read what they missed from the log once messages come again.
        if time.monotonic() < self.quiet_until:
            raise ConnectionError("Redis was unreachable a moment ago")
        try:
            self.client.publish(channel, message)
        except Exception:
            self.quiet_until = time.monotonic() + QUIET_AFTER_FAILURE
            raise

    @asynccontextmanager
    async def subscribed(self, channel: str) -> AsyncIterator[Inbox]:
        loop = asyncio.get_running_loop()
        bridge = self._bridges.get(loop)
        if bridge is None:
            bridge = self._bridges[loop] = _Bridge(self.url, self.local)
        inbox = Inbox(loop)
        if self.local.add(channel, inbox):
            await bridge.subscribe(channel)
        else:
            await bridge.confirmed(channel)
        try:
            yield inbox
        finally:
            if self.local.remove(channel, inbox):
                await bridge.unsubscribe(channel)

    @contextmanager
    def subscribed_sync(self, channel: str) -> Iterator[Inbox]:
        """For a stream served by a WSGI thread (runserver pointed at Redis): a connection of
        its own, read by a thread that fills the inbox."""
        inbox = Inbox()
        pubsub = self.client.pubsub(ignore_subscribe_messages=True)
        pubsub.subscribe(**{channel: lambda message: inbox.put(message["data"].decode())})
        reader = pubsub.run_in_thread(sleep_time=0.5, daemon=True)
        try:
            yield inbox
        finally:
            reader.stop()
            reader.join(5)
            pubsub.close()


class _Bridge:
    """One event loop's subscribing connection to Redis, delivering to the local hub."""

    def __init__(self, url: str, local: LocalHub):
        import redis.asyncio

        self.client = redis.asyncio.Redis.from_url(url)
        self.pubsub = self.client.pubsub()
        self.local = local
        self.waiting: dict[str, asyncio.Future[None]] = {}
        self.reader: asyncio.Task[None] | None = None

    async def subscribe(self, channel: str) -> None:
        """Subscribe and wait until Redis says it has: from then on nothing published on the
        channel is missed, so a stream may read the log and then rely on what comes."""
        future = self.waiting.get(channel)
        if future is None or future.done():
            future = self.waiting[channel] = asyncio.get_running_loop().create_future()
        await self.pubsub.subscribe(channel)
        if self.reader is None or self.reader.done():
            self.reader = asyncio.create_task(self._read())
        await asyncio.wait_for(asyncio.shield(future), 10)

    async def confirmed(self, channel: str) -> None:
        future = self.waiting.get(channel)
        if future is not None:
            await asyncio.wait_for(asyncio.shield(future), 10)

    async def unsubscribe(self, channel: str) -> None:
        self.waiting.pop(channel, None)
        try:
            await self.pubsub.unsubscribe(channel)
        except Exception:  # the connection is gone, and with it the subscription
            log.warning("could not unsubscribe from %s", channel, exc_info=True)

    async def _read(self) -> None:
        while True:
            try:
                message = await self.pubsub.get_message(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                # redis-py reconnects and subscribes again on the next read; whatever was sent
                # meanwhile, every stream reads from the log.
                log.warning("lost the Redis subscription; reconnecting", exc_info=True)
                self.local.deliver_everywhere(RESYNC)
                await asyncio.sleep(1)
                continue
            if message is None:
                continue
            channel = message["channel"].decode()
            if message["type"] == "subscribe":
                future = self.waiting.get(channel)
                if future is not None and not future.done():
                    future.set_result(None)
            elif message["type"] == "message":
                self.local.deliver(channel, message["data"].decode())


_hub: LocalHub | RedisHub | None = None
_hub_key: str | None = None
_hub_lock = threading.Lock()


def hub() -> LocalHub | RedisHub:
    """The hub the settings name: Redis when HADAL_STREAM_REDIS_URL (REDIS_URL by default) is
    set, this process otherwise."""
    global _hub, _hub_key
    url = settings.HADAL_STREAM_REDIS_URL
    with _hub_lock:
        if _hub is None or _hub_key != url:
            _hub = RedisHub(url) if url else LocalHub()
            _hub_key = url
        return _hub


# -- publishing -----------------------------------------------------------------------------------


def after_write(before, after, events, connection) -> None:
    """Hears of every write the store commits (games.store.on_write: ``before`` and ``after``
    are the heads, ``events`` the logged events, ``connection`` the one that wrote them):
    publish the events on the game's channel, and tell a person that it has become their turn
    or that they are invited."""
    try:
        channel, to = game_channel(after.id, connection=connection), hub()
        if to.wants(channel):  # built only for someone who may hear it
            to.publish(channel, _game_message(after, events))
    except Exception:
        log.warning("could not publish game %s's events; streams will catch up", after.id)
    # Robustly: the append has committed, and the client must hear so whatever a receiver
    # does.
    answers = []
    turn = _turn_started(before, after)
    if turn is not None:
        answers += turn_started.send_robust(
            sender=None, game=after, seat=turn, user_id=after.seats[turn].user_id
        )
    for seat in _invited(before, after):
        answers += invitation_sent.send_robust(
            sender=None, game=after, seat=seat, user_id=after.seats[seat].user_id
        )
    for receiver, answer in answers:
        if isinstance(answer, Exception):
            log.warning("game %s: %s failed: %r", after.id, receiver, answer)


def _turn_started(before, after) -> int | None:
    """The seat whose person it has just become to play, if any. Nobody's turn begins while a
    seat offered to someone waits for their answer (the game waits for them, and its clock
    does not run): the first turn begins with the last acceptance."""
    seat = after.current_player
    if after.status != "active" or seat is None or seat < 0:
        return None
    if seat >= len(after.seats):
        return None  # a stream without seats (the store's own tests)
    row = after.seats[seat]
    if row.bot or row.resigned or row.user_id is None or not after.everyone_seated():
        return None
    was = before.current_player
    if before.version and not before.everyone_seated():
        return seat  # the last invitee has just taken their seat
    if before.version and before.status == "active" and was is not None and was >= 0:
        if was == seat or (was < len(before.seats) and before.seats[was].user_id == row.user_id):
            return None  # it was already theirs
    return seat


def _invited(before, after) -> list[int]:
    """Seats offered to a person who has not taken them, new with this write (a new game, or a
    seat given to someone else)."""
    if after.status != "active":
        return []
    return [
        s.index
        for s, was in zip(after.seats, before.seats)
        if s.user_id is not None
        and not s.bot
        and not s.accepted
        and (not before.version or was.user_id != s.user_id)
    ]


def notify_user(
    user_id: int,
    notice: dict[str, Any] | Callable[[], dict[str, Any]],
    db: str = "default",
) -> None:
    """Send a notice to a person's stream now (call it once the fact has committed). A notice
    given as a function is built only if someone may hear it: the turn changes hands on most
    moves, and most people are not listening when it does."""
    try:
        channel, to = user_channel(user_id, db), hub()
        if to.wants(channel):
            to.publish(channel, json.dumps(notice() if callable(notice) else notice, default=_iso))
    except Exception:
        log.warning("could not publish a notice to user %s", user_id)


def _iso(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    raise TypeError(f"{type(value).__name__} is not JSON")


def _game_message(head, events) -> str:
    return json.dumps(
        {"head": _head_json(head), "events": [_event_json(e) for e in events]}, default=_iso
    )


def _head_json(head) -> dict[str, Any]:
    """The head's fields as they are (asdict would deep-copy every value first, a tenth of a
    move's time): the message is written at once and the head never changes."""
    shown = {f.name: getattr(head, f.name) for f in fields(head)}
    shown["seats"] = [{f.name: getattr(s, f.name) for f in fields(s)} for s in head.seats]
    return shown


def _event_json(event) -> dict[str, Any]:
    return {
        "pk": event.pk,
        "seq": event.seq,
        "kind": event.kind,
        "data": event.data,
        "seat": event.seat,
        "actor_id": event.actor_id,
        "created_at": event.created_at.isoformat(),
        "batch": event.batch,
    }


def head_from_json(data: dict[str, Any]) -> Head:
    """The Head a game message carries, as the store made it."""
    times = ("created_at", "moved_at", "updated_at", "finished_at", "deadline")
    fields: dict[str, Any] = {
        k: (datetime.fromisoformat(v) if k in times and v else v) for k, v in data.items()
    }
    fields["seats"] = tuple(SeatInfo(**s) for s in data["seats"])
    return Head(**fields)


def events_from_json(items: list[dict[str, Any]]) -> list[LoggedEvent]:
    return [
        LoggedEvent(**{**e, "created_at": datetime.fromisoformat(e["created_at"])}) for e in items
    ]
