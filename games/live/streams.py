"""Server-sent event streams: a game's new events as the reader may see them, and a person's
notices. The views (games.api.live) check who is asking; this module says what they hear.

A stream is a feed driven by a loop: the feed turns what the hub brings (games.live.push) into SSE
frames, and reads the log itself when it may have missed something (a gap in the versions, a
hub that lost its connection, an actor it cannot name without the database). The loop is
written twice, for an ASGI server (an async iterator, uvicorn in production) and for a WSGI
thread (`make run`'s runserver), around the same feed.

Message format (documented in the OpenAPI schema, games.api.live.SCHEMA):

    id: 12
    data: {"type": "event", "version": 12, "head": 13, "status": "active",
           "current_player": 1, "your_turn": false, "event": {...as /events/ gives it...}}

one message per event, ``id`` its version, so that a client that reconnects with
``Last-Event-ID`` resumes after it. ``head`` is the game's version once the batch the event
belongs to is in, and ``current_player`` whose turn it is then. A person's stream sends each
new notice of their inbox (inbox.services.message: ``{"type", "id", "kind", "text", "url",
"created", "read", ...}``) with its id as ``id:``, and after it ``{"type": "counts", "unread",
"turns", "invitations"}``; on connecting it first sends what waits for them now. A comment line (``: keep-alive``)
comes every HADAL_STREAM_KEEPALIVE seconds when nothing else does.

A stream opened with a token asks about it again every HADAL_STREAM_KEEPALIVE seconds (one
statement, accounts.authentication.TokenAuth.still_good), and ends once it is revoked or has
expired, saying so in a comment; reconnecting with it is then a 401, which stops EventSource.
"""

from __future__ import annotations

import functools
import json
import time
import weakref
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any, TypeVar

from asgiref.sync import sync_to_async
from django.conf import settings
from django.db import connection

from core import inputs
from games.live import leases as stream_leases
from games.live import push
from games.models import GameStatus
from games.play import reads
from games.selectors import game_with_seats
from inbox import services as inbox

T = TypeVar("T")
RETRY_MS = 3000
KEEPALIVE = ": keep-alive\n\n"
# Said as a stream ends because it was idle or old: EventSource opens it again at once, where
# it left off, if its page is still open (and a page that is hidden closes its own).
ENDED = ": ended; reconnect to go on\n\n"
# Said as a stream opened with a token ends because the token was revoked or has expired (or
# its member deactivated): reconnecting with it is a 401, which stops EventSource for good.
WITHDRAWN = ": ended; the token is no longer valid\n\n"


class Feed:
    """What both kinds of stream share: the lease that counts it (games.live.leases), given
    back when the stream ends or, should it never start, when the feed is let go; and the
    token it was opened with, if any (accounts.authentication.TokenAuth), asked about again
    now and then (:meth:`token_good`)."""

    lease: stream_leases.Lease | None = None
    done: bool
    token: Any = None

    def token_good(self) -> bool:
        """Whether the token may still be used (the database: run it in a thread); a stream
        the session opened has nothing to ask."""
        return self.token is None or self.token.still_good()

    def hold(self, lease: stream_leases.Lease) -> None:
        self.lease = lease
        weakref.finalize(self, stream_leases.release, lease)

    def release(self) -> None:
        if self.lease is not None:
            stream_leases.release(self.lease)


def released(read: Callable[..., T]) -> Callable[..., T]:
    """``read``, then the database connection closed: a stream is open for hours and reads
    once in a while, and must not hold one of the database's connections all that time."""

    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return read(*args, **kwargs)
        finally:
            if not connection.in_atomic_block:  # a test's transaction, say: leave it be
                connection.close()

    return run


def frame(data: dict[str, Any], event_id: int | None = None) -> str:
    """One SSE message: JSON has no raw newlines, so the data is one line."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}data: {json.dumps(data, separators=(',', ':'))}\n\n"


# -- a game's stream ------------------------------------------------------------------------------


class GameFeed(Feed):
    """The events of one game after version ``after``, as ``user`` may see them."""

    def __init__(self, *, game, user, after: int):
        self.game_id = game.pk
        self.user = user
        self.channel = push.game_channel(game.pk)
        self.last = after
        self.done = False

    def catch_up(self) -> str:
        """What the log holds after the last version sent (the database: run it in a thread)."""
        game = game_with_seats(self.game_id)
        events = reads.game_events(game=game, user=self.user, after=self.last)
        return self._frames(game, events)

    def receive(self, message: str) -> str | None:
        """Frames for a message from the hub; None when the log must be read instead."""
        if message == push.RESYNC:
            return None
        head, events = _parsed(message)
        if head.version <= self.last:
            return ""
        seated = {s.user_id for s in head.seats}
        if events[0].seq != self.last + 1 or any(
            e.actor_id is not None and e.actor_id not in seated for e in events
        ):
            return None  # a gap, or an actor only the database can name
        chunk = _rendered(message, frozenset(reads.seats_seen_by(head, self.user)))
        self.last = head.version
        self.done = head.status != GameStatus.ACTIVE
        return chunk

    def _frames(self, game, events: list[dict[str, Any]]) -> str:
        events = [e for e in events if e["seq"] > self.last]
        if events:
            self.last = events[-1]["seq"]
        if game.status != GameStatus.ACTIVE and self.last >= game.version:
            self.done = True
        return _frames(game, events, reads.seats_seen_by(game, self.user))


@functools.lru_cache(maxsize=256)
def _parsed(message: str):
    """A game message as the store's Head and events: parsed once per process, however many
    streams of this process hear it."""
    payload = json.loads(message)
    return push.head_from_json(payload["head"]), push.events_from_json(payload["events"])


@functools.lru_cache(maxsize=1024)
def _rendered(message: str, seats: frozenset[int]) -> str:
    """A message's frames for a reader holding ``seats``: redacted and written once for all
    the readers holding the same seats (every spectator, say)."""
    head, events = _parsed(message)
    return _frames(head, reads.events_seen_from(game=head, seats=set(seats), events=events), seats)


def _frames(game, events: list[dict[str, Any]], mine) -> str:
    turn = game.current_player if game.status == GameStatus.ACTIVE else None
    return "".join(
        frame(
            {
                "type": "event",
                "version": e["seq"],
                "head": game.version,
                "status": game.status,
                "current_player": turn,
                "your_turn": turn is not None and turn in mine,
                "event": e,
            },
            e["seq"],
        )
        for e in events
    )


def last_event_id(header: str | None, asked: int, version: int) -> int:
    """Where a reconnecting client resumes: after its Last-Event-ID if that is a version of the
    game, after the head if it is beyond it, where it first asked if it is not a number (a
    client's or a proxy's garbage is no reason to refuse it, or to fail every retry)."""
    seen = inputs.whole_number_or_none(header, 0, inputs.BIGINT)
    return asked if seen is None else min(seen, version)


# -- a person's stream ----------------------------------------------------------------------------


SHOWN = inbox.PAGE * 4  # open notices sent at most on (re)connecting


class UserFeed(Feed):
    """A person's inbox as it changes (inbox): each new notice, with its id as the message's
    ``id:``, then the counts the nav shows (``{"type": "counts", ...}``, no id).

    On connecting, the notices still open (what waits now), oldest first; on reconnecting
    with ``Last-Event-ID``, those still open that came after it. Either way, the counts."""

    def __init__(self, *, user, after: int | None = None):
        self.user = user
        self.channel = push.user_channel(user.pk)
        self.last = after
        self.done = False

    def catch_up(self) -> str:
        """What waits for them now (the database: run it in a thread)."""
        from games.live import notices

        if self.last is None:
            notices.mend(self.user)
        rows = self.user.notices.filter(done_at__isnull=True)
        if self.last is not None:
            rows = rows.filter(pk__gt=self.last)
        shown = list(rows.order_by("id")[:SHOWN])
        chunk = "".join(frame(inbox.message(n), n.pk) for n in shown)
        # From now on only what comes after (the person's notices were mended once, above),
        # the newest of them if there were more than shown.
        self.last = self.last or 0
        if len(shown) == SHOWN:
            shown = list(rows.order_by("-id")[:1])
        if shown:
            self.last = max(self.last, shown[-1].pk)
        return chunk + counts_frame(inbox.counts(self.user.pk))

    def receive(self, message: str) -> str | None:
        """Every message says only that the inbox changed: the notices after the last sent,
        and the counts, are read (catch_up, in a thread)."""
        return None


def counts_frame(counts: dict[str, int]) -> str:
    return frame({"type": "counts", **counts})


def last_notice_id(header: str | None) -> int | None:
    """Where a reconnecting person's stream resumes: after its Last-Event-ID, a notice's id;
    from the start (what waits now) if there is none, or it is not a number."""
    return inputs.whole_number_or_none(header, 0, inputs.BIGINT)


# -- the loops ------------------------------------------------------------------------------------


class _Clock:
    """When a stream has been quiet too long (nothing but keep-alives for
    HADAL_STREAM_IDLE_SECONDS) or open too long (HADAL_STREAM_MAX_SECONDS: its reader is asked
    again who they are when it reconnects, so a signed-out session does not listen for ever);
    and when its token is due to be asked about again: every HADAL_STREAM_KEEPALIVE seconds,
    busy or quiet, so a revoked token's stream ends within that."""

    def __init__(self) -> None:
        self.opened = self.heard = self.checked = time.monotonic()

    def token_due(self) -> bool:
        now = time.monotonic()
        if now - self.checked < settings.HADAL_STREAM_KEEPALIVE:
            return False
        self.checked = now
        return True

    def heard_something(self) -> None:
        self.heard = time.monotonic()

    def over(self) -> bool:
        now = time.monotonic()
        return (
            now - self.heard >= settings.HADAL_STREAM_IDLE_SECONDS
            or now - self.opened >= settings.HADAL_STREAM_MAX_SECONDS
        )


async def stream_async(feed: GameFeed | UserFeed) -> AsyncIterator[str]:
    """The stream under an ASGI server; ends when the game does, when it is idle or old, or
    when the client goes (the server cancels the iteration: the subscription is dropped and the
    lease given back on the way out)."""
    clock = _Clock()
    try:
        async with push.hub().subscribed(feed.channel) as inbox:
            # Subscribed first, then the log: nothing committed in between is missed.
            yield f"retry: {RETRY_MS}\n\n" + await sync_to_async(released(feed.catch_up))()
            while not feed.done:
                message = await inbox.get(settings.HADAL_STREAM_KEEPALIVE)
                if clock.token_due() and not await sync_to_async(released(feed.token_good))():
                    yield WITHDRAWN
                    return
                if message is None:
                    if clock.over():
                        yield ENDED
                        return
                    yield KEEPALIVE
                    continue
                chunk = feed.receive(message)
                if chunk is None:
                    chunk = await sync_to_async(released(feed.catch_up))()
                if chunk:
                    clock.heard_something()
                    yield chunk
    finally:
        feed.release()


def stream_sync(feed: GameFeed | UserFeed) -> Iterator[str]:
    """The same under a WSGI server: a thread per stream (runserver has one per request)."""
    clock = _Clock()
    try:
        with push.hub().subscribed_sync(feed.channel) as inbox:
            yield f"retry: {RETRY_MS}\n\n" + released(feed.catch_up)()
            while not feed.done:
                message = inbox.get_sync(settings.HADAL_STREAM_KEEPALIVE)
                if clock.token_due() and not released(feed.token_good)():
                    yield WITHDRAWN
                    return
                if message is None:
                    if clock.over():
                        yield ENDED
                        return
                    yield KEEPALIVE
                    continue
                chunk = feed.receive(message)
                if chunk is None:
                    chunk = released(feed.catch_up)()
                if chunk:
                    clock.heard_something()
                    yield chunk
    finally:
        feed.release()
