"""Reads of games for the views and APIs of every app."""

from __future__ import annotations

from django.db.models import Prefetch
from django.shortcuts import get_object_or_404

from games import oceans
from games.models import Game, GameStatus, ScoreSheet, Seat


def game_with_seats(pk) -> Game:
    """The game with its seats and their users, or 404."""
    return get_object_or_404(
        Game.objects.prefetch_related(Prefetch("seats", Seat.objects.select_related("user"))), pk=pk
    )


def oceans_card_statistics() -> list[dict]:
    """Per Deep card of the promo pack: in how many final Oceans records it was played, and
    how often its player won, from the sheets of those records (one query)."""
    sheets = ScoreSheet.objects.filter(
        slug=oceans.SLUG, game__status=GameStatus.FINISHED
    ).values_list("sheet", "game__result")
    return oceans.card_statistics(list(sheets))
