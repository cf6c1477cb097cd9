"""A member's API tokens: made (the key shown once, only its SHA-256 kept), listed, revoked.

A member may hold several tokens, each with a name, its scopes (accounts.scopes) and an
optional expiry. Signing in with a password through the API (``POST /api/auth/token/``) makes
a token with every scope each time, since a kept hash cannot be handed out again; a member
keeps at most :data:`PASSWORD_TOKENS` of those, and the one used least recently is revoked
when another is made, so a script that signs in at every start does not pile them up.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import F, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import ApiToken
from accounts.scopes import SCOPES
from core import inputs
from core.errors import Conflict, InvalidInput, Refused, UnknownName

KEY_PREFIX = "hdl_"
SHOWN = 12  # the characters of a key kept and shown in lists: "hdl_" and 8 of its own
NAME_LENGTH = 60
PASSWORD_TOKENS = 10  # a member's live tokens made by signing in with a password
LIVE_TOKENS = 100  # a member's tokens not revoked, besides those above
REVOKED_KEPT_DAYS = 30  # a revoked password token's row, then it goes


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode("utf-8")).hexdigest()


def new_key() -> str:
    return KEY_PREFIX + secrets.token_urlsafe(32)


def scopes_parsed(value: Any) -> list[str]:
    """A non-empty list of scope names, each known, in SCOPES' order."""
    if not isinstance(value, list) or not value:
        raise InvalidInput(f"scopes must be a non-empty list of: {', '.join(SCOPES)}")
    unknown = [s for s in value if s not in SCOPES]
    if unknown:
        raise InvalidInput(f"unknown scope {unknown[0]!r}; the scopes are {', '.join(SCOPES)}")
    return [s for s in SCOPES if s in value]


def expiry_parsed(value: Any, now: datetime | None = None) -> datetime | None:
    """None (never), or a time in the future (a datetime, or an ISO 8601 date-time; without a
    zone, UTC)."""
    if value is None:
        return None
    if isinstance(value, datetime):
        value = value.isoformat()
    if not isinstance(value, str):
        raise InvalidInput("expires must be an ISO 8601 date-time, or null for never")
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
    except ValueError:
        raise InvalidInput(f"expires: {value!r} is not an ISO 8601 date-time") from None
    if timezone.is_naive(when):
        when = timezone.make_aware(when, UTC)
    if when <= (now or timezone.now()):
        raise Refused("expires must be in the future")
    return when


@transaction.atomic
def token_create(
    *,
    user,
    name: Any,
    scopes: Any,
    expires: Any = None,
    from_password: bool = False,
) -> tuple[ApiToken, str]:
    """A new token of ``user``'s and its key, which is never available again."""
    name = inputs.text(name, "name", NAME_LENGTH)
    chosen = scopes_parsed(scopes)
    expires_at = expiry_parsed(expires)
    # Signing in with a password is bounded by PASSWORD_TOKENS instead, and never refused.
    live = ApiToken.objects.filter(user=user, revoked_at__isnull=True, from_password=False)
    if not from_password and live.count() >= LIVE_TOKENS:
        raise Conflict(f"you hold {LIVE_TOKENS} tokens, as many as a member may: revoke one first")
    key = new_key()
    token = ApiToken.objects.create(
        user=user,
        name=name,
        prefix=key[:SHOWN],
        key_hash=key_hash(key),
        from_password=from_password,
        expires_at=expires_at,
        **{f"scope_{scope}": scope in chosen for scope in SCOPES},
    )
    return token, key


@transaction.atomic
def password_token_create(*, user) -> str:
    """A token with every scope for a member who signed in with their password, named so that
    they recognise it in their list; beyond PASSWORD_TOKENS live ones, the least recently used
    is revoked (and revoked ones older than REVOKED_KEPT_DAYS go)."""
    now = timezone.now()
    # One at a time per member, so that two sign-ins at once cannot both keep the tenth.
    type(user).objects.select_for_update().filter(pk=user.pk).first()
    live = (
        ApiToken.objects.filter(user=user, from_password=True, revoked_at__isnull=True)
        .annotate(used=Coalesce("last_used_at", "created_at"))
        .order_by(F("used").desc(), "-pk")
    )
    stale = [t.pk for t in live[PASSWORD_TOKENS - 1 :]]
    if stale:
        ApiToken.objects.filter(pk__in=stale).update(revoked_at=now)
    ApiToken.objects.filter(
        user=user,
        from_password=True,
        revoked_at__lt=now - timedelta(days=REVOKED_KEPT_DAYS),
    ).delete()
    _, key = token_create(
        user=user,
        name=f"password sign-in {now:%Y-%m-%d %H:%M} UTC",
        scopes=list(SCOPES),
        from_password=True,
    )
    return key


def tokens_of(user) -> QuerySet[ApiToken]:
    """The member's tokens not revoked (those that have expired too), newest first."""
    return ApiToken.objects.filter(user=user, revoked_at__isnull=True).order_by(
        "-created_at", "-pk"
    )


@transaction.atomic
def token_revoke(*, user, token_id: int) -> ApiToken:
    """Revoke one of ``user``'s tokens: it is refused from now on, by every process (a move's
    write checks it, and a stream open with it ends at its next check). Someone else's token, or
    one revoked already, is a 404, as if it did not exist."""
    token = (
        ApiToken.objects.select_for_update()
        .filter(pk=token_id, user=user, revoked_at__isnull=True)
        .first()
    )
    if token is None:
        raise UnknownName(f"you have no token {token_id}")
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    return token
