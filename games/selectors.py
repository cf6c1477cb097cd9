"""Reads of games for the views and APIs of every app."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from games import audience
from games.models import Game, Seat

# The reader of a read made on nobody's behalf (a service acting on a game it was handed).
NOBODY = object()


def game_with_seats(pk, seen_by=NOBODY) -> Game:
    """The game with its seats, their users and the users' profiles (is each a bot account,
    accounts.bots), or 404; also 404 if ``seen_by`` (a user, or an anonymous one) may not know
    it exists (games.audience)."""
    game = get_object_or_404(
        Game.objects.prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user__profile"))
        ),
        pk=pk,
    )
    if seen_by is not NOBODY:
        audience.require_visible(game, seen_by)
    return game
