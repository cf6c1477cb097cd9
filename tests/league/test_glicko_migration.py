"""Migration league/0020 replays the rated games with Glicko-2, so an upgraded site shows
true Glicko-2 ratings with no step by hand: the same numbers a full recompute gives.

The replay is run on today's models rather than through a MigrationExecutor: its only reads
are the rating changes' players, ranks and times, and its only writes the Glicko-2 columns,
all of which today's models have as the migration's state does."""

from __future__ import annotations

import importlib
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.utils import timezone

from games.models import Game
from league.models import Rating, RatingChange
from league.services import ratings as services
from tests.league.test_rating_services import DSA, forfeit, states

pytestmark = pytest.mark.django_db
migration = importlib.import_module("league.migrations.0020_glicko2")


def test_the_migration_gives_the_ratings_a_recompute_gives(make_user):
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    start = timezone.now() - timedelta(days=100)
    for i in range(10):
        game = forfeit(players[i % 4], players[(i * 3 + 1) % 4 or 2])
        Game.objects.filter(pk=game.pk).update(finished_at=start + timedelta(days=3 * i))
    services.ratings_recompute(slug=DSA)
    recomputed = states()
    assert len({row[5] for row in recomputed["ratings"].values()}) == 4  # four Glicko ratings
    # as the migration finds a site: Glicko-2 columns at their defaults
    Rating.objects.update(glicko_rating=1500.0, glicko_deviation=350.0, glicko_volatility=0.06)
    RatingChange.objects.update(
        glicko_rating_before=1500.0,
        glicko_deviation_before=350.0,
        glicko_rating_after=1500.0,
        glicko_deviation_after=350.0,
    )
    assert states() != recomputed

    migration.replay_glicko(apps, SimpleNamespace(connection=connection))

    assert states() == recomputed


def test_the_migration_on_a_site_with_no_rated_games():
    migration.replay_glicko(apps, SimpleNamespace(connection=connection))
    assert not Rating.objects.exists()
