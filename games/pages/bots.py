"""The pages and a bot account (accounts.bots): it plays through the API with a token, so a
page that would play for it (a new game, a seat taken, answered or given up, a rematch) says
so and does nothing; the API's session refuses its moves as well (accounts.scopes)."""

from __future__ import annotations

import functools

from django.contrib import messages
from django.shortcuts import redirect

from accounts.bots import is_bot_account

PLAYS_BY_API = (
    "This is a bot account: it plays through the API with a token, not from the site's pages."
)


def not_for_bot_accounts(view):
    """``view``, unless a bot account asks: then the message, and back to the game (or the
    games)."""

    @functools.wraps(view)
    def refusing(request, *args, **kwargs):
        if is_bot_account(request.user):
            messages.error(request, PLAYS_BY_API)
            pk = kwargs.get("pk")
            return redirect("game-detail", pk=pk) if pk is not None else redirect("game-list")
        return view(request, *args, **kwargs)

    return refusing
