"""Reads for the league app, and the permission questions the pages, the API and the services
all ask ("may this user organise this tournament?"), so the answer is the same everywhere."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import Count, QuerySet

from accounts.bots import is_bot
from accounts.errors import InvalidInput
from games import records
from games.models import Game, GameStatus
from league.models import League, Membership, Rating, RatingChange, Round, Table, Tournament
from league.ratings import PROVISIONAL_GAMES
from league.standings import GameResult, standings

User = get_user_model()


def leaderboard(slug: str) -> QuerySet[Rating]:
    return (
        Rating.objects.filter(slug=slug)
        .select_related("user")
        .order_by("-rating", "user__username")
    )


def rating_entry(row: Rating) -> dict[str, Any]:
    return {
        "player": row.user.username,
        "rating": row.rating,
        "games": row.games,
        "provisional": row.games < PROVISIONAL_GAMES,
    }


def player_record(user, recent: int = 20) -> dict[str, Any]:
    """A player's ratings per game with their history, and recent games."""
    history: dict[str, list[dict[str, Any]]] = {}
    for change in RatingChange.objects.filter(user=user).order_by("finished_at", "game_id"):
        history.setdefault(change.slug, []).append(
            {
                "game_id": change.game_id,
                "finished_at": change.finished_at.isoformat(),
                "rank": change.rank,
                "before": change.before,
                "after": change.after,
            }
        )
    ratings = []
    for row in Rating.objects.filter(user=user).order_by("slug"):
        ratings.append(
            {
                **rating_entry(row),
                "game": row.slug,
                "openskill": {"mu": row.openskill_mu, "sigma": row.openskill_sigma},
                "history": history.get(row.slug, []),
            }
        )
    games = Game.objects.filter(seats__user=user).distinct().order_by("-updated_at")[:recent]
    return {
        "username": user.username,
        "is_bot": is_bot(user),
        "ratings": ratings,
        "recent_games": [
            {
                "id": g.pk,
                "game": g.slug,
                "status": g.status,
                "finished_at": g.finished_at.isoformat() if g.finished_at else None,
                "result": g.result,
            }
            for g in games
        ],
    }


def league_standings(league) -> list[dict[str, Any]]:
    """Per game type, the league's members by Elo (members who have a rating for it)."""
    members = league.members.all()
    out = []
    for slug in sorted(set(Rating.objects.filter(user__in=members).values_list("slug", flat=True))):
        rows = leaderboard(slug).filter(user__in=members)
        out.append({"game": slug, "ratings": [rating_entry(r) for r in rows]})
    return out


# -- who may do what ------------------------------------------------------------------------------


def is_league_organiser(league: League, user) -> bool:
    return user.is_authenticated and (
        user.is_staff
        or league.membership_set.filter(user=user, role=Membership.Role.ORGANISER).exists()
    )


def is_league_member(league: League, user) -> bool:
    return user.is_authenticated and league.membership_set.filter(user=user).exists()


def is_tournament_organiser(tournament: Tournament, user) -> bool:
    if not user.is_authenticated:
        return False
    if user.is_staff or tournament.organisers.filter(pk=user.pk).exists():
        return True
    return tournament.league is not None and is_league_organiser(tournament.league, user)


def may_settle_record(game: Game, user) -> bool:
    """Staff, or an organiser of a league the record belongs to: their word on it is final."""
    return user.is_authenticated and (
        user.is_staff or any(is_league_organiser(club, user) for club in game.leagues.all())
    )


def may_correct_record(game: Game, user) -> bool:
    return may_settle_record(game, user) or (
        user.is_authenticated and game.created_by_id == user.pk
    )


# -- leagues and tournaments ----------------------------------------------------------------------


def league_named(slug: str | None) -> League | None:
    if slug is None:
        return None
    league = League.objects.filter(slug=slug).first()
    if league is None:
        raise InvalidInput(f"no league {slug!r}")
    return league


def league_summaries() -> list[dict[str, Any]]:
    return [
        {"slug": lg.slug, "name": lg.name, "members": lg.member_count}
        for lg in League.objects.annotate(member_count=Count("membership")).order_by("name")
    ]


def league_detail(league: League) -> dict[str, Any]:
    members = league.membership_set.select_related("user").order_by("user__username")
    return {
        "slug": league.slug,
        "name": league.name,
        "description": league.description,
        "members": [{"player": m.user.username, "role": m.role} for m in members],
        "seasons": list(league.seasons.values("id", "name", "starts_on", "ends_on")),
        "tournaments": [
            {"id": t.pk, "name": t.name, "game": t.slug, "status": t.status}
            for t in league.tournaments.all()
        ],
        "standings": league_standings(league),
        "recent_games": list(
            league.games.order_by("-finished_at").prefetch_related("seats__user")[:20]
        ),
    }


def tournament_summaries() -> list[Tournament]:
    return list(Tournament.objects.order_by("-created_at")[:200])


def live_rounds(tournament: Tournament):
    return tournament.round_set.filter(void=False).order_by("number")


def tables_of(tournament: Tournament):
    return (
        Table.objects.filter(round__tournament=tournament, round__void=False)
        .select_related("game", "round")
        .prefetch_related("game__seats__user")
        .order_by("round__number", "number")
    )


def seat_names(game: Game) -> list[str]:
    return [s.user.username for s in sorted(game.seats.all(), key=lambda s: s.index)]


def table_out(table: Table) -> dict[str, Any]:
    game = table.game
    out = {
        "id": table.pk,
        "number": table.number,
        "seats": seat_names(game),
        "game": game.pk,
        "status": game.status,
        "result": game.result,
    }
    if game.mode == "record":
        out["report"] = records.result_state(game)
    return out


def round_out(round_: Round) -> dict[str, Any]:
    return {
        "number": round_.number,
        "tables": [
            table_out(t)
            for t in round_.tables.select_related("game").prefetch_related("game__seats__user")
        ],
        "byes": [e.user.username for e in round_.byes.select_related("user")],
    }


def tournament_standings(tournament: Tournament) -> list[dict[str, Any]]:
    """Standing order with points and tie-breaks (in the tournament's configured order)."""
    entries = list(tournament.entries.select_related("user"))
    results = [
        GameResult(
            players=tuple(seat_names(t.game)),
            ranks=tuple(r["rank"] for r in t.game.result),
            scores=tuple(r["score"] for r in t.game.result),
        )
        for t in tables_of(tournament)
        if t.game.status == GameStatus.FINISHED
    ]
    byes = [
        e.user.username
        for r in live_rounds(tournament)
        for e in r.byes.all().select_related("user")
    ]
    rows = standings(
        [e.user.username for e in entries],
        results,
        byes=byes,
        bye_points=tournament.bye_points,
        placement={int(k): v for k, v in tournament.placement_points.items()},
        tiebreaks=tournament.tiebreaks,
    )
    dropped = {e.user.username for e in entries if e.dropped}
    return [
        {
            "player": s.player,
            "points": s.points,
            "tiebreaks": list(s.tiebreaks),
            "games": s.games,
            "wins": s.wins,
            "byes": s.byes,
            "dropped": s.player in dropped,
        }
        for s in rows
    ]


def tournament_detail(tournament: Tournament) -> dict[str, Any]:
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "game": tournament.slug,
        "format": tournament.format,
        "table_size": tournament.table_size,
        "rounds": tournament.rounds,
        "mode": tournament.mode,
        "options": tournament.options,
        "status": tournament.status,
        "bye_points": tournament.bye_points,
        "placement_points": tournament.placement_points,
        "tiebreaks": tournament.tiebreaks,
        "advance": tournament.advance,
        "seeding": tournament.seeding,
        "league": tournament.league.slug if tournament.league else None,
        "time_control": tournament.time_control,
        "organisers": [u.username for u in tournament.organisers.all()],
        "players": [
            {"player": e.user.username, "seed": e.seed, "dropped": e.dropped}
            for e in tournament.entries.select_related("user")
        ],
        "rounds_played": [round_out(r) for r in live_rounds(tournament)],
    }
