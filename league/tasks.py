"""Celery tasks for ratings and webhooks. Each calls a service; all are idempotent."""

from datetime import datetime

from celery import shared_task
from django.db import OperationalError

from league.services import ratings
from league.webhooks import sending


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    max_retries=5,
    soft_time_limit=300,
    time_limit=360,
)
def rate_finished_games(slug: str, game_id: int | None = None) -> int:
    """Take the finished games of ``slug`` into the ratings, in the order they ended;
    ``game_id`` is the game whose end or correction asked for it."""
    return ratings.ratings_update(slug=slug, game_id=game_id)


@shared_task(acks_late=True, soft_time_limit=300, time_limit=360)
def sweep_unrated_games() -> int:
    """Rate what a lost task left unrated."""
    return sum(ratings.ratings_update(slug=slug) for slug in ratings.slugs_with_unrated_games())


@shared_task(acks_late=True, soft_time_limit=600, time_limit=660)
def deliver_webhook(webhook_id: int, now: str | None = None) -> int:
    """Send what waits for this webhook, in order; a failure waits for its next try, which
    the sweep starts. ``now`` (ISO 8601) stands for the present, for the tests."""
    moment = datetime.fromisoformat(now) if now else None
    return sending.drain(webhook_id, now=moment).sent


@shared_task(acks_late=True, soft_time_limit=60, time_limit=90)
def sweep_webhooks(now: str | None = None) -> int:
    """Start a send for every webhook with a message due: retries, and what a lost task or a
    restart left waiting."""
    moment = datetime.fromisoformat(now) if now else None
    webhooks = sending.due(moment)
    for pk in webhooks:
        deliver_webhook.delay(pk, now)
    return len(webhooks)
