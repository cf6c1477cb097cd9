"""A club's webhooks, run by its organisers: add one (its secret shown once), remove it, send
it a test, resume it once it has stopped; and its delivery log."""

from __future__ import annotations

import base64
import secrets
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from core import inputs
from core.errors import Conflict, InvalidInput, UnknownName
from league.models import League, OutboxMessage, Webhook
from league.services.clubs import require_organiser
from league.webhooks import facts, outbox
from league.webhooks.addresses import checked_url

MOST_PER_CLUB = 10
LOG_LENGTH = 20  # the deliveries a page or the API shows


@dataclass(frozen=True)
class Delivery:
    """One line of a webhook's delivery log, in words."""

    message: OutboxMessage

    @property
    def event(self) -> str:
        return facts.TYPE_WORDS.get(self.message.type, self.message.type)

    @property
    def state(self) -> str:
        m = self.message
        if m.sent_at is not None:
            return "delivered"
        return "waiting" if m.attempts == 0 else "retrying"


def new_secret() -> str:
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


@transaction.atomic
def webhook_add(*, league: League, by: AbstractUser, url: Any, format: Any) -> Webhook:
    require_organiser(league, by, "add webhooks")
    if format not in Webhook.Format.values:
        raise InvalidInput(f"format must be one of {', '.join(Webhook.Format.values)}")
    url = checked_url(url)
    if league.webhooks.count() >= MOST_PER_CLUB:
        raise Conflict(f"a club has at most {MOST_PER_CLUB} webhooks: remove one first")
    return Webhook.objects.create(
        league=league, url=url, format=format, secret=new_secret(), created_by=by
    )


def webhook_get(league: League, webhook_id: Any) -> Webhook:
    pk = inputs.whole_number(webhook_id, "webhook", 0, inputs.BIGINT)
    hook = Webhook.objects.filter(league=league, pk=pk).first()
    if hook is None:
        raise UnknownName(f"{league.name} has no webhook {pk}")
    return hook


@transaction.atomic
def webhook_remove(*, league: League, webhook_id: Any, by: AbstractUser) -> Webhook:
    """Remove it, with its waiting messages and its log."""
    require_organiser(league, by, "remove webhooks")
    hook = webhook_get(league, webhook_id)
    hook.delete()
    return hook


@transaction.atomic
def webhook_test(*, league: League, webhook_id: Any, by: AbstractUser) -> OutboxMessage:
    """A test message, queued behind whatever waits: it arrives as the others do."""
    require_organiser(league, by, "test webhooks")
    hook = webhook_get(league, webhook_id)
    if hook.stopped_at is not None:
        raise Conflict("this webhook has stopped after failing for days: resume it first")
    outbox.post([league.pk], facts.test(league=league.name, by=by.username), webhooks=[hook])
    return hook.messages.order_by("-seq").first()


@transaction.atomic
def webhook_resume(*, league: League, webhook_id: Any, by: AbstractUser) -> Webhook:
    """A stopped webhook sends again: what waits goes now, in order."""
    require_organiser(league, by, "resume webhooks")
    hook = webhook_get(league, webhook_id)
    if hook.stopped_at is not None:
        hook.stopped_at = None
        hook.save(update_fields=["stopped_at"])
        hook.messages.filter(sent_at__isnull=True).update(next_attempt_at=timezone.now())
        transaction.on_commit(lambda: outbox.send_soon([hook.pk]))
    return hook


def deliveries(hook: Webhook, limit: int = LOG_LENGTH) -> list[Delivery]:
    """Its newest messages first."""
    return [Delivery(m) for m in hook.messages.order_by("-seq")[:limit]]
