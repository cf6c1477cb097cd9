"""Sending a webhook's messages: in ``seq`` order, each once, the next only once the one before
has been received.

One sender per webhook at a time: :func:`drain` takes each message in a transaction that
holds the webhook's lock (on PostgreSQL a transaction-scoped advisory lock, tried, not waited
for: a second worker finding it held leaves the queue to the first), sends it, and marks it
sent in that same transaction once the receiver answered 2xx. A second sender can only look
once the first has committed, and then sees the message sent. (A crash between the receiver's
answer and the commit sends that message again on the next try, with the same ``webhook-id``.)

A failed try (no answer within HADAL_WEBHOOKS_TIMEOUT, or not 2xx, redirects included) is
recorded on the message with its next try, after 10 s, doubled at each failure up to an hour;
the messages behind it wait. The beat's sweep (league.tasks.sweep_webhooks, every 30 s)
drains every webhook with a message due, so a lost task or a restart loses nothing. Once
the oldest waiting message has failed for three days, the webhook stops, and says so on the
club's page, until an organiser resumes it: then everything waiting goes, in order.

The send connects to the address its host was just checked to resolve to (league.webhooks
.addresses), not to whatever a second lookup would give.
"""

from __future__ import annotations

import http.client
import socket
import ssl
from dataclasses import dataclass
from datetime import datetime, timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone

from core.errors import ServiceError
from league.models import OutboxMessage, Webhook
from league.webhooks import bodies
from league.webhooks.addresses import public_addresses

FIRST_RETRY = timedelta(seconds=10)
LONGEST_WAIT = timedelta(hours=1)
GIVE_UP_AFTER = timedelta(days=3)
AT_A_TIME = 100  # messages one drain sends before it lets the next webhook's task run
_LOCKS = 0x486F  # the advisory locks' first key ("Ho"): the second is the webhook's id


@dataclass(frozen=True)
class Drained:
    sent: int
    next_at: datetime | None = None  # the next try of a message left waiting
    busy: bool = False  # another sender holds the webhook


def retry_after(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failure in a row: 10 s, 20 s, 40 s ... up to an hour."""
    return min(FIRST_RETRY * 2 ** min(attempts - 1, 20), LONGEST_WAIT)


def drain(webhook_id: int, *, now: datetime | None = None) -> Drained:
    """Send the webhook's waiting messages in order until one fails or none is left.
    ``now`` stands for the present when deciding what is due (the tests pass an hour on)."""
    sent = 0
    while sent < AT_A_TIME:
        with transaction.atomic():
            if not _locked(webhook_id):
                return Drained(sent, busy=True)
            message = (
                OutboxMessage.objects.select_related("webhook")
                .filter(
                    webhook_id=webhook_id,
                    webhook__active=True,
                    webhook__stopped_at__isnull=True,
                    sent_at__isnull=True,
                )
                .order_by("seq")
                .first()
            )
            if message is None:  # nothing waits, or the webhook is stopped or gone
                return Drained(sent)
            hook = message.webhook
            moment = now or timezone.now()
            if message.next_attempt_at > moment:
                return Drained(sent, message.next_attempt_at)
            status, error = send(hook, message)
            message.attempts += 1
            message.last_status = status
            message.last_error = error[:300]
            if status is not None and 200 <= status < 300:
                message.sent_at = timezone.now()
                message.save(update_fields=["attempts", "last_status", "last_error", "sent_at"])
                sent += 1
                continue
            message.next_attempt_at = moment + retry_after(message.attempts)
            message.save(update_fields=["attempts", "last_status", "last_error", "next_attempt_at"])
            if moment - message.created_at >= GIVE_UP_AFTER:
                hook.stopped_at = moment
                hook.save(update_fields=["stopped_at"])
                return Drained(sent)
            return Drained(sent, message.next_attempt_at)
    return Drained(sent, now or timezone.now())


def due(now: datetime | None = None) -> list[int]:
    """The webhooks with a message whose try is due."""
    return sorted(
        set(
            OutboxMessage.objects.filter(
                sent_at__isnull=True,
                next_attempt_at__lte=now or timezone.now(),
                webhook__active=True,
                webhook__stopped_at__isnull=True,
            ).values_list("webhook_id", flat=True)
        )
    )


def _locked(webhook_id: int) -> bool:
    """Take the webhook's sending lock for this transaction, if nobody holds it. SQLite has a
    single writer: its transactions take turns anyway."""
    if connection.vendor != "postgresql":
        return True
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_xact_lock(%s, %s)", [_LOCKS, webhook_id])
        return bool(cursor.fetchone()[0])


# -- one try --------------------------------------------------------------------------------------


def send(webhook: Webhook, message: OutboxMessage) -> tuple[int | None, str]:
    """POST ``message`` to its webhook: the receiver's status, or None and why there was none."""
    payload = bodies.body(webhook, message)
    headers = bodies.signed_headers(webhook, message, payload, timezone.now())
    return post(webhook.url, payload, headers)


def post(url: str, payload: bytes, headers: dict[str, str]) -> tuple[int | None, str]:
    """One POST, to an address checked public now, without following a redirect."""
    parts = urlsplit(url)
    secure = parts.scheme == "https"
    host, port = parts.hostname or "", parts.port or (443 if secure else 80)
    try:
        address = public_addresses(host, port)[0]
    except ServiceError as refusal:
        return None, str(refusal)
    kind = _PinnedHTTPS if secure else _PinnedHTTP
    conn = kind(host, port, address=address, timeout=settings.HADAL_WEBHOOKS_TIMEOUT)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        conn.request("POST", target, body=payload, headers=headers)
        response = conn.getresponse()
        response.read(65536)
        status = response.status
        return status, "" if 200 <= status < 300 else f"the receiver answered {status}"
    except (OSError, http.client.HTTPException) as exc:
        return None, f"no answer: {exc.__class__.__name__} {exc}".strip()
    finally:
        conn.close()


class _PinnedHTTP(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float):
        super().__init__(host, port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedHTTPS(http.client.HTTPSConnection):
    def __init__(self, host: str, port: int, *, address: str, timeout: float):
        self.tls = ssl.create_default_context()
        super().__init__(host, port, timeout=timeout, context=self.tls)
        self.address = address

    def connect(self) -> None:
        raw = socket.create_connection((self.address, self.port), self.timeout)
        # The certificate is checked against the host name, not the address connected to.
        self.sock = self.tls.wrap_socket(raw, server_hostname=self.host)
