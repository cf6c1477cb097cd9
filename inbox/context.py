"""What every page's nav shows of the signed-in member's inbox: the bell's unread count, the
games where it is their turn and the seats offered to them, all three from one query over
their open notices (inbox.services.counts), made only if the page shows the nav."""

from __future__ import annotations

from inbox import services


class _Counted:
    """Counts when a template first asks (templates call what they are given), then keeps
    the numbers: the admin's pages and others without the nav ask nothing."""

    def __init__(self, user):
        self.user = user
        self.values: dict[str, int] | None = None

    def get(self, name: str) -> int:
        if self.values is None:
            self.values = services.counts(self.user.pk)
        return self.values[name]


def nav(request) -> dict:
    """``notices_unread``, ``games_waiting`` and ``invitation_count`` for the nav."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"notices_unread": 0, "games_waiting": 0, "invitation_count": 0}
    counted = _Counted(user)
    return {
        "notices_unread": lambda: counted.get("unread"),
        "games_waiting": lambda: counted.get("turns"),
        "invitation_count": lambda: counted.get("invitations"),
    }


def push_key(request) -> dict:
    """``push_key``: the key this browser subscribes with (inbox.push.public_key), for a
    signed-in member on a server that pushes; empty otherwise (nothing to offer)."""
    from inbox import push

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"push_key": ""}
    return {"push_key": push.public_key() or ""}
