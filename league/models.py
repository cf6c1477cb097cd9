"""Ratings per (player, game): Elo, with OpenSkill beside it, and the change each game made.

All three tables are projections of the finished games: ``recompute_ratings`` rebuilds them
from the games alone, with the same numbers. Players are users; bots are users too.
"""

from django.conf import settings
from django.db import models

from games.models import Game


class Rating(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="ratings")
    slug = models.CharField(max_length=40)
    rating = models.FloatField()  # Elo, stored unrounded
    games = models.PositiveIntegerField(default=0)
    openskill_mu = models.FloatField()
    openskill_sigma = models.FloatField()
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "slug"], name="rating_unique")]
        indexes = [models.Index(fields=["slug", "-rating"])]

    def __str__(self) -> str:
        return f"{self.user} {self.slug}: {self.rating:.1f}"


class RatedGame(models.Model):
    """A finished game the ratings have taken in, in order; ``skipped`` says why if unrated."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="rated")
    slug = models.CharField(max_length=40)
    finished_at = models.DateTimeField()
    skipped = models.CharField(max_length=100, blank=True)

    class Meta:
        indexes = [models.Index(fields=["slug", "finished_at", "game"])]


class RatingChange(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="rating_changes")
    slug = models.CharField(max_length=40)
    finished_at = models.DateTimeField()
    seat = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    before = models.FloatField()
    after = models.FloatField()
    openskill_mu_before = models.FloatField()
    openskill_mu_after = models.FloatField()
    openskill_sigma_before = models.FloatField()
    openskill_sigma_after = models.FloatField()

    class Meta:
        ordering = ["finished_at", "game_id"]
        constraints = [models.UniqueConstraint(fields=["game", "user"],
                                               name="rating_change_unique")]
        indexes = [models.Index(fields=["user", "slug", "finished_at"])]

    @property
    def delta(self) -> float:
        return self.after - self.before


class RatingLedger(models.Model):
    """One row per game slug, locked while that game's ratings change: one writer at a time."""

    slug = models.CharField(max_length=40, primary_key=True)
