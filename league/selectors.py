"""Reads for ratings: leaderboards and a player's record."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import QuerySet

from games.models import Game
from accounts.bots import BOT_PREFIX
from league.models import Rating, RatingChange
from league.ratings import PROVISIONAL_GAMES

User = get_user_model()


def leaderboard(slug: str) -> QuerySet[Rating]:
    return Rating.objects.filter(slug=slug).select_related("user").order_by("-rating", "user__username")


def rating_entry(row: Rating) -> dict[str, Any]:
    return {"player": row.user.username, "rating": row.rating, "games": row.games,
            "provisional": row.games < PROVISIONAL_GAMES}


def is_bot(user) -> bool:
    return user.username.startswith(BOT_PREFIX)


def player_record(user, recent: int = 20) -> dict[str, Any]:
    """A player's ratings per game with their history, and recent games."""
    history: dict[str, list[dict[str, Any]]] = {}
    for change in RatingChange.objects.filter(user=user).order_by("finished_at", "game_id"):
        history.setdefault(change.slug, []).append({
            "game_id": change.game_id, "finished_at": change.finished_at.isoformat(),
            "rank": change.rank, "before": change.before, "after": change.after})
    ratings = []
    for row in Rating.objects.filter(user=user).order_by("slug"):
        ratings.append({**rating_entry(row), "game": row.slug,
                        "openskill": {"mu": row.openskill_mu, "sigma": row.openskill_sigma},
                        "history": history.get(row.slug, [])})
    games = (Game.objects.filter(seats__user=user).distinct().order_by("-updated_at")[:recent])
    return {"username": user.username, "is_bot": is_bot(user), "ratings": ratings,
            "recent_games": [{"id": g.pk, "game": g.slug, "status": g.status,
                              "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                              "result": g.result} for g in games]}


def league_standings(league) -> list[dict[str, Any]]:
    """Per game type, the league's members by Elo (members who have a rating for it)."""
    members = league.members.all()
    out = []
    for slug in sorted(set(Rating.objects.filter(user__in=members).values_list("slug", flat=True))):
        rows = leaderboard(slug).filter(user__in=members)
        out.append({"game": slug, "ratings": [rating_entry(r) for r in rows]})
    return out
