"""How a new notice goes beyond the site, as the member chose (inbox.models.Choices, else each
kind's default, inbox.kinds): by e-mail at once (the daily digest takes the others) and pushed
to the member's devices (inbox.push).

A notice is looked at by a task (inbox.tasks.deliver), queued once it has committed; the task
claims the notice's ``mailed_at`` (``pushed_at``) with one conditional UPDATE before it sends,
so a task run twice (a worker lost, the broker redelivering) never mails or pushes twice, and a
notice already done (the member moved before the mail left) is not sent at all."""

from __future__ import annotations

import threading
import time

from django.conf import settings
from django.db.models.signals import post_delete, post_save
from django.utils import timezone

from inbox import kinds, push
from inbox.models import Choices, Notice


def connect() -> None:
    post_save.connect(_forget, sender=Choices, dispatch_uid="inbox.delivery.forget")
    post_delete.connect(_forget, sender=Choices, dispatch_uid="inbox.delivery.forget-gone")


def mail_choice(choices: Choices | None, kind: str) -> str:
    chosen = (choices.mail if choices is not None else {}).get(kind)
    return chosen if chosen in kinds.MAIL_CHOICES else kinds.BY_NAME[kind].mail


def push_choice(choices: Choices | None, kind: str) -> bool:
    chosen = (choices.push if choices is not None else {}).get(kind)
    return chosen if isinstance(chosen, bool) else kinds.BY_NAME[kind].push


# A member's choices as this process last read them: (choices or None, read at). Notices come
# on most moves (a turn), and a read per move would be a query on the hot path; a change is
# seen at once in the process that saved it and within CHOICE_SECONDS elsewhere. Nothing wrong
# is sent meanwhile: the task reads the choices afresh before it sends.
CHOICE_SECONDS = 60.0
_kept: dict[tuple[str, int], tuple[Choices | None, float]] = {}
_lock = threading.Lock()


def forget_choices() -> None:
    with _lock:
        _kept.clear()


def _forget(*, instance, **kwargs) -> None:
    with _lock:
        for key in [key for key in _kept if key[1] == instance.user_id]:
            del _kept[key]


def choices_of(user_id: int, db: str = "default", *, fresh: bool = False) -> Choices | None:
    key, now = (db, user_id), time.monotonic()
    known = None if fresh else _kept.get(key)
    if known is not None and now - known[1] < CHOICE_SECONDS:
        return known[0]
    found = Choices.objects.using(db).filter(user_id=user_id).first()
    with _lock:
        if len(_kept) > 10_000:
            _kept.clear()
        _kept[key] = (found, now)
    return found


def wanted_now(notice: Notice, choices: Choices | None) -> dict[str, bool]:
    """What to send for ``notice`` as soon as it is made: a mail (chosen "at once") and a
    push (chosen, with a device to push to: asked by the task)."""
    if not notice.reach:
        return {"mail": False, "push": False}
    return {
        "mail": mail_choice(choices, notice.kind) == kinds.NOW,
        "push": push_choice(choices, notice.kind),
    }


def worth_a_task(notice: Notice) -> bool:
    """Whether anything may be sent for ``notice`` now (a read a minute of the member's
    choices at most): most notices are a turn, for members who want no mail at once and,
    mostly, have no device to push to (a read of the shared cache, inbox.push.has_devices)."""
    db = notice._state.db or "default"
    wanted = wanted_now(notice, choices_of(notice.user_id, db))
    if wanted["mail"]:
        return True
    return wanted["push"] and _may_push() and push.has_devices(notice.user_id)


def _may_push() -> bool:
    return bool(getattr(settings, "HADAL_VAPID_PRIVATE_KEY", ""))


def claim(notice_id: int, field: str) -> bool:
    """Take the right to send ``notice_id`` by ``field`` (mailed_at, pushed_at): True for
    exactly one caller, however many ask."""
    return bool(
        Notice.objects.filter(pk=notice_id, **{f"{field}__isnull": True}).update(
            **{field: timezone.now()}
        )
    )


def deliver(notice_id: int) -> dict[str, bool]:
    """Send the notice as the member chose, now: what was sent."""
    notice = Notice.objects.select_related("user").filter(pk=notice_id).first()
    sent = {"mail": False, "push": False}
    if notice is None or not notice.reach or not notice.user.is_active:
        return sent
    choices = choices_of(notice.user_id, fresh=True)
    wanted = wanted_now(notice, choices)
    still = notice.done_at is None or notice.kind not in kinds.WAITING
    if wanted["mail"] and still and claim(notice.pk, "mailed_at"):
        from inbox import mail

        sent["mail"] = mail.send_notice(notice)
    if (
        wanted["push"]
        and still
        and _may_push()
        and push.has_devices(notice.user_id)
        and claim(notice.pk, "pushed_at")
    ):
        sent["push"] = push.push_notice(notice).sent > 0
    return sent
