"""Celery tasks for ratings. Each calls a service; all are idempotent."""

from celery import shared_task
from django.db import OperationalError

from league.services import ratings


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
