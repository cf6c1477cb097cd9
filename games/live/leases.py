"""How many event streams one member, and one address, may hold open at once.

A stream costs its server a connection and a little memory for as long as it stays open, so
nobody may hold an unbounded number: a member at most HADAL_STREAMS_PER_MEMBER (a player with
a few tabs and a phone), an address at most HADAL_STREAMS_PER_ADDRESS (a club's whole room
behind one router; a signed-in member's streams count for their address too). One more is a
429 that says how many are open.

Each open stream holds a lease, counted across every process through Redis: a sorted set per
member and per address, each lease scored by when it runs out. One thread per process renews
all of its process's leases in one round trip every keep-alive and gives back those of the
streams that ended, so the leases of a worker that died run out by themselves and an event loop
never waits for Redis. Without Redis (``make run``) the count is the process's own. Redis away
is no reason to refuse a stream: it is not counted then, and a line is logged.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from dataclasses import dataclass

from django.conf import settings
from django.db import connections

from core.errors import TooMany

log = logging.getLogger(__name__)

# A lease outlives its last renewal by this many keep-alives.
LEASE_KEEPALIVES = 4

# KEYS: the sets a stream counts in; ARGV: now, when the lease runs out, its id, each set's cap.
_ACQUIRE = """
local now, expires, id = tonumber(ARGV[1]), tonumber(ARGV[2]), ARGV[3]
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local open = redis.call('ZCARD', key)
  if open >= tonumber(ARGV[3 + i]) then return {i, open} end
end
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, expires, id)
  redis.call('EXPIREAT', key, math.ceil(expires))
end
return {0, 0}
"""


@dataclass
class Lease:
    id: str
    keys: list[str]
    counted: bool = True  # False when Redis was away: nothing to renew or give back


def _lifetime() -> float:
    return LEASE_KEEPALIVES * settings.HADAL_STREAM_KEEPALIVE


class Leases:
    """This process's leases, and the thread that keeps them in Redis."""

    def __init__(self, url: str):
        self.url = url
        self.lock = threading.Lock()
        self.live: dict[str, Lease] = {}
        self.ended: list[Lease] = []
        self.local: dict[str, set[str]] = {}  # without Redis: the leases held in each set
        self.wake = threading.Event()
        self.client = None
        self.script = None
        if url:
            import redis

            self.client = redis.Redis.from_url(url, socket_timeout=1, socket_connect_timeout=1)
            self.script = self.client.register_script(_ACQUIRE)
            threading.Thread(target=self._keep, name="hadal-stream-leases", daemon=True).start()

    def acquire(self, keys: list[str], caps: list[int]) -> tuple[Lease, tuple[int, int] | None]:
        """A lease in every set of ``keys``, or which set (1-based) is full and how full."""
        lease = Lease(id=uuid.uuid4().hex, keys=keys)
        if self.script is None:
            refused = self._acquire_locally(lease, caps)
        else:
            now = time.time()
            expires = now + _lifetime()
            try:
                index, held = self.script(keys=keys, args=[now, expires, lease.id, *caps])
            except Exception:
                log.warning("stream leases: Redis unavailable; a stream opens uncounted")
                lease.counted = False
                return lease, None
            refused = (int(index), int(held)) if int(index) else None
        if refused is None and self.client is not None:
            with self.lock:
                self.live[lease.id] = lease
        return lease, refused

    def _acquire_locally(self, lease: Lease, caps: list[int]) -> tuple[int, int] | None:
        """The count without Redis: this process's own streams, given back as they end."""
        with self.lock:
            for i, key in enumerate(lease.keys):
                held = len(self.local.get(key, ()))
                if held >= caps[i]:
                    return i + 1, held
            for key in lease.keys:
                self.local.setdefault(key, set()).add(lease.id)
        return None

    def release(self, lease: Lease) -> None:
        if not lease.counted:
            return
        with self.lock:
            if self.client is None:
                for key in lease.keys:
                    self.local.get(key, set()).discard(lease.id)
                return
            if self.live.pop(lease.id, None) is not None:
                self.ended.append(lease)
        self.wake.set()

    def _keep(self) -> None:
        """Give back the leases of the streams that ended as soon as they end, and renew the
        live ones every keep-alive, each in one pipeline: a burst of streams ending sends
        their removals, never a renewal of every stream open."""
        renewed = 0.0
        while True:
            self.wake.wait(settings.HADAL_STREAM_KEEPALIVE)
            self.wake.clear()
            due = time.monotonic() - renewed >= settings.HADAL_STREAM_KEEPALIVE
            with self.lock:
                ended, self.ended = self.ended, []
                live = list(self.live.values()) if due else []
            if not ended and not due:
                continue
            expires = time.time() + _lifetime()
            try:
                assert self.client is not None
                pipe = self.client.pipeline(transaction=False)
                for lease in ended:
                    for key in lease.keys:
                        pipe.zrem(key, lease.id)
                for lease in live:
                    for key in lease.keys:
                        pipe.zadd(key, {lease.id: expires}, xx=True)
                for key in {key for lease in live for key in lease.keys}:
                    pipe.expireat(key, int(expires) + 1)
                pipe.execute()
            except Exception:
                log.warning("stream leases: Redis unavailable; the leases run out by themselves")
            if due:
                renewed = time.monotonic()


_leases: Leases | None = None
_leases_lock = threading.Lock()


def leases() -> Leases:
    global _leases
    url = settings.HADAL_STREAM_REDIS_URL
    with _leases_lock:
        if _leases is None or _leases.url != url:
            _leases = Leases(url)
        return _leases


def acquire(*, user_id: int | None, address: str) -> Lease:
    """A lease for one more stream by this member (None for a visitor) from this address, or
    TooMany saying which cap it would pass."""
    prefix = f"hadal:{connections['default'].settings_dict['NAME']}:streams:"
    keys, caps, whose = [], [], []
    if user_id is not None:
        keys.append(f"{prefix}member:{user_id}")
        caps.append(settings.HADAL_STREAMS_PER_MEMBER)
        whose.append("you have")
    keys.append(f"{prefix}address:{address}")
    caps.append(settings.HADAL_STREAMS_PER_ADDRESS)
    whose.append("your address has")
    lease, refused = leases().acquire(keys, caps)
    if refused is not None:
        index, held = refused
        raise TooMany(
            f"{whose[index - 1]} {held} event streams open, the most allowed: close one (a tab "
            "or another device) and try again",
            retry_after=int(settings.HADAL_STREAM_KEEPALIVE),
        )
    return lease


def release(lease: Lease) -> None:
    leases().release(lease)
