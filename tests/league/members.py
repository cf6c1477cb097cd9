"""A member of a league as a club has one: invited by an organiser, and saying yes."""

from __future__ import annotations

from django.contrib.auth import get_user_model

from league.models import League, Membership
from league.services import leagues


def join(league: League, player: str, *, by, role: str = "member") -> Membership:
    leagues.member_invite(league=league, player=player, role=role, by=by)
    user = get_user_model().objects.get(username=player)
    return leagues.invitation_accept(league=league, by=user)
