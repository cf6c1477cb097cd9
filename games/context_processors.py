"""What every page's nav shows: how many invitations wait for the signed-in person."""

from django.utils.functional import SimpleLazyObject


def invitations(request) -> dict:
    """Counted only if the page shows it (a lazy value): one query, for people signed in."""
    from games.lobby import invitations_for

    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {"invitation_count": 0}
    return {"invitation_count": SimpleLazyObject(lambda: invitations_for(user).count())}
