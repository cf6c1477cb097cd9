"""A member leaving the service for good (their account erased): what they leave behind in the
games still running is settled first, each by an event, as a player who stops would settle it.

- a seat they had not yet taken (an invitation) is declined, which calls that game off;
- a seat they hold in a game being played is resigned: the others play on, or win by forfeit;
- a seat at a table log they have agreed to stays as it is (the table played on; its
  scorekeeper finishes the log), and one they have not agreed to is declined (never rated);
- a table log they keep cannot be left that way (nobody else may enter its moves): they are
  refused until it is finished or called off.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser

from games.models import Game, GameMode, GameStatus, Seat
from games.play import seating, services


def why_member_cannot_leave(user: AbstractUser) -> list[str]:
    """What keeps ``user``'s games from being left, in words; empty when nothing does."""
    kept = Game.objects.filter(scorekeeper=user, status=GameStatus.ACTIVE, mode=GameMode.LOG)
    return [
        f"you keep the table log of game {pk}, still being played: finish it or call it off"
        for pk in kept.order_by("pk").values_list("pk", flat=True)
    ]


def member_leaves(user: AbstractUser) -> list[int]:
    """Decline every seat ``user`` was invited to and resign every seat they hold in a game
    still being played; returns the games left."""
    left = []
    seats = (
        Seat.objects.filter(user=user, resigned=False, game__status=GameStatus.ACTIVE)
        .exclude(game__mode=GameMode.RECORD)
        .order_by("game_id", "index")
        .values_list("game_id", "index", "accepted", "game__mode")
    )
    for game_id, index, accepted, mode in list(seats):
        if not Game.objects.filter(pk=game_id, status=GameStatus.ACTIVE).exists():
            continue  # called off by a seat declined before
        if not accepted:
            seating.game_decline(game=game_id, seat=index, user=user)
        elif mode == GameMode.PLAY:
            services.game_resign(game=game_id, seat=index, user=user)
        else:
            continue
        left.append(game_id)
    return sorted(set(left))
