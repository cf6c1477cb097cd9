"""The daily list: one mail a day, at the hour the member chose in their time zone, carrying
every notice of a kind they want in the daily list (inbox.kinds' defaults, or their
choices) that is still open and was not mailed: the games waiting for their move, the
results waiting for their word, and the rest.

Run by beat every few minutes (inbox.tasks.send_digests). Who may get one is found from the
notices, not the members: those with open notices nobody has mailed, in one query, then
their choices in another; so a run costs the same however many members there are, and a
few statements for each member who gets a list. Two runs at once (two workers, a beat
restarted) never send two lists: each member's day is claimed with one conditional UPDATE
of ``Choices.digest_sent_on`` (their local date), and each notice with its ``mailed_at``,
which the at-once mail (inbox.delivery) claims too, so no notice is ever in two mails.
"""

from __future__ import annotations

import datetime as dt
import logging
from collections import defaultdict
from functools import reduce
from operator import or_
from zoneinfo import ZoneInfo

from allauth.account.models import EmailAddress
from django.core.mail import get_connection
from django.db.models import Q

from inbox import kinds
from inbox.choices import DEFAULT_HOUR, DEFAULT_ZONE
from inbox.delivery import mail_choice
from inbox.mail import digest_message
from inbox.models import Choices, Notice

log = logging.getLogger(__name__)

CHUNK = 500  # members a statement names at most


def _unmailed():
    """The notices a list may carry: open (a waiting one until done, news until read),
    allowed beyond the site, not mailed yet, of a member who may sign in."""
    return Notice.objects.filter(
        done_at__isnull=True, mailed_at__isnull=True, reach=True, user__is_active=True
    )


def _local(now: dt.datetime, zone: str) -> dt.datetime:
    try:
        return now.astimezone(ZoneInfo(zone))
    except (ValueError, KeyError):  # a zone this system no longer knows: the day in UTC
        return now.astimezone(dt.UTC)


def _chunks(items: list, size: int = CHUNK):
    for start in range(0, len(items), size):
        yield items[start : start + size]


def digest_send_due(*, now: dt.datetime) -> int:
    """Send the daily list to every member whose hour has come today in their zone (at
    ``now``) and who has not had today's. Returns how many lists were sent."""
    pending: dict[int, set[str]] = defaultdict(set)
    for user_id, kind in _unmailed().values_list("user_id", "kind").distinct():
        pending[user_id].add(kind)
    if not pending:
        return 0
    chosen: dict[int, Choices] = {}
    for ids in _chunks(list(pending)):
        chosen.update((row.user_id, row) for row in Choices.objects.filter(user_id__in=ids))
    due: dict[int, tuple[dt.date, list[str]]] = {}
    for user_id, found in pending.items():
        row = chosen.get(user_id)
        wanted = sorted(k for k in found if mail_choice(row, k) == kinds.DIGEST)
        local = _local(now, row.timezone if row else DEFAULT_ZONE)
        hour = row.digest_hour if row else DEFAULT_HOUR
        sent_on = row.digest_sent_on if row else None
        if wanted and local.hour >= hour and (sent_on is None or sent_on < local.date()):
            due[user_id] = (local.date(), wanted)
    if not due:
        return 0
    addresses: dict[int, str] = {}
    for ids in _chunks(list(due)):
        addresses.update(
            EmailAddress.objects.filter(user_id__in=ids, primary=True, verified=True).values_list(
                "user_id", "email"
            )
        )
    due = {user_id: value for user_id, value in due.items() if user_id in addresses}
    missing = [user_id for user_id in due if user_id not in chosen]
    if missing:  # a member on the defaults gets a row to claim their day in
        Choices.objects.bulk_create([Choices(user_id=u) for u in missing], ignore_conflicts=True)
    claimed = {
        user_id: wanted for user_id, (day, wanted) in due.items() if _claim_day(user_id, day)
    }
    notices = _claim_notices(claimed)
    if not notices:
        return 0
    members = {n.user_id: n.user for n in notices}
    messages = [
        digest_message(user=members[user_id], address=addresses[user_id], notices=listed)
        for user_id, listed in sorted(_by_member(notices).items())
    ]
    with get_connection() as connection:
        sent = connection.send_messages(messages) or 0
    log.info("daily lists sent: %s of %s", sent, len(messages))
    return len(messages)


def _claim_day(user_id: int, day: dt.date) -> bool:
    """True for exactly one caller a member a day, however many runs ask at once."""
    return bool(
        Choices.objects.filter(user_id=user_id)
        .filter(Q(digest_sent_on__isnull=True) | Q(digest_sent_on__lt=day))
        .update(digest_sent_on=day)
    )


def _claim_notices(claimed: dict[int, list[str]]) -> list[Notice]:
    """Mark the wanted notices of the claimed members mailed, in one UPDATE a chunk, and read
    back those this run marked (``mailed_at`` = this run's moment): a notice another sender
    took first keeps its own moment and is not listed here."""
    stamp = dt.datetime.now(dt.UTC)
    marked: list[Notice] = []
    for ids in _chunks(sorted(claimed)):
        wanted = reduce(or_, (Q(user_id=u, kind__in=claimed[u]) for u in ids))
        if _unmailed().filter(wanted).update(mailed_at=stamp):
            marked += (
                Notice.objects.filter(user_id__in=ids, mailed_at=stamp)
                .select_related("user")
                .order_by("user_id", "id")
            )
    return marked


def _by_member(notices: list[Notice]) -> dict[int, list[Notice]]:
    grouped: dict[int, list[Notice]] = defaultdict(list)
    for notice in notices:
        grouped[notice.user_id].append(notice)
    return grouped
