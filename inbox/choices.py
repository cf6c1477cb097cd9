"""A member's choices of how notices reach them (inbox.models.Choices): read whole, changed
after checking every value, and turned off from an unsubscribe link.

``mail`` and ``push`` keep what the member chose, kind by kind; a kind not named there takes
its default (inbox.kinds), as inbox.delivery reads it. A change names the kinds it sets: the
choices page sets every kind it shows, ``PUT`` the kinds it names (the others go back to
their defaults), ``PATCH`` only the kinds it names.
"""

from __future__ import annotations

from functools import cache
from typing import Any
from zoneinfo import available_timezones

from django.db import transaction

from core.errors import InvalidInput
from inbox import kinds
from inbox.delivery import mail_choice, push_choice
from inbox.models import Choices

HOURS = range(24)
DEFAULT_HOUR = Choices._meta.get_field("digest_hour").default
DEFAULT_ZONE = Choices._meta.get_field("timezone").default


@cache
def zones() -> tuple[str, ...]:
    """The time zones a member may choose: the IANA names this system knows."""
    return tuple(sorted(available_timezones()))


def hour_words(hour: int) -> str:
    return f"{hour:02d}:00"


def choices_of(user) -> Choices | None:
    return Choices.objects.filter(user_id=user.pk).first()


def choices_get(*, user) -> dict[str, Any]:
    """Every kind's choice as it applies now (chosen or default), the hour and the zone."""
    row = choices_of(user)
    return {
        "mail": {name: mail_choice(row, name) for name in kinds.NAMES},
        "push": {name: push_choice(row, name) for name in kinds.NAMES},
        "digest_hour": row.digest_hour if row else DEFAULT_HOUR,
        "timezone": row.timezone if row else DEFAULT_ZONE,
    }


def _mail(value: Any) -> dict[str, str]:
    if not isinstance(value, dict):
        raise InvalidInput('mail: give an object of kinds, such as {"your_turn": "digest"}')
    for name, chosen in value.items():
        if name not in kinds.BY_NAME:
            raise InvalidInput(
                f"mail: no kind of notice {name!r}; the kinds: {', '.join(kinds.NAMES)}"
            )
        if chosen not in kinds.MAIL_CHOICES:
            raise InvalidInput(
                f"mail: {name}: {chosen!r} is not a choice; choose none, now or digest"
            )
    return dict(value)


def _push(value: Any) -> dict[str, bool]:
    if not isinstance(value, dict):
        raise InvalidInput('push: give an object of kinds, such as {"your_turn": true}')
    for name, chosen in value.items():
        if name not in kinds.BY_NAME:
            raise InvalidInput(
                f"push: no kind of notice {name!r}; the kinds: {', '.join(kinds.NAMES)}"
            )
        if not isinstance(chosen, bool):
            raise InvalidInput(f"push: {name}: give true or false")
    return dict(value)


def _hour(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in HOURS:
        raise InvalidInput("digest_hour: give an hour of the day, a whole number from 0 to 23")
    return value


def _zone(value: Any) -> str:
    if not isinstance(value, str) or value not in zones():
        raise InvalidInput(
            f"timezone: {value!r} is not a time zone we know; give one such as Europe/Athens"
        )
    return value


@transaction.atomic
def choices_update(
    *,
    user,
    mail: dict | None = None,
    push: dict | None = None,
    digest_hour: int | None = None,
    timezone: str | None = None,
    replace: bool = False,
) -> Choices:
    """Change the member's choices: the kinds named in ``mail`` and ``push`` (with
    ``replace``, the kinds not named go back to their defaults), and the digest's hour and
    zone when given. Every value is checked before anything is stored: one wrong value and
    nothing changes (InvalidInput)."""
    mail = None if mail is None else _mail(mail)
    push = None if push is None else _push(push)
    digest_hour = None if digest_hour is None else _hour(digest_hour)
    timezone = None if timezone is None else _zone(timezone)
    row, _ = Choices.objects.select_for_update().get_or_create(user_id=user.pk)
    if mail is not None:
        row.mail = mail if replace else {**row.mail, **mail}
    if push is not None:
        row.push = push if replace else {**row.push, **push}
    if digest_hour is not None:
        row.digest_hour = digest_hour
    if timezone is not None:
        row.timezone = timezone
    row.save()
    return row


def stop_words(what: str) -> str:
    """What an unsubscribe link stops, in the member's words."""
    if what == kinds.ALL:
        return "every e-mail about your notices"
    if what == kinds.DIGEST:
        return "the daily list by e-mail"
    return f"e-mails for “{kinds.label(what)}”"


@transaction.atomic
def choices_mail_stop(*, user_id: int, what: str) -> Choices:
    """Turn mail off from an unsubscribe link: one kind, every kind sent in the daily list
    (kinds.DIGEST), or every kind (kinds.ALL)."""
    row, _ = Choices.objects.select_for_update().get_or_create(user_id=user_id)
    if what == kinds.ALL:
        stopped = list(kinds.NAMES)
    elif what == kinds.DIGEST:
        stopped = [name for name in kinds.NAMES if mail_choice(row, name) == kinds.DIGEST]
    elif what in kinds.BY_NAME:
        stopped = [what]
    else:
        raise InvalidInput(f"nothing called {what!r} to stop")
    row.mail = {**row.mail, **dict.fromkeys(stopped, kinds.NONE)}
    row.save(update_fields=["mail"])
    return row
