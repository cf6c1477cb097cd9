"""Writing and reading the inbox. The apps above say what happened; this keeps one open notice
per matter (``key``), closes it when the matter is settled, and announces each change once the
transaction commits (inbox.signals), so that the streams, pushes and mails never tell of
something that was rolled back."""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Any

from django.db import connections, router, transaction
from django.db.models import Count, DateTimeField, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.errors import InvalidInput
from inbox import kinds
from inbox.models import Choices, Notice, PushDevice
from inbox.signals import notice_created, notices_changed

log = logging.getLogger(__name__)

TEXT_LENGTH = Notice._meta.get_field("text").max_length or 300
PAGE = 50


def notify(
    user_id: int,
    kind: str,
    text: str,
    url: str,
    *,
    key: str = "",
    data: dict[str, Any] | None = None,
    reach: bool = True,
    db: str | None = None,
) -> Notice | None:
    """A notice for the member ``user_id``. With a ``key`` that already has an open notice,
    that one is brought up to date (its words and link) and nothing new is sent: the matter
    is the same. ``reach=False`` keeps it to the site (no mail, no push). Returns the new
    notice, or None when one was brought up to date."""
    if kind not in kinds.BY_NAME:
        raise ValueError(f"no kind of notice {kind!r}")
    db = db or router.db_for_write(Notice)
    text = text if len(text) <= TEXT_LENGTH else text[: TEXT_LENGTH - 1] + "…"
    fields = {"kind": kind, "text": text, "url": url, "data": data or {}, "reach": reach}
    if key:
        notice = _open_or_update(user_id, key, fields, db)
        if notice is None:
            return None
    else:
        notice = Notice.objects.using(db).create(user_id=user_id, key=key, **fields)
    transaction.on_commit(lambda: _announce_new(notice, db), using=db)
    return notice


# One statement, as a turn passes on most moves: a notice for the key, or the open one brought
# up to date (the conflict target is inbox_one_open_notice_per_key's, word for word, so that
# both databases see it is that index). Whether it was new: created_at is ours only if so.
_UPSERT = """
    INSERT INTO inbox_notice (user_id, kind, text, url, "key", data, reach, created_at)
    VALUES (%s, %s, %s, %s, %s, %s, %s, %s)
    ON CONFLICT (user_id, "key") WHERE ("done_at" IS NULL AND NOT ("key" = ''))
    DO UPDATE SET kind = excluded.kind, text = excluded.text, url = excluded.url,
        data = excluded.data, reach = excluded.reach
    RETURNING id, created_at = %s
"""


def _open_or_update(user_id: int, key: str, fields: dict[str, Any], db: str) -> Notice | None:
    """The new notice, or None when the key's open notice was brought up to date."""
    connection = connections[db]
    now = timezone.now()
    created = Notice._meta.get_field("created_at").get_db_prep_value(now, connection)
    data = Notice._meta.get_field("data").get_db_prep_value(fields["data"], connection)
    params = [user_id, fields["kind"], fields["text"], fields["url"], key, data, fields["reach"]]
    with connection.cursor() as cursor:
        cursor.execute(_UPSERT, [*params, created, created])
        notice_id, new = cursor.fetchone()
    if not new:
        return None
    notice = Notice(id=notice_id, user_id=user_id, key=key, created_at=now, **fields)
    notice._state.adding, notice._state.db = False, db
    return notice


def done(
    key: str,
    *,
    user_ids: Iterable[int] | None = None,
    prefix: bool = False,
    db: str | None = None,
) -> list[int]:
    """Close the open notices of a matter (``key``, or every key starting with it when
    ``prefix``), for everyone or for ``user_ids``: it no longer waits for them. Returns
    whose inboxes changed."""
    db = db or router.db_for_write(Notice)
    rows = Notice.objects.using(db).filter(done_at__isnull=True)
    rows = rows.filter(key__startswith=key) if prefix else rows.filter(key=key)
    if user_ids is None:
        users = sorted(set(rows.values_list("user_id", flat=True)))
        if not users:
            return []
    else:
        users = sorted(set(user_ids))
        rows = rows.filter(user_id__in=users)
    now = timezone.now()
    # One statement: a turn passing closes its notice on every move.
    read = Coalesce("read_at", Value(now, output_field=DateTimeField()))
    if not rows.update(done_at=now, read_at=read):
        return []
    transaction.on_commit(lambda: _announce_counts(users, db), using=db)
    return users


def mark_read(user, ids: Iterable[Any] | None = None) -> int:
    """Mark ``ids`` (or, with None, every notice) of ``user`` read; news is done with it.
    Someone else's ids, or ids of none, change nothing. Returns how many were unread."""
    rows = Notice.objects.filter(user=user, read_at__isnull=True)
    if ids is not None:
        wanted = _ids(ids)
        if not wanted:
            return 0
        rows = rows.filter(pk__in=wanted)
    now = timezone.now()
    with transaction.atomic():
        changed = rows.filter(~Q(kind__in=kinds.WAITING)).update(read_at=now, done_at=now)
        changed += rows.update(read_at=now)
        if changed:
            transaction.on_commit(lambda: _announce_counts([user.pk], "default"))
    return changed


def _ids(ids: Iterable[Any]) -> list[int]:
    wanted = list(ids)
    if len(wanted) > 500:
        raise InvalidInput("ids: at most 500 at a time (or mark everything read)")
    clean = []
    for value in wanted:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value < 2**63:
            raise InvalidInput("ids: give the notices' ids, whole numbers")
        clean.append(value)
    return clean


def counts(user_id: int, db: str = "default") -> dict[str, int]:
    """What the nav shows, in one query over the member's open notices: ``unread`` (the
    bell), ``turns`` (games where it is their turn) and ``invitations`` (seats offered)."""
    return (
        Notice.objects.using(db)
        .filter(user_id=user_id, done_at__isnull=True)
        .aggregate(
            unread=Count("pk", filter=Q(read_at__isnull=True)),
            turns=Count("pk", filter=Q(kind="your_turn")),
            invitations=Count("pk", filter=Q(kind__in=("invitation", "rematch"))),
        )
    )


def notices_of(user, *, unread: bool = False, before: int | None = None, limit: int = PAGE):
    """The member's notices, newest first: all, or the unread; ``before`` an id to page on."""
    rows = Notice.objects.filter(user=user)
    if unread:
        rows = rows.filter(read_at__isnull=True)
    if before is not None:
        rows = rows.filter(pk__lt=before)
    return list(rows.order_by("-id")[:limit])


def waiting(user, limit: int = 20) -> list[Notice]:
    """What waits for the member's doing, oldest first (the home page leads with it)."""
    return list(
        Notice.objects.filter(user=user, done_at__isnull=True, kind__in=kinds.WAITING).order_by(
            "id"
        )[:limit]
    )


def message(notice: Notice) -> dict[str, Any]:
    """A notice as /api/me/stream/ and /api/me/notices/ give it. ``type`` is the shape the
    stream had before the inbox (your_turn, invitation, round_paired, club), kept for the
    clients written against it; every other kind is ``notice``."""
    return {
        "type": _TYPES.get(notice.kind, "notice"),
        **notice.data,
        "id": notice.pk,
        "kind": notice.kind,
        "text": notice.text,
        "url": notice.url,
        "created": notice.created_at.isoformat(),
        "read": notice.read_at is not None,
        "waiting": notice.done_at is None and notice.kind in kinds.WAITING,
    }


_TYPES = {
    "your_turn": "your_turn",
    "invitation": "invitation",
    "rematch": "invitation",
    "round_paired": "round_paired",
    "join_request": "club",
    "club": "club",
}


def _announce_new(notice: Notice, db: str) -> None:
    try:
        notices_changed.send_robust(
            sender=Notice,
            user_id=notice.user_id,
            notice=message(notice),
            counts=lambda: counts(notice.user_id, db),
            db=db,
        )
        for receiver, answer in notice_created.send_robust(sender=Notice, notice=notice):
            if isinstance(answer, Exception):
                log.warning("notice %s: %s failed: %r", notice.pk, receiver, answer)
    except Exception:
        log.exception("could not announce notice %s", notice.pk)


def _announce_counts(user_ids: list[int], db: str) -> None:
    for user_id in user_ids:
        try:
            notices_changed.send_robust(
                sender=Notice,
                user_id=user_id,
                notice=None,
                counts=lambda user_id=user_id: counts(user_id, db),
                db=db,
            )
        except Exception:
            log.exception("could not announce the counts of %s", user_id)


def member_forget(*, user_id: int, old: str, new: str) -> None:
    """An erased member (league.services.erasure): their notices, their choices and the
    devices they allowed go (no push reaches a phone of an erased account), and the notices
    of others name them by ``new`` ("a former member", as the pages do)."""
    Notice.objects.filter(user_id=user_id).delete()
    Choices.objects.filter(user_id=user_id).delete()
    PushDevice.objects.filter(user_id=user_id).delete()
    named = re.compile(rf"(?<![\w-]){re.escape(old)}(?![\w-])")
    changed = []
    for notice in Notice.objects.filter(text__contains=old).only("pk", "text"):
        text = named.sub(new, notice.text)[:TEXT_LENGTH]
        if text != notice.text:
            notice.text = text
            changed.append(notice)
    Notice.objects.bulk_update(changed, ["text"], batch_size=500)
