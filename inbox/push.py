"""Web Push: the devices a member allowed to be told on (inbox.models.PushDevice), and sending
a notice to them (RFC 8030, the body encrypted to the device's keys as RFC 8291 says, signed
with the service's VAPID key, RFC 8292), by pywebpush.

A push service that answers 404 or 410 has forgotten the device (the member unsubscribed, the
browser dropped it): the device is deleted. Any other failure is counted, and the device is
deleted after ``GIVE_UP`` in a row; a success counts it anew."""

from __future__ import annotations

import base64
import json
import logging
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import urlsplit

import requests
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from django.core import checks
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import F
from django.db.models.functions import Coalesce
from django.utils import timezone
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from core.errors import Refused, UnknownName
from inbox.models import Notice, PushDevice

log = logging.getLogger(__name__)

# A day: a turn told a day late is no longer news (the push service drops it unsent after).
TTL_SECONDS = 24 * 3600
TIMEOUT_SECONDS = 10.0
GIVE_UP = 5  # failures in a row before a device is deleted
DEVICES_PER_MEMBER = 20  # a 21st replaces the one longest unused
GONE = (404, 410)

# What the API's schema states of a subscription (inbox.api), and this module checks again:
# an https address on a host name, and the browser's keys in unpadded (or padded) URL-safe
# base64: a 65-byte uncompressed P-256 point (0x04 first) and a 16-byte secret.
ENDPOINT_LENGTH = 1000
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
ENDPOINT_PATTERN = (
    rf"^https://(?:{_LABEL}\.)+[A-Za-z][A-Za-z0-9-]{{0,62}}(?::[0-9]{{1,5}})?(?:/[!-~]*)?$"
)
P256DH_PATTERN = r"^B[A-P][A-Za-z0-9_-]{85}=?$"
AUTH_PATTERN = r"^[A-Za-z0-9_-]{22}(?:==)?$"
LOOPBACK_PATTERN = r"^http://(?:127\.0\.0\.1|localhost|\[::1\])(?::[0-9]{1,5})?(?:/[!-~]*)?$"


# -- the service's key pair ----------------------------------------------------------------------


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def vapid_key_pair() -> tuple[str, str]:
    """A new VAPID key pair: (public, private). The public key is the uncompressed P-256 point
    a browser takes as ``applicationServerKey``; the private key its 32-byte secret number;
    both URL-safe base64 without padding."""
    key = ec.generate_private_key(ec.SECP256R1())
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return b64url(public), b64url(key.private_numbers().private_value.to_bytes(32, "big"))


def public_key() -> str | None:
    """The key a browser subscribes with, or None when this server pushes nothing."""
    if not settings.HADAL_VAPID_PRIVATE_KEY:
        return None
    return settings.HADAL_VAPID_PUBLIC_KEY or _signer(settings.HADAL_VAPID_PRIVATE_KEY)[1]


@lru_cache(maxsize=2)
def _signer(private_key: str) -> tuple[Vapid, str]:
    vapid = Vapid.from_string(private_key=private_key)
    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return vapid, b64url(raw)


def check_settings(**kwargs) -> list[checks.CheckMessage]:
    """A system check (``manage.py check``, every start): the VAPID keys are a pair, so that a
    mistyped key is found when the service starts, not at its first push."""
    private_key, public = settings.HADAL_VAPID_PRIVATE_KEY, settings.HADAL_VAPID_PUBLIC_KEY
    if not private_key:
        return []
    try:
        derived = _signer(private_key)[1]
    except Exception:  # py_vapid raises whatever its decoding does
        return [
            checks.Error(
                "HADAL_VAPID_PRIVATE_KEY is not a VAPID private key",
                hint="make a pair with manage.py vapid_keys",
                id="inbox.E001",
            )
        ]
    if public and public != derived:
        return [
            checks.Error(
                "HADAL_VAPID_PUBLIC_KEY is not the public half of HADAL_VAPID_PRIVATE_KEY",
                hint=f"its public half is {derived}",
                id="inbox.E002",
            )
        ]
    return []


def subject() -> str:
    """Who a push service writes to about our pushes (VAPID's ``sub``)."""
    return settings.HADAL_VAPID_SUBJECT or settings.HADAL_SITE_URL


# -- devices ---------------------------------------------------------------------------------------


def check_endpoint(endpoint: str) -> None:
    """Refused unless ``endpoint`` is a push service's address: https on a host name (the
    schema's pattern), with a port a port may be; plain http to this machine only where
    HADAL_PUSH_ALLOW_LOOPBACK lets a test's own push service in."""
    loopback = settings.HADAL_PUSH_ALLOW_LOOPBACK and re.match(LOOPBACK_PATTERN, endpoint)
    if not loopback and not re.match(ENDPOINT_PATTERN, endpoint):
        raise Refused("endpoint: a push service's https:// address on a host name")
    try:
        port = urlsplit(endpoint).port
    except ValueError:  # beyond 65535
        port = 0
    if port is not None and not 0 < port < 65536:
        raise Refused("endpoint: its port is not a port (1 to 65535)")


def check_keys(p256dh: str, auth: str) -> None:
    """Refused unless ``p256dh`` is a point of P-256 and ``auth`` 16 bytes: without both, no
    push could be encrypted to the device."""
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(p256dh))
    except ValueError:
        raise Refused("keys.p256dh: not a point on the P-256 curve") from None
    if len(unb64url(auth)) != 16:
        raise Refused("keys.auth: 16 bytes in URL-safe base64")


def push_device_register(
    *, user, endpoint: str, p256dh: str, auth: str, label: str = ""
) -> tuple[PushDevice, bool]:
    """Allow pushes to the browser whose subscription this is. The same endpoint again (the
    browser renewed its keys, or someone else signed in on it) updates the one device, which
    becomes ``user``'s. Returns the device and whether it is new."""
    check_endpoint(endpoint)
    check_keys(p256dh, auth)
    fields = {"user": user, "p256dh": p256dh, "auth": auth, "failures": 0}
    if label:  # else the name it had
        fields["label"] = label
    before = PushDevice.objects.filter(endpoint=endpoint).values_list("user_id", flat=True)
    owner = before.first()
    for attempt in (1, 2):
        try:
            with transaction.atomic():
                device, created = PushDevice.objects.update_or_create(
                    endpoint=endpoint, defaults=fields
                )
                _keep_the_newest(user)
            break
        except IntegrityError:  # the same endpoint registered at the same moment
            if attempt == 2:
                raise
    for user_id in {user.pk, owner}:
        if user_id is not None:
            _forget_devices(user_id)
    return device, created


def _keep_the_newest(user) -> None:
    """The member's devices last used (told, or else added) most recently, so many."""
    used = Coalesce("last_sent_at", "created_at")
    keep = (
        PushDevice.objects.filter(user=user)
        .order_by(used.desc(), "-pk")
        .values_list("pk", flat=True)[:DEVICES_PER_MEMBER]
    )
    PushDevice.objects.filter(user=user).exclude(pk__in=list(keep)).delete()


def push_device_remove(*, user, device_id: int) -> None:
    """Stop pushing to one of ``user``'s devices; someone else's, or none, is a 404."""
    removed, _ = PushDevice.objects.filter(pk=device_id, user=user).delete()
    if not removed:
        raise UnknownName(f"you have no device {device_id}")
    _forget_devices(user.pk)


def devices_of(user) -> list[PushDevice]:
    return list(PushDevice.objects.filter(user=user).order_by("-created_at", "-pk"))


# Whether a member has a device at all, kept in the shared cache (Redis in production) and
# forgotten whenever their devices change, so that a notice for the many members without one
# is not worth a task (inbox.delivery.worth_a_task). Measured on the 2-core CI machine: a
# Redis read 0.24 ms, the query it spares 0.39 ms, queueing the task instead 0.50 ms (and
# then the worker's reads of the notice and the choices).
HAS_DEVICES_SECONDS = 3600


def _has_devices_key(user_id: int) -> str:
    return f"inbox:push:has-devices:{user_id}"


def has_devices(user_id: int) -> bool:
    known = cache.get(_has_devices_key(user_id))
    if known is None:
        known = PushDevice.objects.filter(user_id=user_id).exists()
        cache.set(_has_devices_key(user_id), known, HAS_DEVICES_SECONDS)
    return bool(known)


def _forget_devices(user_id: int) -> None:
    cache.delete(_has_devices_key(user_id))


# -- sending ---------------------------------------------------------------------------------------


@dataclass
class Sent:
    """What became of a push to a member's devices."""

    sent: int = 0
    removed: int = 0
    failed: int = 0


def payload(notice: Notice) -> dict[str, Any]:
    """What the service worker (static/sw.js) shows: following it opens the notice, which
    reads it; a newer notice of the same matter (``tag``) replaces an older one."""
    return {
        "title": "Hadal",
        "body": notice.text,
        "url": f"/inbox/{notice.pk}/",
        "tag": notice.key or f"notice-{notice.pk}",
    }


TEST_MESSAGE = {
    "title": "Hadal",
    "body": "This device will be told of your notices.",
    "url": "/inbox/",
    "tag": "hadal-test",
}


def push_notice(notice: Notice) -> Sent:
    """Push ``notice`` to each of its member's devices."""
    return push_to(notice.user_id, payload(notice))


def push_to(user_id: int, message: dict[str, Any]) -> Sent:
    """Push ``message`` (JSON) to each device of ``user_id``, as above."""
    result = Sent()
    private_key = settings.HADAL_VAPID_PRIVATE_KEY
    if not private_key:
        return result
    vapid, _ = _signer(private_key)
    data = json.dumps(message, separators=(",", ":"))
    with requests.Session() as session:
        for device in PushDevice.objects.filter(user_id=user_id).order_by("pk"):
            status = _send(session, vapid, device, data)
            if status is None:
                result.sent += 1
                PushDevice.objects.filter(pk=device.pk).update(
                    failures=0, last_sent_at=timezone.now()
                )
            elif status in GONE:
                result.removed += 1
                device.delete()
            else:
                result.failed += 1
                PushDevice.objects.filter(pk=device.pk).update(failures=F("failures") + 1)
                PushDevice.objects.filter(pk=device.pk, failures__gte=GIVE_UP).delete()
    if result.removed or result.failed:
        _forget_devices(user_id)
    return result


def _send(session: requests.Session, vapid: Vapid, device: PushDevice, data: str) -> int | None:
    """None once the push service has taken it; else its status (0 when it never answered)."""
    try:
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=data,
            vapid_private_key=vapid,
            # A fresh dict each time: webpush writes the endpoint's origin (aud) into it.
            vapid_claims={"sub": subject()},
            ttl=TTL_SECONDS,
            timeout=TIMEOUT_SECONDS,
            requests_session=session,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        log.info("push to device %s: %s", device.pk, status or exc.message)
        return status
    except (requests.RequestException, ValueError) as exc:
        log.info("push to device %s failed: %r", device.pk, exc)
        return 0
    return None
