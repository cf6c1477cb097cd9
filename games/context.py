"""What every page's nav shows about games: how many wait for the signed-in person."""

from __future__ import annotations

from django.db.models import F

from games.models import GameMode, GameStatus, Seat


def games_waiting(user) -> int:
    """Active games in which it is ``user``'s turn: one COUNT over their seats."""
    return Seat.objects.filter(
        user=user,
        bot="",
        resigned=False,
        game__status=GameStatus.ACTIVE,
        game__mode=GameMode.PLAY,
        game__current_player=F("index"),
    ).count()


class _Counted:
    """Counts when a template first asks (templates call what they are given), then keeps
    the number: the admin's pages and others without the nav ask nothing."""

    def __init__(self, user):
        self.user = user
        self.value: int | None = None

    def __call__(self) -> int:
        if self.value is None:
            self.value = games_waiting(self.user)
        return self.value


def turns(request) -> dict:
    """``games_waiting`` for the nav."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"games_waiting": 0}
    return {"games_waiting": _Counted(user)}
