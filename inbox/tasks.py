"""The inbox's work for a worker: delivering a notice beyond the site (inbox.delivery), and
the daily lists, sent by beat every few minutes to whoever's hour has come (inbox.digest). The
top of the app: only inbox.apps imports it, to connect the receiver that queues the work."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import OperationalError
from django.utils import timezone

from inbox import delivery, digest
from inbox.signals import notice_created


@shared_task(acks_late=True, autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def deliver(notice_id: int) -> dict[str, bool]:
    return delivery.deliver(notice_id)


# No retry: the next run, minutes later, sends what this one could not.
@shared_task(acks_late=True, ignore_result=True)
def send_digests() -> int:
    return digest.digest_send_due(now=timezone.now())


def connect() -> None:
    notice_created.connect(enqueue_delivery, dispatch_uid="inbox.tasks.deliver")


def enqueue_delivery(*, notice, **kwargs: Any) -> None:
    if delivery.worth_a_task(notice):
        deliver.delay(notice.pk)
