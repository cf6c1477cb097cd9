"""What an API token may do: its scopes, what each API operation needs, and the check.

Every API view says, per method, the scope a token needs to call it, in one attribute::

    class GameResignApi(APIView):
        scopes = {"POST": PLAY}

:class:`HasScope` (in every API view's permissions: REST_FRAMEWORK's defaults, and the views
that name their own permissions name it first) refuses a token without that scope with a 403
``{"error": ..., "scope": "play"}`` before the view runs, so a refused request changes nothing.
A request signed in by the session (the pages' scripts) has every scope, but for a bot
account's (accounts.bots), which lacks play: a bot account plays through the API with a
token, never from the site's pages. tests/api/test_scopes.py
walks every URL under /api/ and fails on an operation that declares nothing, and the OpenAPI
schema states each operation's scope (config.schema).

Two operations serve two kinds of thing: ``POST /api/games/`` makes a game to play or a table
log, and ``POST /api/games/{id}/actions/`` is a move or a table log's entry. They declare an
:class:`Either`: a token needs one of its two scopes to be let in, and the view asks for the
one the request turns out to need (:func:`require`) before it writes anything.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rest_framework.permissions import BasePermission

from accounts.bots import is_bot_account
from core.errors import ServiceError

READ, PLAY, RECORD, ORGANISE = "read", "play", "record", "organise"
SCOPES = (READ, PLAY, RECORD, ORGANISE)
DESCRIPTIONS = {
    READ: "see games, their logs and streams, players, ratings, leagues, tournaments and your "
    "own data; keep your inbox (mark notices read, choose how they reach you)",
    PLAY: "play your games: create, join, accept or decline a seat, move, resign, rematch, "
    "call off",
    RECORD: "record games played on a table: club records (record, confirm, dispute, "
    "correct), table logs (start, enter, undo) and a tournament table's result (report, "
    "confirm)",
    ORGANISE: "run leagues and tournaments and take part in them: create and change them, "
    "invite (links too), join, leave or hand over a club, answer invitations and requests, "
    "seasons, organisers, pair rounds, enter and drop players, register, check in, override a "
    "table's result",
}
# Declared instead of a scope: the operation needs a token with every scope (or the session),
# so that no token can make itself a token of more power; or it needs none (signing in).
EVERY = "every"
NONE = "none"


@dataclass(frozen=True)
class Either:
    """A token with either scope may ask; the view then requires the one the request needs:
    ``usual``, or ``otherwise`` ``when`` the request is of that kind."""

    usual: str
    otherwise: str
    when: str

    @property
    def names(self) -> tuple[str, str]:
        return (self.usual, self.otherwise)


PLAY_OR_TABLE_LOG = Either(PLAY, RECORD, "a table log")

Declared = str | Either


class MissingScope(ServiceError):
    """A token asked for something outside its scopes (HTTP 403); ``scope`` names the one it
    lacks."""

    status = 403

    def __init__(self, scope: str, message: str | None = None):
        super().__init__(message or f'this token does not have the "{scope}" scope')
        self.scope = scope


def declared(view: Any, method: str) -> Declared | None:
    """The scope ``view`` (a class or an instance) declares for ``method``: HEAD is GET's, and
    OPTIONS (what DRF answers about the view) a read."""
    method = method.upper()
    scopes = getattr(view, "scopes", None) or {}
    if method == "HEAD":
        method = "GET"
    if method == "OPTIONS" and method not in scopes:
        return READ
    return scopes.get(method)


def granted(auth: Any) -> frozenset[str] | None:
    """The scopes of a request's ``auth``: a token's, or None for the session (every scope)."""
    return getattr(auth, "scopes", None)


BOT_PLAYS_BY_API = (
    "this is a bot account: it plays through the API with a token, not from the site's pages"
)


def require(request, scope: str) -> None:
    """MissingScope unless the request's token has ``scope`` (the session has every one, but
    for a bot account's, which may not play)."""
    held = granted(request.auth)
    if held is None:
        if scope == PLAY and is_bot_account(request.user):
            raise MissingScope(PLAY, BOT_PLAYS_BY_API)
        return
    if scope == EVERY:
        missing = [s for s in SCOPES if s not in held]
        if missing:
            raise MissingScope(
                missing[0],
                "managing tokens and the account needs the session or a token with every "
                f'scope; this token does not have the "{missing[0]}" scope',
            )
    elif scope != NONE and scope not in held:
        raise MissingScope(scope)


class HasScope(BasePermission):
    """The view's declared scope, for the request's method, held by its token; an operation
    that declares none is refused to every token (the session and anonymous readers pass, and
    are judged by the view's other permissions)."""

    def has_permission(self, request, view) -> bool:
        held = granted(request.auth)
        need = declared(view, request.method)
        if held is None:
            if need == PLAY:  # a bot account's session may not (require says so)
                require(request, PLAY)
            return True
        if need is None:
            raise MissingScope(EVERY, f"{request.method} here is not open to tokens")
        if isinstance(need, Either):
            if not held.intersection(need.names):
                raise MissingScope(need.usual)
            return True
        require(request, need)
        return True
