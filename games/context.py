"""What every page's nav shows about games: how many wait for the signed-in person (their
turn) and how many invitations they have not answered, both from one COUNT over their seats."""

from __future__ import annotations

from django.db.models import Count, F, Q

from games.models import GameMode, GameStatus, Seat

# A seat of the person in an active game played here.
_SEATED = {"bot": "", "game__status": GameStatus.ACTIVE, "game__mode": GameMode.PLAY}
_THEIR_TURN = Q(resigned=False, game__current_player=F("index"))
_INVITED = Q(accepted=False)


def games_waiting(user) -> int:
    """Active games in which it is ``user``'s turn: one COUNT over their seats."""
    return Seat.objects.filter(_THEIR_TURN, user=user, **_SEATED).count()


def nav_counts(user) -> dict[str, int]:
    """The games waiting for ``user`` and their unanswered invitations, in one query."""
    return Seat.objects.filter(user=user, **_SEATED).aggregate(
        waiting=Count("pk", filter=_THEIR_TURN), invited=Count("pk", filter=_INVITED)
    )


class _Counted:
    """Counts when a template first asks (templates call what they are given), then keeps
    the numbers: the admin's pages and others without the nav ask nothing."""

    def __init__(self, user):
        self.user = user
        self.values: dict[str, int] | None = None

    def get(self, name: str) -> int:
        if self.values is None:
            self.values = nav_counts(self.user)
        return self.values[name]


def nav(request) -> dict:
    """``games_waiting`` and ``invitation_count`` for the nav, counted together if shown."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"games_waiting": 0, "invitation_count": 0}
    counted = _Counted(user)
    return {
        "games_waiting": lambda: counted.get("waiting"),
        "invitation_count": lambda: counted.get("invited"),
    }
