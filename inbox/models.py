"""A member's notices, their choices of how notices reach them, and the devices they allowed
to be pushed to (Web Push)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from inbox.kinds import KINDS


class Notice(models.Model):
    """Something that waits for a member, or news for them: stored, with its link.

    ``key`` names what it is about (``game:12:turn``, ``game:12:confirm``): a member has at
    most one open notice for a key, and whoever settles the matter closes it (``done_at``)
    without knowing its id. A notice is read once the member has seen it (the inbox, the
    link followed) and done once it no longer waits: their turn passed, the invitation
    answered, the record confirmed; done implies read. News (kinds not in inbox.kinds.WAITING)
    is done as it is read."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=24, choices=[(k.name, k.label) for k in KINDS])
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300)
    key = models.CharField(max_length=100, blank=True)
    # What the stream's older message shapes carry beside it (a game's id, the seat, the
    # accept and decline links of an invitation, a tournament's name and round).
    data = models.JSONField(default=dict, blank=True)
    # Whether it may go beyond the site (mail, push): not a turn in a game played at the board
    # with a short clock, where the member is on the page already.
    reach = models.BooleanField(default=True)
    created_at = models.DateTimeField(default=timezone.now)
    read_at = models.DateTimeField(null=True, blank=True)
    done_at = models.DateTimeField(null=True, blank=True)
    # Set once, by whoever sends it (inbox.delivery): never two mails or pushes for a notice.
    mailed_at = models.DateTimeField(null=True, blank=True)
    pushed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["user", "-id"], name="inbox_notice_user_newest"),
            # The counts (the nav's bell) read only what is open.
            models.Index(
                fields=["user", "kind"],
                condition=Q(done_at__isnull=True),
                name="inbox_notice_open",
            ),
            models.Index(
                fields=["key"],
                condition=Q(done_at__isnull=True) & ~Q(key=""),
                name="inbox_notice_open_key",
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"],
                condition=Q(done_at__isnull=True) & ~Q(key=""),
                name="inbox_one_open_notice_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.text}"

    @property
    def read(self) -> bool:
        return self.read_at is not None


class Choices(models.Model):
    """How a member's notices reach them beyond the site: per kind, by e-mail (none, at once,
    in the daily digest) and pushed or not; a kind not named takes its default
    (inbox.kinds). The digest goes at ``digest_hour`` in ``timezone``."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notice_choices"
    )
    mail = models.JSONField(default=dict, blank=True)
    push = models.JSONField(default=dict, blank=True)
    digest_hour = models.PositiveSmallIntegerField(default=18)
    timezone = models.CharField(max_length=64, default="UTC")
    digest_sent_on = models.DateField(null=True, blank=True)  # the member's day last sent

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(digest_hour__gte=0) & Q(digest_hour__lte=23),
                name="inbox_digest_hour_in_a_day",
            )
        ]


class PushDevice(models.Model):
    """A browser a member allowed to be pushed to: its push service's endpoint and keys
    (the Push API's PushSubscription). Pruned when the push service answers 404 or 410."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="push_devices"
    )
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    label = models.CharField(max_length=100, blank=True)  # "Firefox on Android", say
    created_at = models.DateTimeField(default=timezone.now)
    last_sent_at = models.DateTimeField(null=True, blank=True)
    failures = models.PositiveIntegerField(default=0)
