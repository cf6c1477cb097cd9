"""Away from the board: a member's vacations, within a yearly allowance of days.

A vacation is scheduled (a start and an end), taken now (``"I am away"``, until the member
says they are back), or taken for them where their clock would run out in a correspondence
game and they have opted in (``Profile.away_auto``: one day). While it lasts, the clocks of
their correspondence games stop; that is games' doing, told by :mod:`accounts.signals`.

Counting: each vacation counts its whole or part days (a day and an hour is two) against
the allowance of the calendar year it starts in, ``HADAL_VACATION_DAYS_PER_YEAR``; one taken
now counts the days it has lasted so far, and ends by itself once it has used every day
left. Two vacations of a member never overlap. Each refusal says why and stores nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import Profile, Vacation
from accounts.signals import away_ended, away_started
from core.errors import Conflict, InvalidInput, Refused, UnknownName

DAY = timedelta(days=1)
SKEW = timedelta(minutes=1)  # a start this far in the past is "now" (a slow request, a clock)
State = Vacation.State
OPEN = (State.SCHEDULED, State.AWAY)


# -- reading --------------------------------------------------------------------------------------


def allowance() -> int:
    return settings.HADAL_VACATION_DAYS_PER_YEAR


def days_between(starts_at: datetime, ends_at: datetime) -> int:
    """Whole or part days from ``starts_at`` to ``ends_at``: at least one."""
    return max(1, math.ceil((ends_at - starts_at) / DAY))


def days_counted(vacation: Vacation, now: datetime) -> int:
    """The days ``vacation`` counts: all it is scheduled for, or, taken now, so far."""
    ends_at = vacation.ends_at or max(now, vacation.starts_at)
    return days_between(vacation.starts_at, ends_at)


def year_of(moment: datetime) -> int:
    return timezone.localtime(moment).year


def days_used(user, year: int, *, now: datetime, excluding: int | None = None) -> int:
    """The days ``user``'s vacations starting in ``year`` count (one of them left out)."""
    vacations = Vacation.objects.filter(user=user, starts_at__year=year)
    if excluding is not None:
        vacations = vacations.exclude(pk=excluding)
    return sum(days_counted(v, now) for v in vacations)


def days_left(user, *, now: datetime | None = None, year: int | None = None) -> int:
    now = now or timezone.now()
    return max(0, allowance() - days_used(user, year or year_of(now), now=now))


def vacations_of(user) -> QuerySet[Vacation]:
    """``user``'s vacations to come and the one under way, soonest first."""
    return Vacation.objects.filter(user=user, state__in=OPEN).order_by("starts_at")


def current(user) -> Vacation | None:
    return Vacation.objects.filter(user=user, state=State.AWAY).first()


def away_until(user_ids) -> dict[int, datetime | None]:
    """For each of ``user_ids`` away now: until when (None: until they say they are back)."""
    away = Vacation.objects.filter(user_id__in=list(user_ids), state=State.AWAY)
    return {v.user_id: v.ends_at for v in away}


def members_away() -> list[int]:
    """The ids of the members away now."""
    return list(Vacation.objects.filter(state=State.AWAY).values_list("user_id", flat=True))


def auto_on(user) -> bool:
    return Profile.objects.filter(user=user, away_auto=True).exists()


@dataclass(frozen=True)
class Summary:
    """What the settings page and the API show of a member's days away."""

    allowance: int
    days_left: int
    year: int
    away: Vacation | None
    vacations: list[Vacation]
    auto: bool


def summary_of(user, *, now: datetime | None = None) -> Summary:
    now = now or timezone.now()
    listed = list(vacations_of(user))
    return Summary(
        allowance=allowance(),
        days_left=days_left(user, now=now),
        year=year_of(now),
        away=next((v for v in listed if v.state == State.AWAY), None),
        vacations=listed,
        auto=auto_on(user),
    )


# -- changing -------------------------------------------------------------------------------------


@transaction.atomic
def vacation_schedule(
    *, user, starts_at: datetime, ends_at: datetime, now: datetime | None = None
) -> Vacation:
    """A vacation from ``starts_at`` to ``ends_at``. 422 for an end not after the start, a
    start in the past, one that overlaps another or one that needs more days than are left in
    its year. A start within a minute of now begins it at once."""
    now = now or timezone.now()
    if not isinstance(starts_at, datetime) or not isinstance(ends_at, datetime):
        raise InvalidInput("a vacation needs a start and an end, each a date and time")
    if ends_at <= starts_at:
        raise Refused("a vacation must end after it starts")
    if starts_at < now - SKEW:
        raise Refused(
            'a vacation cannot start in the past: to be away from now on, use "I am away now"'
        )
    _lock(user)
    starts_at = max(starts_at, now)
    _refuse_overlap(user, starts_at, ends_at)
    days = days_between(starts_at, ends_at)
    year = year_of(starts_at)
    left = max(0, allowance() - days_used(user, year, now=now))
    if days > left:
        raise Refused(
            f"that vacation is {_days(days)} away, and you have {_days(left)} left in {year}"
        )
    vacation = Vacation.objects.create(user=user, starts_at=starts_at, ends_at=ends_at)
    if starts_at <= now:
        _begin(vacation)
    return vacation


@transaction.atomic
def vacation_away_now(
    *, user, auto: bool = False, until: datetime | None = None, now: datetime | None = None
) -> Vacation:
    """``user`` is away from now on: until they say they are back, or (``auto``, a day taken
    for them instead of a timeout) for a day. 422 if they are away already or have no day
    left this year."""
    now = now or timezone.now()
    _lock(user)
    if current(user) is not None:
        raise Refused("you are away already")
    if days_left(user, now=now) < 1:
        raise Refused(f"you have no days away left in {year_of(now)}")
    ends_at = now + DAY if auto else None
    coming = (
        Vacation.objects.filter(user=user, state=State.SCHEDULED, starts_at__gt=now)
        .order_by("starts_at")
        .first()
    )
    if coming is not None and (ends_at is None or coming.starts_at < ends_at):
        if not auto:
            raise Refused(
                f"you have a vacation starting {when(coming.starts_at)}: cancel it first, or"
                " schedule this one with an end"
            )
        ends_at = coming.starts_at
    vacation = Vacation.objects.create(user=user, starts_at=now, ends_at=ends_at, auto=auto)
    _begin(vacation)
    return vacation


@transaction.atomic
def vacation_back(*, user, now: datetime | None = None) -> Vacation:
    """``user`` is back: the vacation under way ends now. 422 if they are not away."""
    now = now or timezone.now()
    _lock(user)
    vacation = current(user)
    if vacation is None:
        raise Refused("you are not away")
    _end(vacation, at=now)
    return vacation


@transaction.atomic
def vacation_cancel(*, user, vacation_id: int) -> None:
    """Call off a vacation to come. 404 for none of theirs; 409 once it has begun."""
    _lock(user)
    vacation = Vacation.objects.filter(user=user, pk=vacation_id, state__in=OPEN).first()
    if vacation is None:
        raise UnknownName("you have no such vacation to come")
    if vacation.state == State.AWAY:
        raise Conflict("that vacation has begun: say you are back instead")
    vacation.delete()


@transaction.atomic
def away_auto_set(*, user, on: bool) -> None:
    Profile.objects.update_or_create(user=user, defaults={"away_auto": on})


def vacations_sweep(*, now: datetime | None = None) -> int:
    """Begin the vacations whose start has come and end those whose end has (a vacation
    taken now, once it has used every day left in its year); how many changed. Run with the
    sweep of the clocks (games.play.sweeper), each vacation in its own transaction."""
    now = now or timezone.now()
    changed = 0
    due = Vacation.objects.filter(state=State.SCHEDULED, starts_at__lte=now)
    for pk in due.values_list("pk", flat=True):
        changed += _sweep_one(pk, now, begin=True)
    ending = Vacation.objects.filter(state=State.AWAY).filter(
        Q(ends_at__lte=now) | Q(ends_at__isnull=True)
    )
    for pk in ending.values_list("pk", flat=True):
        changed += _sweep_one(pk, now, begin=False)
    return changed


@transaction.atomic
def _sweep_one(pk: int, now: datetime, *, begin: bool) -> int:
    vacation = Vacation.objects.select_for_update().filter(pk=pk).first()
    if vacation is None:
        return 0
    if begin:
        if vacation.state != State.SCHEDULED or vacation.starts_at > now:
            return 0
        if vacation.ends_at is not None and vacation.ends_at <= now:
            # Its whole time passed unswept (the service was down): nothing left to stop.
            vacation.state = State.OVER
            vacation.save(update_fields=["state"])
            return 1
        _begin(vacation)
        return 1
    if vacation.state != State.AWAY:
        return 0
    if vacation.ends_at is not None:
        if vacation.ends_at > now:
            return 0
        _end(vacation, at=vacation.ends_at)
        return 1
    # Taken now: it ends once it has used every day left in the year it began.
    year = year_of(vacation.starts_at)
    left = allowance() - days_used(vacation.user, year, now=now, excluding=vacation.pk)
    last = vacation.starts_at + max(1, left) * DAY
    if now < last:
        return 0
    _end(vacation, at=last)
    return 1


def _begin(vacation: Vacation) -> None:
    vacation.state = State.AWAY
    vacation.save(update_fields=["state"])
    away_started.send(sender=Vacation, user_id=vacation.user_id, vacation=vacation)


def _end(vacation: Vacation, *, at: datetime) -> None:
    vacation.state = State.OVER
    if vacation.ends_at is None or vacation.ends_at > at:
        vacation.ends_at = at
    vacation.save(update_fields=["state", "ends_at"])
    away_ended.send(sender=Vacation, user_id=vacation.user_id, vacation=vacation)


def _lock(user) -> None:
    """One change of a member's vacations at a time: two tabs cannot book the same days."""
    get_user_model().objects.select_for_update().filter(pk=user.pk).first()


def _refuse_overlap(user, starts_at: datetime, ends_at: datetime) -> None:
    clash = (
        Vacation.objects.filter(user=user, state__in=OPEN, starts_at__lt=ends_at)
        .filter(Q(ends_at__isnull=True) | Q(ends_at__gt=starts_at))
        .first()
    )
    if clash is None:
        return
    if clash.ends_at is None:
        raise Refused("you are away now, until you say you are back: that vacation overlaps it")
    raise Refused(
        f"that vacation overlaps your vacation from {when(clash.starts_at)}"
        f" to {when(clash.ends_at)}"
    )


def _days(n: int) -> str:
    return f"{n} day" if n == 1 else f"{n} days"


def when(moment: datetime) -> str:
    """A moment as people say it: 12 December, 14:00."""
    local = timezone.localtime(moment)
    return f"{local.day} {local:%B}, {local:%H:%M}"
