"""The bot levels' Elo per game: fitted to the games ``manage.py simulate --rate`` plays
between them (games.signals.bot_levels_measured) and stored for the leaderboard.

Anchor: the random level is rated ``RANDOM_ANCHOR`` (1000), 500 below where every new player
here starts (1500, league.ratings.DEFAULT_RATING). A random mover is the floor of play, so
its rating is fixed and the others are measured up from it: 400 points above a level means
winning about 10 games in 11 against it, on the same scale as the club's Elo. Where the club's
members and the bots have played each other, the bots' own rows on the leaderboard show the
same thing measured against people.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone

from league.models import BotLevelRating
from league.ratings import fit_elo

RANDOM_ANCHOR = 1000.0
ANCHOR_LEVEL = "random"


def rate_levels(
    slug: str, levels: dict[str, str], games: Sequence[tuple[Sequence[str], Sequence[int]]]
) -> dict[str, float]:
    """Fit and store the levels' Elo for game ``slug``, replacing its last measurement; the
    ratings by level. ``levels`` maps each level to its budget, ``games`` are (levels by
    seat, ranks by seat)."""
    if ANCHOR_LEVEL not in levels:
        raise ValueError(f"rating the levels needs the {ANCHOR_LEVEL} level as the anchor")
    ratings = fit_elo(games, ANCHOR_LEVEL, RANDOM_ANCHOR)
    counts = {level: 0 for level in levels}
    for seats, _ in games:
        for level in seats:
            counts[level] += 1
    now = timezone.now()
    with transaction.atomic():
        BotLevelRating.objects.filter(slug=slug).delete()
        BotLevelRating.objects.bulk_create(
            BotLevelRating(
                slug=slug,
                level=level,
                budget=levels[level],
                rating=ratings[level],
                games=counts[level],
                measured_at=now,
            )
            for level in levels
        )
    return {level: ratings[level] for level in levels}


def level_ratings(slug: str) -> list[BotLevelRating]:
    """The bot levels' last measured Elo in game ``slug``, strongest first."""
    return list(BotLevelRating.objects.filter(slug=slug).order_by("-rating", "level"))


def on_measured(sender, *, slug: str, levels, games, **kwargs) -> dict[str, float]:
    return rate_levels(slug, levels, games)
