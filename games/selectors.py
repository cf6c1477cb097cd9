"""Reads of games for the views and APIs of every app."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from games.models import Game, Seat


def game_with_seats(pk) -> Game:
    """The game with its seats, their users and the users' profiles (is each a bot account,
    accounts.bots), or 404."""
    return get_object_or_404(
        Game.objects.prefetch_related(
            Prefetch("seats", Seat.objects.select_related("user__profile"))
        ),
        pk=pk,
    )
