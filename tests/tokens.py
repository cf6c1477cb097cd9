"""API keys for the tests: a member's new token (accounts.tokens), by default with every
scope, as signing in with a password gives."""

from __future__ import annotations

from accounts.scopes import SCOPES
from accounts.tokens import token_create


def key_for(user, scopes=SCOPES, *, name: str = "tests", expires=None) -> str:
    return token_create(user=user, name=name, scopes=list(scopes), expires=expires)[1]
