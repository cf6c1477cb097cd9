"""A burst of wrong passwords is refused for a while (HTTP 429), on the sign-in page and at
the token endpoint alike, without letting anyone lock a member out.

Built on DRF's throttling and Django's cache (Redis in production, so every worker counts
together). Unlike DRF's own throttles it counts only failed attempts, so a member who types
their password right is never slowed down, and it counts them twice:

- per client address (the address the request really came from: uvicorn takes it from the
  proxy alone, see config/settings.py): ten wrong passwords a minute from one address, and
  that address waits;
- per account, for the devices that account has never signed in on: ten wrong passwords a
  minute for one account from such devices, and such devices wait for that account. A device
  the member has signed in on before carries a signed cookie that says so (``hadal_device``),
  and is never held up by what others try: the owner signs in from their own phone or laptop
  while someone elsewhere guesses at their name. That cookie is the second proof the
  per-username limit asks for; a member on a new device waits out the burst like anyone else
  (docs/operations.md says the trade-off).

A member signs in by username or by e-mail address: an address counts against the accounts it
may sign in to (:func:`account_names`), so that guesses by address and by username count
together.

The cache being away is no reason to refuse a member: the attempt is then not counted, and a
line is logged.
"""

from __future__ import annotations

import logging

from allauth.account.utils import filter_users_by_email
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.utils.crypto import salted_hmac
from rest_framework.throttling import SimpleRateThrottle

log = logging.getLogger(__name__)

DEVICE_COOKIE = "hadal_device"
_DEVICE_SALT = "hadal.accounts.device"
DEVICE_SECONDS = 365 * 24 * 3600
DEVICE_NAMES = 8  # the accounts one device remembers (a family's tablet at the club)


def _account(username: str) -> str:
    """A username as the device cookie names it: keyed, so the cookie does not say it."""
    return salted_hmac(_DEVICE_SALT, username.strip().lower()).hexdigest()[:20]


def account_names(login: str) -> list[str]:
    """The accounts a sign-in as ``login`` tries, by username lower-cased: a username as it
    is, and for an e-mail address the accounts django-allauth would try (the one that verified
    it, or else those holding it unverified), an account named so included; an address no
    account holds stands for itself. The database is asked only about what looks like an
    address."""
    login = login.strip().lower()
    if "@" not in login:
        return [login[:150]] if login else []
    users = filter_users_by_email(login, prefer_verified=True)
    named = get_user_model().objects.filter(username__iexact=login)
    names = {user.username.lower() for user in users}
    names.update(name.lower() for name in named.values_list("username", flat=True))
    return sorted(names) or [login[:254]]


def _remembered(request) -> list[str]:
    try:
        value = signing.loads(
            request.COOKIES.get(DEVICE_COOKIE, ""), salt=_DEVICE_SALT, max_age=DEVICE_SECONDS
        )
    except signing.BadSignature:
        return []
    names = value.get("accounts") if isinstance(value, dict) else None
    return [n for n in names if isinstance(n, str)] if isinstance(names, list) else []


def remember_device(request, response, username: str) -> None:
    """After a right password: this device has now signed in as ``username``, the account's
    name or the address it signed in with. An address more than one account holds (unverified)
    proves no one account: the device is then remembered for none of them, or anyone could
    hold an address and be remembered for the others."""
    names = account_names(username)
    if len(names) != 1:
        return
    account = _account(names[0])
    accounts = [account, *(n for n in _remembered(request) if n != account)][:DEVICE_NAMES]
    response.set_cookie(
        DEVICE_COOKIE,
        signing.dumps({"accounts": accounts}, salt=_DEVICE_SALT),
        max_age=DEVICE_SECONDS,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
        samesite="Lax",
    )


class FailedSignInThrottle(SimpleRateThrottle):
    scope = "sign_in_failures"

    def __init__(self, username: str = ""):
        super().__init__()
        self.accounts = account_names(username)  # a username, or what an address signs in to
        self.refused: str | None = None  # "address" or "account", once refused

    def _key(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}

    def keys(self, request) -> list[tuple[str, str]]:
        """(what it counts, its cache key): the address, and each account tried unless this
        device has signed in as it before."""
        keys = [("address", self._key(f"addr:{self.get_ident(request)}"))]
        remembered = _remembered(request)
        for account in map(_account, self.accounts):
            if account not in remembered:
                # The digest, not the name: a cache key may hold no spaces or control characters.
                keys.append(("account", self._key(f"user:{account}")))
        return keys

    def allow_request(self, request, view=None) -> bool:
        """Whether another attempt may be made; counting nothing."""
        self.now = self.timer()
        try:
            for what, key in self.keys(request):
                history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
                if len(history) >= self.num_requests:
                    self.history, self.refused = history, what
                    return False
        except Exception:
            log.warning("sign-in throttle: the cache is unavailable; attempts go uncounted")
        return True

    def record_failure(self, request) -> None:
        self.now = self.timer()
        try:
            for _, key in self.keys(request):
                history = [t for t in self.cache.get(key, []) if t > self.now - self.duration]
                self.cache.set(key, [self.now, *history], self.duration)
        except Exception:
            log.warning(
                "sign-in throttle: the cache is unavailable; a wrong password went uncounted"
            )

    def message(self) -> str:
        if self.refused == "account":
            return (
                "too many wrong passwords for this account from devices it has not signed in "
                "on; sign in from a device you have used before, or wait"
            )
        return "too many wrong passwords from your address; wait"
