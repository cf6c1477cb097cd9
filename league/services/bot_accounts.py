"""A member makes their account a bot's, as lichess lets one: for good, and only while it has
nothing a person's account has earned or joined.

A bot account (accounts.bots) plays through the API with a token, never from the site's pages
(accounts.scopes refuses its session's moves); it is shown as a bot wherever players are; it is
rated as the house bots are, on the same ladders, marked as a bot; and it is kept out of what
is for people: leagues, club records, table logs, the lobby's open seats and tournaments that
are for people only.

Only an account that has played no rated game may become one, so that no rating earned as a
person is carried by a program; nor one in a league, named at a table (a record or a table
log), entered in a tournament still running, or a staff account. There is no way back:
whoever wants a person's account again makes another.
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from accounts.bots import is_bot
from accounts.models import Profile
from core.errors import Conflict
from games.models import GameMode, Seat
from league.models import Entry, LeagueInvitation, Membership, RatingChange, Tournament

User = get_user_model()


def why_not_bot(user: AbstractUser) -> list[str]:
    """Why ``user``'s account may not become a bot's; empty when it may."""
    if is_bot(user):
        return ["this account is a bot's already"]
    reasons = []
    if user.is_staff or user.is_superuser:
        reasons.append("a staff account stays a person's")
    if RatingChange.objects.filter(user=user).exists():
        reasons.append(
            "it has played rated games, and a bot account starts with none: make a new "
            "account for your bot"
        )
    if (
        Membership.objects.filter(user=user).exists()
        or LeagueInvitation.objects.filter(user=user).exists()
    ):
        reasons.append("it is in a league (or invited to one), and leagues are for people")
    if Seat.objects.filter(user=user, game__mode__in=[GameMode.RECORD, GameMode.LOG]).exists():
        reasons.append("a club record or a table log names it, and those are for people")
    running = Entry.objects.filter(user=user).exclude(tournament__status=Tournament.Status.FINISHED)
    if running.exists():
        reasons.append("it is entered in a tournament that is not over")
    return reasons


@transaction.atomic
def bot_account_make(*, user: AbstractUser) -> Profile:
    """Make ``user``'s account a bot's, for good; Conflict (409) with every reason it may not."""
    User.objects.select_for_update().filter(pk=user.pk).first()  # one answer at a time
    reasons = why_not_bot(user)
    if reasons:
        raise Conflict(f"this account cannot become a bot's: {'; '.join(reasons)}")
    profile, _ = Profile.objects.update_or_create(user=user, defaults={"bot_since": timezone.now()})
    user.profile = profile  # what is_bot reads from now on, for this user object too
    return profile
