"""Reads for the league app, and the permission questions the pages, the API and the services
all ask ("may this user organise this tournament?"), so the answer is the same everywhere."""

from __future__ import annotations

import csv
import datetime as dt
import io
import logging
import math
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db.models import Count, OuterRef, Prefetch, Q, QuerySet, Subquery, Sum
from django.utils import timezone

from accounts.bots import is_bot
from core import inputs
from core.errors import InvalidInput, UnknownName
from games import audience
from games.catalog import game_name, game_types
from games.models import Game, GameStatus, Seat
from games.play import reads as game_reads
from games.player_names import player_words
from games.records import reads as record_reads
from league import double_elimination, pairing, pools, rating_scale, visibility
from league.models import (
    ORGANISING,
    Entry,
    League,
    LeagueInvitation,
    Membership,
    RatedGame,
    Rating,
    RatingChange,
    Round,
    RoundDraft,
    Season,
    Table,
    Tournament,
    guest_name,
)
from league.ratings import day_number
from league.standings import GameResult, LeagueTable, standings

User = get_user_model()
logger = logging.getLogger(__name__)


def _last_played() -> Subquery:
    games = RatingChange.objects.filter(user=OuterRef("user"), slug=OuterRef("slug"))
    return Subquery(games.order_by("-finished_at").values("finished_at")[:1])


def _ratings(slug: str) -> QuerySet[Rating]:
    """The game's ratings with their players' names, whether each is a bot and when each last
    played it (``last_played``, for the deviation's aging); of their rows, only what a ladder
    shows."""
    return (
        Rating.objects.filter(slug=slug)
        .select_related("user__profile")
        .only(
            "slug",
            "rating",
            "games",
            "glicko_rating",
            "glicko_deviation",
            "user__username",
            "user__profile__bot_since",
        )
        .annotate(last_played=_last_played())
    )


def shown_rating(row: Rating, now: dt.datetime | None = None) -> dict[str, Any]:
    """The rating a player sees (league.rating_scale), its deviation aged by the days since the
    player's last game of that type (``last_played`` when the row was read with it)."""
    last = getattr(row, "last_played", None)
    days = ((now or timezone.now()) - last).total_seconds() / 86400 if last else 0.0
    return rating_scale.shown(row.glicko_rating, row.glicko_deviation, days)


def leaderboard(
    slug: str, *, provisional: bool = True, members: QuerySet | None = None
) -> list[Rating]:
    """The game's ratings, by rating minus two deviations (highest first), each row with its
    ``shown`` rating; without the provisional ones unless ``provisional``."""
    rows = _ratings(slug)
    if members is not None:
        rows = rows.filter(user__in=members)
    now = timezone.now()
    out = []
    for row in rows:
        row.shown = shown_rating(row, now)
        if provisional or not row.shown["provisional"]:
            out.append(row)
    out.sort(key=lambda r: (-r.shown["conservative"], r.user.username))
    return out


# The game a site without rated games opens its ratings on: the new-game page's first choice.
FIRST_GAME = "deep-sea-adventure"


def most_played_game() -> str:
    """The game with the most rated games (its players' games counted, as the ladders show
    them), by name on a tie; with none rated yet, FIRST_GAME."""
    known = game_types()
    played = (
        Rating.objects.filter(slug__in=known)
        .values("slug")
        .annotate(games=Sum("games"))
        .order_by("-games", "slug")
        .values_list("slug", flat=True)
    )
    slug = played.first()
    if slug is not None:
        return slug
    return FIRST_GAME if FIRST_GAME in known else next(iter(known))


def rating_entry(row: Rating) -> dict[str, Any]:
    """A rating as the API serves it: the shown rating with its deviation, and the Elo kept
    beside it under its own name."""
    shown = getattr(row, "shown", None) or shown_rating(row)
    return {
        "player": row.user.username,
        "rating": shown["rating"],
        "deviation": shown["deviation"],
        "provisional": shown["provisional"],
        "conservative": shown["conservative"],
        "games": row.games,
        "elo": row.rating,
    }


def player_record(user, recent: int = 20, *, viewer=None) -> dict[str, Any]:
    """A player's ratings per game with their history, their record per game, and recent
    games: of their games, those ``viewer`` may know of (games.audience)."""
    history: dict[str, list[dict[str, Any]]] = {}
    changes = RatingChange.objects.filter(user=user)
    if not audience.sees_everything(viewer) and viewer != user:
        changes = changes.filter(game__in=audience.visible(Game.objects.all(), viewer))
    for change in changes.order_by("finished_at", "game_id"):
        history.setdefault(change.slug, []).append(
            {
                "game_id": change.game_id,
                "finished_at": change.finished_at.isoformat(),
                "rank": change.rank,
                "before": change.before,
                "after": change.after,
                "rating_before": change.glicko_rating_before,
                "rating_after": change.glicko_rating_after,
                "deviation_before": change.glicko_deviation_before,
                "deviation_after": change.glicko_deviation_after,
            }
        )
    ratings = []
    for row in (
        Rating.objects.filter(user=user)
        .select_related("user")
        .order_by("slug")
        .annotate(last_played=_last_played())
    ):
        ratings.append(
            {
                **rating_entry(row),
                "game": row.slug,
                "openskill": {"mu": row.openskill_mu, "sigma": row.openskill_sigma},
                "history": history.get(row.slug, []),
            }
        )
    seated = Seat.objects.filter(user=user).values("game")
    games = audience.visible(Game.objects.filter(pk__in=seated), viewer)
    games = games.order_by("-updated_at", "-id")[:recent]
    return {
        "username": user.username,
        "is_bot": is_bot(user),
        "ratings": ratings,
        "games": [
            {key: value for key, value in summary.items() if key not in ("name", "best")}
            for summary in game_summaries(games_played(user, viewer=viewer)).values()
        ],
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


def member_ratings(league) -> list[dict[str, Any]]:
    """Per game type, the league's members by their Elo across the whole service."""
    members = league.members.all()
    out = []
    for slug in sorted(set(Rating.objects.filter(user__in=members).values_list("slug", flat=True))):
        rows = leaderboard(slug, members=members)
        out.append({"game": slug, "ratings": [rating_entry(r) for r in rows]})
    return out


# -- who may do what ------------------------------------------------------------------------------


def is_league_organiser(league: League, user) -> bool:
    return user.is_authenticated and (
        user.is_staff or league.membership_set.filter(user=user, role__in=ORGANISING).exists()
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
    """Staff, or an organiser of a league the record belongs to: their word on it stands for
    the league's members (:func:`members_vouched_for`)."""
    return user.is_authenticated and (
        user.is_staff or any(is_league_organiser(club, user) for club in game.leagues.all())
    )


def members_vouched_for(names: set[str], *, by, leagues: list[League]) -> set[str]:
    """Which of the members ``names`` ``by``'s word on a record stands for: everyone for staff;
    for an organiser of any of ``leagues``, the members of those leagues, who agreed to be
    (an invitation accepted); nobody else. One query."""
    if not by.is_authenticated:
        return set()
    if by.is_staff:
        return set(names)
    organised = [club.pk for club in leagues if is_league_organiser(club, by)]
    if not organised:
        return set()
    return set(
        Membership.objects.filter(league_id__in=organised, user__username__in=names)
        .values_list("user__username", flat=True)
        .distinct()
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
        raise UnknownName(f"no league {slug!r}")
    return league


def league_summaries(viewer) -> list[dict[str, Any]]:
    """The clubs ``viewer`` may read (league.visibility), by name."""
    clubs = visibility.visible_leagues(viewer).annotate(member_count=Count("membership"))
    return [
        {"slug": lg.slug, "name": lg.name, "members": lg.member_count, "visibility": lg.visibility}
        for lg in clubs.order_by("name")
    ]


def league_invited(league: League) -> list[LeagueInvitation]:
    """Who has been asked to join and has not answered, with who asked them."""
    return list(league.invitations.select_related("user", "invited_by").order_by("user__username"))


def invitation_out(invitation: LeagueInvitation) -> dict[str, Any]:
    return {
        "player": invitation.user.username,
        "role": invitation.role,
        "invited_by": invitation.invited_by.username if invitation.invited_by else None,
        "invited_at": invitation.created_at,
    }


def league_invitations_of(user) -> list[LeagueInvitation]:
    """The leagues ``user`` has been asked to join and has not answered, newest first."""
    if not user.is_authenticated:
        return []
    return list(
        LeagueInvitation.objects.filter(user=user)
        .select_related("league", "invited_by")
        .order_by("-created_at", "-pk")
    )


def entries_asking(user) -> list[Entry]:
    """The tournaments an organiser entered ``user`` in who has not answered, newest first."""
    if not user.is_authenticated:
        return []
    return list(
        Entry.objects.filter(user=user, answer=Entry.Answer.INVITED)
        .select_related("tournament", "tournament__created_by")
        .order_by("-tournament__created_at", "-pk")
    )


def league_detail(league: League, viewer) -> dict[str, Any]:
    """The club as ``viewer`` may read it: whole, or only its door (name, description and
    visibility) for someone invited to a members-only club who has not joined."""
    door = {
        "slug": league.slug,
        "name": league.name,
        "description": league.description,
        "visibility": league.visibility,
    }
    if not visibility.may_read_league(league, viewer):
        return {
            **door,
            "members": [],
            "invited": [],
            "seasons": [],
            "tournaments": [],
            "standings": [],
            "recent_games": [],
        }
    members = league.membership_set.select_related("user").order_by("user__username")
    return {
        **door,
        "members": [{"player": m.user.username, "role": m.role} for m in members],
        "invited": [invitation_out(i) for i in league_invited(league)],
        "seasons": list(league.seasons.values("id", "name", "starts_on", "ends_on")),
        "tournaments": [
            {"id": t.pk, "name": t.name, "game": t.slug, "status": t.status}
            for t in league.tournaments.all()
        ],
        "standings": member_ratings(league),
        "recent_games": list(
            league.games.order_by("-finished_at").prefetch_related("seats__user__profile")[:20]
        ),
    }


def tournament_summaries(viewer) -> list[Tournament]:
    """The newest tournaments ``viewer`` may see (league.visibility)."""
    shown = visibility.visible_tournaments(viewer, Tournament.objects.all())
    return list(shown.order_by("-created_at")[:200])


def live_rounds(tournament: Tournament):
    return tournament.round_set.filter(void=False).order_by("number")


def tables_of(tournament: Tournament):
    return (
        Table.objects.filter(round__tournament=tournament, round__void=False)
        .select_related("game", "round")
        .prefetch_related("game__seats__user")
        .order_by("round__number", "number")
    )


Claims = dict[str, str]  # a claimed walk-in's guest name -> the member who claimed the entry


def seat_names(game: Game, claims: Claims | None = None) -> list[str]:
    """The players at a tournament's table in seat order, as the tournament names them
    (Entry.name): a member by username; a walk-in seated as a guest by the member who has
    claimed the entry since (``claims``, :func:`claims_of`; read here if not given), or else
    as "Ann (guest)"."""
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    if claims is None:
        claims = claims_at([game])
    return [
        s.user.username if s.user_id else (claims or {}).get(s.guest) or guest_name(s.guest)
        for s in seats
    ]


def claims_at(games: list[Game]) -> Claims:
    """The claimed walk-ins seated at ``games`` (one tournament's): no query unless a guest
    sits at one of them."""
    guests_at = [g.pk for g in games if any(s.guest for s in g.seats.all())]
    if not guests_at:
        return {}
    return dict(
        Entry.objects.filter(tournament__round_set__tables__game__in=guests_at, user__isnull=False)
        .exclude(guest="")
        .values_list("guest", "user__username")
        .distinct()
    )


def claims_of(tournament: Tournament) -> Claims:
    """The tournament's claimed walk-ins: guest name -> the member's username."""
    return dict(
        tournament.entries.filter(user__isnull=False)
        .exclude(guest="")
        .values_list("guest", "user__username")
    )


def claims_in(entries: list[Entry]) -> Claims:
    """:func:`claims_of` from the tournament's entries read already (with their users)."""
    return {e.guest: e.user.username for e in entries if e.guest and e.user_id}


def named_results(game: Game, names: list[str]) -> list[dict[str, Any]] | None:
    """A table's result with each line's player as the tournament names them (``names``, in
    seat order, as the result is): a guest's line says "Ann (guest)", not "Ann"."""
    if not game.result:
        return game.result
    return [{**line, "player": name} for line, name in zip(game.result, names, strict=False)]


def table_out(table: Table) -> dict[str, Any]:
    return tables_out([table])[0]


def tables_out(tables: list[Table]) -> list[dict[str, Any]]:
    """Tables with their seats, results and, in table mode, where each report stands: the
    reports of every table in one fold (``record_reads.result_states``), not one query per table."""
    reports = record_reads.result_states([t.game_id for t in tables if t.game.mode == "record"])
    bids = online_bids([t.game for t in tables if t.game.mode != "record"])
    claims = claims_at([t.game for t in tables])
    out = []
    for table in tables:
        game = table.game
        names = seat_names(game, claims)
        row = {
            "id": table.pk,
            "number": table.number,
            "seats": names,
            "game": game.pk,
            "mode": game.mode,  # a table-mode table played as a table log turns "log"
            "status": game.status,
            "result": named_results(game, names),
            "extra_minutes": table.extra_minutes,
        }
        if table.match:
            row["bracket"] = bracket_label(table.match)
        if game.pk in reports:
            row["report"] = _report_named(reports[game.pk], game, names)
            row["bid"] = row["report"]["bid"]
        elif game.pk in bids:
            row["bid"] = bids[game.pk]
        out.append(row)
    return out


def _report_named(report: dict[str, Any], game: Game, names: list[str]) -> dict[str, Any]:
    """Where a table's report stands, its results and bid naming the players as the
    tournament does (``names``): the game names a guest "Ann", the tournament "Ann (guest)"."""
    seats = sorted(game.seats.all(), key=lambda s: s.index)
    renamed = {s.guest: name for s, name in zip(seats, names, strict=False) if s.guest}
    if not renamed:
        return report

    def lines(results):
        if results is None:
            return None
        return [{**r, "player": renamed.get(r["player"], r["player"])} for r in results]

    bid = report["bid"]
    return {
        **report,
        "reported": lines(report["reported"]),
        "final": lines(report["final"]),
        "bid": bid and {**bid, "player": renamed.get(bid["player"], bid["player"])},
        "disputes": [{**d, "results": lines(d["results"])} for d in report["disputes"]],
    }


def online_bids(games: list[Game]) -> dict[int, dict[str, Any]]:
    """The starting bid at each game played here with the starting-bid variant, once someone
    has bid: ``{"player", "amount", "settled"}``, the highest bid so far and its bidder;
    settled once a move other than a bid or a pass is made, or the game is over. At most two
    queries for any number of games (games.play.reads.starting_bids)."""
    bidding = {g.pk: g for g in games if g.options.get("starting_bid")}
    if not bidding:
        return {}
    out = {}
    bids = game_reads.starting_bids(games=list(bidding.values()))
    for game_id, (seat, amount, settled) in bids.items():
        names = seat_names(bidding[game_id])
        out[game_id] = {
            "player": names[seat] if seat is not None and seat < len(names) else None,
            "amount": amount,
            "settled": settled,
        }
    return out


def round_out(round_: Round, tables: list[Table] | None = None) -> dict[str, Any]:
    """A round, its tables (``tables`` if given: the round's, with their games and seats) and
    its byes (prefetched by ``rounds_of``, or read here)."""
    if tables is None:
        tables = list(round_.tables.select_related("game").prefetch_related("game__seats__user"))
    if "byes" in getattr(round_, "_prefetched_objects_cache", {}):
        byes = [e.name for e in round_.byes.all()]
    else:
        byes = [e.name for e in round_.byes.select_related("user")]
    return {
        "number": round_.number,
        "stage": round_.stage,
        "started_at": round_.started_at,
        "minutes": round_.minutes,
        "paused_at": round_.paused_at,
        "ends_at": _round_ends(round_),
        "paused_left": _paused_left(round_),
        "tables": tables_out(tables),
        "byes": byes,
    }


def _round_ends(round_: Round) -> dt.datetime | None:
    """When the round's clock reaches 0:00; while paused, when it would if resumed now."""
    if round_.started_at is None or round_.minutes is None:
        return None
    ends = round_.started_at + dt.timedelta(minutes=round_.minutes)
    if round_.paused_at is not None:
        ends += timezone.now() - round_.paused_at
    return ends


def _paused_left(round_: Round) -> int | None:
    """While the round's clock is paused, the seconds it has left."""
    if round_.paused_at is None or round_.started_at is None or round_.minutes is None:
        return None
    ends = round_.started_at + dt.timedelta(minutes=round_.minutes)
    return max(0, round((ends - round_.paused_at).total_seconds()))


def rounds_of(tournament: Tournament) -> list[Round]:
    """The live rounds with their byes (their entrants and users) prefetched."""
    return list(
        live_rounds(tournament).prefetch_related(
            Prefetch("byes", Entry.objects.select_related("user"))
        )
    )


def rounds_out(rounds: list[Round], tables: list[Table]) -> list[dict[str, Any]]:
    """``round_out`` of every round of ``rounds``, from ``tables`` (``tables_of``: those of
    every live round), so that however many rounds, their tables are read once."""
    by_round: dict[int, list[Table]] = {r.pk: [] for r in rounds}
    for table in tables:
        by_round.setdefault(table.round_id, []).append(table)
    everything = tables_out(tables)  # one fold of every table's reports, then split by round
    out_of = {table.pk: out for table, out in zip(tables, everything)}
    return [
        {**round_out(r, tables=[]), "tables": [out_of[t.pk] for t in by_round[r.pk]]}
        for r in rounds
    ]


def in_field(entry) -> bool:
    """An entrant who took part: not waiting for a place, not withdrawn before round 1."""
    return not entry.waitlisted and entry.dropped_after_round != 0


def tournament_standings(
    tournament: Tournament,
    *,
    entries: list[Entry] | None = None,
    rounds: list[Round] | None = None,
    tables: list[Table] | None = None,
    after_round: int | None = None,
) -> list[dict[str, Any]]:
    """Standing order with points and tie-breaks (in the tournament's configured order), over
    the rounds before any top cut, of the players who took part. A page that has read them
    already gives the entries (with users), ``rounds_of`` and ``tables_of``. With
    ``after_round``, the standings as they stood once round N was played: its results and
    byes and those before, the players entered by then, a drop only if it came before."""
    if entries is None:
        entries = list(tournament.entries.select_related("user"))
    if rounds is None:
        rounds = rounds_of(tournament)
    if tables is None:
        tables = list(tables_of(tournament).filter(round__stage="main"))
    claims = claims_in(entries)
    entries = [e for e in entries if in_field(e)]
    if after_round is not None:
        rounds = [r for r in rounds if r.number <= after_round]
        entries = [e for e in entries if e.entered_after_round < after_round]
    main = {r.pk for r in rounds if r.stage == "main"}
    results = [
        GameResult(
            players=tuple(seat_names(t.game, claims)),
            ranks=tuple(r["rank"] for r in t.game.result),
            scores=tuple(r["score"] for r in t.game.result),
        )
        for t in tables
        if t.round_id in main and t.game.status == GameStatus.FINISHED
    ]
    byes = [e.name for r in rounds if r.pk in main for e in r.byes.all()]
    rows = standings(
        [e.name for e in entries],
        results,
        byes=byes,
        bye_points=tournament.bye_points,
        placement={int(k): v for k, v in tournament.placement_points.items()},
        tiebreaks=tournament.tiebreaks,
        share_floor=1 / (tournament.table_size + 1),
        tiebreak_version=tournament.tiebreak_version,
    )
    dropped = {
        e.name
        for e in entries
        if e.dropped and (after_round is None or e.dropped_after_round < after_round)
    }
    out = [
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
    if tournament.format == Tournament.Format.POOLS:
        pool_of = {
            player: pool_name(i)
            for i, pool in enumerate(tournament_pools(tournament, entries=entries))
            for player in pool
        }
        for row in out:
            row["pool"] = pool_of.get(str(row["player"]))
    return out


SIDE_NAMES = {
    double_elimination.WINNERS: "Winners' bracket",
    double_elimination.LOSERS: "Losers' bracket",
    double_elimination.FINAL: "Grand final",
}


def bracket_label(match_id: str) -> str:
    """A double elimination match in words: "Winners' bracket round 2", "Grand final"."""
    if match_id == "GF1":
        return "Grand final"
    if match_id == "GF2":
        return "Grand final, second game"
    side = SIDE_NAMES[
        double_elimination.WINNERS if match_id.startswith("W") else double_elimination.LOSERS
    ]
    return f"{side} round {match_id[1:].split('-')[0]}"


def winner_of(game: Game, claims: Claims | None = None) -> str | None:
    """The one player ranked first at a finished table, or None (not over, or a tie)."""
    if game.status != GameStatus.FINISHED or not game.result:
        return None
    firsts = [i for i, r in enumerate(game.result) if r["rank"] == 1]
    return seat_names(game, claims)[firsts[0]] if len(firsts) == 1 else None


def double_elimination_bracket(
    tournament: Tournament, *, tables: list[Table] | None = None
) -> double_elimination.Bracket:
    """A double elimination event's bracket as it stands (league.double_elimination), from
    the field round 1 found, the drops and the winners of the tables played."""
    everyone = list(tournament.entries.select_related("user"))
    claims = claims_in(everyone)
    entries = [e for e in everyone if in_field(e)]
    if tables is None:
        tables = list(tables_of(tournament))
    results = {}
    for table in tables:
        winner = winner_of(table.game, claims) if table.match else None
        if winner is not None:
            results[table.match] = winner
    return double_elimination.bracket(
        [e.name for e in entries],
        results,
        {e.name: e.dropped_after_round for e in entries if e.dropped},
        reset=tournament.grand_final_reset,
    )


def double_bracket(tournament: Tournament) -> dict[str, Any] | None:
    """The bracket of a double elimination event, side by side and round by round: each
    match's players, its table (in the event round that played it) and who went through
    (with "bye" or "walkover" where no game was played); then the placings. None for
    another format or before the field is known."""
    if tournament.format != Tournament.Format.DOUBLE_ELIMINATION:
        return None
    tables = list(tables_of(tournament))
    if len([e for e in tournament.entries.all() if in_field(e)]) < 2:
        return None
    bracket = double_elimination_bracket(tournament, tables=tables)
    at = {t.match: t for t in tables if t.match}
    sides = []
    for side in (double_elimination.WINNERS, double_elimination.LOSERS, double_elimination.FINAL):
        rounds = [
            {
                "number": matches[0].round,
                "name": bracket_label(matches[0].id),
                "tables": [_bracket_match(m, at.get(m.id)) for m in matches],
            }
            for matches in bracket.side(side)
        ]
        if rounds:
            sides.append({"name": SIDE_NAMES[side], "rounds": rounds})
    return {
        "format": tournament.format,
        "sides": sides,
        "champion": bracket.champion,
        "placings": [{"player": p, "place": place} for p, place in bracket.placings()]
        if bracket.champion
        else [],
    }


def _bracket_match(match: double_elimination.Match, table: Table | None) -> dict[str, Any]:
    return {
        "match": match.id,
        "table": table.number if table else None,
        "round": table.round.number if table else None,
        "players": list(match.players),
        "through": match.winner,
        "state": match.state,
    }


def pool_name(index: int) -> str:
    """Pools are named by letter, as on a venue's wall: A, B, ..."""
    return chr(ord("A") + index) if index < 26 else f"A{index - 25}"


def tournament_pools(
    tournament: Tournament, *, entries: list[Entry] | None = None
) -> list[list[str]]:
    """The pools of a pools tournament (league.pools): the field as round 1 found it, in seed
    order, dealt in snake order; before round 1, as it would be drawn now."""
    if entries is None:
        entries = list(tournament.entries.select_related("user"))
    field = [e.name for e in entries if in_field(e)]
    return pools.pools_of(field, tournament.pools)


def shown_code(code: str) -> str:
    """A walk-in's claim code as printed and read out: two groups of four."""
    return f"{code[:4]}-{code[4:]}" if code else ""


def walk_in_out(entry: Entry) -> dict[str, Any]:
    """A walk-in for the organisers: their name as a guest, the code to claim the entry (""
    once claimed) and who claimed it."""
    return {
        "player": guest_name(entry.guest),
        "code": shown_code(entry.claim_code),
        "claimed_by": entry.user.username if entry.user_id else None,
    }


def walk_ins(tournament: Tournament) -> list[dict[str, Any]]:
    return [walk_in_out(e) for e in tournament.entries.exclude(guest="").select_related("user")]


def draft_out(tournament: Tournament) -> dict[str, Any] | None:
    """The open draft of the next round (organisers' eyes only), with the pairs it seats
    again (``repeats``: table, players, times met before), or None."""
    draft = RoundDraft.objects.filter(tournament=tournament).first()
    if draft is None:
        return None
    claims = claims_of(tournament)
    past = [seat_names(t.game, claims) for t in tables_of(tournament)]
    return {
        "number": draft.number,
        "stage": draft.stage,
        "tables": [{"number": i, "seats": seats} for i, seats in enumerate(draft.tables, 1)],
        "byes": draft.byes,
        "repeats": [
            {"table": n, "players": [a, b], "times": times}
            for n, a, b, times in pairing.repeated_pairs(draft.tables, past)
        ],
    }


SEAT_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth")


def find_your_table(round_: dict[str, Any]) -> list[dict[str, Any]]:
    """Every player of a round (``round_out``) from A to Z with their table and seat in words,
    or a bye (``table`` None): the list a player reads at the door."""
    rows = [
        {"player": name, "table": table["number"], "seat": SEAT_WORDS[i]}
        for table in round_["tables"]
        for i, name in enumerate(table["seats"])
    ]
    rows += [{"player": name, "table": None, "seat": ""} for name in round_["byes"]]
    return sorted(rows, key=lambda row: (row["player"].casefold(), row["player"]))


def standings_round(tournament: Tournament, raw: str | None) -> int | None:
    """The round of ``?round=N`` for the standings after it: None without it; a clear
    error for anything but a round played so far."""
    if raw is None or raw == "":
        return None
    latest = live_rounds(tournament).filter(stage="main").count()
    number = inputs.whole_number_or_none(raw, 1, inputs.BIGINT)
    if number is None or number > latest:
        if not latest:
            raise InvalidInput("no round has been played yet: there are no standings by round")
        raise InvalidInput(f"round must be a round played so far, 1 to {latest}")
    return number


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
        "tiebreak_version": tournament.tiebreak_version,
        "advance": tournament.advance,
        "seeding": tournament.seeding,
        "league": tournament.league.slug if tournament.league else None,
        "time_control": tournament.time_control,
        "organisers": [u.username for u in tournament.organisers.all()],
        "players": [
            {
                "player": e.name,
                "walk_in": bool(e.guest),
                "seed": e.seed,
                "dropped": e.dropped,
                "waitlisted": e.waitlisted,
                "checked_in": e.checked_in,
                "answer": e.answer,
            }
            for e in tournament.entries.select_related("user")
        ],
        "rounds_played": [round_out(r) for r in live_rounds(tournament)],
        "entry_mode": tournament.entry_mode,
        "cap": tournament.cap,
        "check_in": tournament.check_in,
        "people_only": tournament.people_only,
        "vacation_allowed": tournament.vacation_allowed,
        "top_cut": tournament.top_cut,
        "avoid_club_rounds": tournament.avoid_club_rounds,
        "round_minutes": tournament.round_minutes,
        "elimination_ties": tournament.elimination_ties,
        "season": tournament.season.name if tournament.season else None,
        "pools": tournament.pools,
        "pool_advance": tournament.pool_advance,
        "grand_final_reset": tournament.grand_final_reset,
        "champion": tournament_champion(tournament),
    }


def tournament_champion(tournament: Tournament) -> str | None:
    """The champion the tournament's end named (its log), or None while it runs."""
    if tournament.status != Tournament.Status.FINISHED:
        return None
    end = tournament.log.filter(kind="TournamentFinished").order_by("-pk").first()
    return end.data.get("champion") if end else None


def tournament_placings(tournament: Tournament) -> list[dict[str, Any]]:
    """The final placings the end of an elimination event or top cut logged, best first:
    ``[{"place", "to", "player"}]`` (``to`` past ``place`` when shared); empty otherwise."""
    if tournament.status != Tournament.Status.FINISHED:
        return []
    end = tournament.log.filter(kind="TournamentFinished").order_by("-pk").first()
    return list(end.data.get("placings", [])) if end else []


def with_places(tournament: Tournament, rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings rows with each player's final ``place`` and ``place_to`` (None without)."""
    places = {p["player"]: p for p in tournament_placings(tournament)}
    return [
        {
            **row,
            "place": places[row["player"]]["place"] if row["player"] in places else None,
            "place_to": places[row["player"]]["to"] if row["player"] in places else None,
        }
        for row in rows
    ]


# -- a league's own standings ---------------------------------------------------------------------

STANDINGS_COLUMNS = (
    "player",
    "games",
    "wins",
    "points",
    "average_place",
    "elo",
    "rating",
    "deviation",
)


def league_games(league: League, *, season: Season | None = None) -> QuerySet[Game]:
    """The league's finished games in the order played: those recorded for it and those of
    its tournaments. With a season: the league's games played on the season's days, except a
    tournament's games, which count in their tournament's season (if it has one) whatever
    their date. Not those someone in them has not agreed to (league.consent): the ratings'
    ledger says which, once it has taken a game in."""
    games = (
        Game.objects.filter(status=GameStatus.FINISHED, result__isnull=False)
        .filter(
            Q(pk__in=League.games.through.objects.filter(league=league).values("game_id"))
            | Q(table__round__tournament__league=league)
        )
        .exclude(rated__consent__in=[RatedGame.Consent.WAITING, RatedGame.Consent.REFUSED])
    )
    if season is not None:
        days = Q(finished_at__date__gte=season.starts_on)
        if season.ends_on is not None:
            days &= Q(finished_at__date__lte=season.ends_on)
        games = games.filter(
            Q(table__round__tournament__season=season)
            | days & Q(table__round__tournament__season__isnull=True)
        )
    return games.order_by("finished_at", "pk")


@dataclass(frozen=True, slots=True)
class Finished:
    """What the standings read of one finished game."""

    pk: int
    slug: str
    finished_at: dt.datetime
    version: int
    result: GameResult


def finished(games: QuerySet[Game]) -> list[Finished]:
    """``games`` as the standings read them, in their order: two queries, the games' few
    columns and their seats' players (selected by the same filter, not by a list of ids), as
    plain values. Model rows cost several timestamps to parse each, which was most of a
    recompute's time (bench_scale.py)."""
    rows = list(games.values_list("pk", "slug", "finished_at", "version", "result"))
    if not rows:
        return []
    players: dict[int, dict[int, Any]] = {}
    seats = Seat.objects.filter(game__in=games.order_by().values("pk")).values_list(
        "game_id", "index", "user__username", "guest"
    )
    for game_id, index, username, guest in seats:
        # Members by username; a guest by a key no username can take.
        players.setdefault(game_id, {})[index] = username if username else ("guest", guest)
    out = []
    for pk, slug, finished_at, version, result in rows:
        by_seat = players.get(pk, {})
        out.append(
            Finished(
                pk=pk,
                slug=slug,
                finished_at=finished_at,
                version=version,
                result=GameResult(
                    players=tuple(by_seat[i] for i in sorted(by_seat)),
                    ranks=tuple(line["rank"] for line in result),
                    scores=tuple(line.get("score") for line in result),
                ),
            )
        )
    return out


def _rows(table: LeagueTable) -> list[dict[str, Any]]:
    # Whole days away: the same standings read twice in a day say the same.
    today = math.floor(day_number(timezone.now()))
    rows = []
    for line in table.standings():
        away = 0.0 if line.last_played is None else max(0, today - math.floor(line.last_played))
        rating = rating_scale.shown(line.rating, line.deviation, away)
        rows.append(
            {
                "player": line.player,
                "games": line.games,
                "wins": line.wins,
                "points": line.points,
                "average_place": line.average_place,
                "elo": line.elo,
                "rating": rating["rating"],
                "deviation": rating["deviation"],
                "provisional": rating["provisional"],
                "conservative": rating["conservative"],
            }
        )
    return rows


def _is_member(player) -> bool:
    """Members go by username; a guest by ("guest", name)."""
    return isinstance(player, str)


@dataclass
class KeptTables:
    """A league's standings (overall and per game type) over its games up to ``through``, the
    (finished_at, id) of the last one taken in, and what any change among those games changes:
    how many they are and the sums of their versions (every correction is an event) and ids."""

    through: tuple[dt.datetime, int] | None = None
    count: int = 0
    versions: int = 0
    ids: int = 0
    overall: LeagueTable = field(default_factory=lambda: LeagueTable(counts=_is_member))
    by_game: dict[str, LeagueTable] = field(default_factory=dict)

    def add(self, game: Finished) -> None:
        when = day_number(game.finished_at)
        self.overall.add(game.result, when)
        self.by_game.setdefault(game.slug, LeagueTable(counts=_is_member)).add(game.result, when)
        self.through = (game.finished_at, game.pk)
        self.count += 1
        self.versions += game.version
        self.ids += game.pk


# How long kept standings may go unread before the cache lets them go.
KEPT_TABLES_SECONDS = 24 * 3600
KEPT_SHAPE = 2  # 2: the league's own Glicko-2 ladder in each table


def kept_tables(league: League, *, season: Season | None = None) -> KeptTables:
    """The league's standings, kept in the cache between requests and carried on with the
    games finished since they were kept: one aggregate query when nothing has changed. When a
    game taken in before has changed (a correction) or the games up to ``through`` are no longer
    the same (a season's days moved, an older record imported), they are computed again from
    every game (:func:`tables_recomputed`)."""
    # The key names the shape of what it holds: bump KEPT_SHAPE when KeptTables or
    # league.standings.LeagueTable change, so that no process reads the old shape as the new.
    key = f"hadal:league-tables:{KEPT_SHAPE}:{league.pk}:{season.pk if season else 'all'}"
    games = league_games(league, season=season)
    try:
        kept = cache.get(key)
    except Exception:  # the cache is down: the standings are computed, as without it
        logger.warning("could not read the kept standings of %s", league.slug, exc_info=True)
        kept = None
    if kept is not None and kept.through is not None:
        at, pk = kept.through
        before = Q(finished_at__lt=at) | Q(finished_at=at, pk__lte=pk)
        seen = games.order_by().aggregate(
            count=Count("pk", filter=before),
            versions=Sum("version", filter=before),
            ids=Sum("pk", filter=before),
            after=Count("pk", filter=~before),
        )
        if (seen["count"], seen["versions"] or 0, seen["ids"] or 0) != (
            kept.count,
            kept.versions,
            kept.ids,
        ):
            kept = None
        elif seen["after"] == 0:
            return kept
        else:
            games = games.filter(~before)
    else:
        kept = None
    if kept is None:
        kept = KeptTables()
    for game in finished(games):
        kept.add(game)
    try:
        cache.set(key, kept, KEPT_TABLES_SECONDS)
    except Exception:
        logger.warning("could not keep the standings of %s", league.slug, exc_info=True)
    return kept


def tables_recomputed(league: League, *, season: Season | None = None) -> KeptTables:
    """The same standings computed from every game, kept nowhere."""
    kept = KeptTables()
    for game in finished(league_games(league, season=season)):
        kept.add(game)
    return kept


def league_table(
    league: League, *, season: Season | None = None, slug: str | None = None
) -> list[dict[str, Any]]:
    """The standings over the league's games (of one game type, with ``slug``), in standing
    order; see league.standings.league_standings for the points, the tie rule and the Elo."""
    kept = kept_tables(league, season=season)
    table = kept.overall if slug is None else kept.by_game.get(slug)
    return [] if table is None else _rows(table)


def league_tables(league: League, *, season: Season | None = None) -> dict[str, Any]:
    """Overall and per game type: for the league page."""
    return standings_out(kept_tables(league, season=season))


def standings_out(kept: KeptTables) -> dict[str, Any]:
    return {
        "overall": _rows(kept.overall),
        "games": [
            {"game": slug, "name": game_name(slug), "rows": _rows(kept.by_game[slug])}
            for slug in sorted(kept.by_game)
        ],
    }


def current_season(league: League, seasons: list[Season] | None = None) -> Season | None:
    """The season today falls in, if any."""
    today = timezone.localdate()
    for season in league.seasons.all() if seasons is None else seasons:
        if season.contains(today):
            return season
    return None


def season_named(league: League, raw: str | int | None) -> Season | None:
    """A season of this league from a query parameter (an id); None for none given."""
    if raw in (None, ""):
        return None
    try:
        number = int(raw)
    except (TypeError, ValueError):
        raise InvalidInput(f"season must be the id of one of {league.name}'s seasons") from None
    season = league.seasons.filter(pk=number).first()
    if season is None:
        raise UnknownName(f"{league.name} has no season {number}")
    return season


def game_named(raw: str | None) -> str | None:
    if raw in (None, ""):
        return None
    if raw not in game_types():
        raise InvalidInput(f"unknown game {raw!r}; known: {', '.join(game_types())}")
    return raw


def standings_csv(rows: list[dict[str, Any]]) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["place", *STANDINGS_COLUMNS])
    for place, row in enumerate(rows, start=1):
        writer.writerow(
            [
                place,
                row["player"],
                row["games"],
                row["wins"],
                f"{row['points']:g}",
                f"{row['average_place']:.2f}",
                f"{row['elo']:.1f}",
            ]
        )
    return out.getvalue()


# -- a player's page ------------------------------------------------------------------------------

RESULTS = ("won", "lost")  # the history's result filter: ranked first (a shared first too), or not


@dataclass(frozen=True)
class Played:
    """One finished game as one player played it."""

    game: Game
    rank: int
    score: float | None
    players: int
    leagues: tuple[tuple[str, str], ...]  # (slug, name) of the leagues it counts for

    @property
    def won(self) -> bool:
        return self.rank == min(line["rank"] for line in self.game.result)


def games_played(user, *, viewer) -> list[Played]:
    """Every finished game ``user`` sat at that ``viewer`` may know of (games.audience), newest
    first, with the leagues it counts for: three queries, however many games."""
    seats = (
        Seat.objects.filter(user=user, game__status=GameStatus.FINISHED, game__result__isnull=False)
        .select_related("game")
        .order_by("-game__finished_at", "-game_id")
    )
    mine = Seat.objects.filter(user=user).values("game_id")
    if not audience.sees_everything(viewer) and viewer != user:
        shown = audience.visible(Game.objects.filter(pk__in=mine), viewer).values("pk")
        seats = seats.filter(game_id__in=shown)
        mine = shown
    clubs: dict[int, set[tuple[str, str]]] = {}
    recorded = League.games.through.objects.filter(game_id__in=mine).values_list(
        "game_id", "league__slug", "league__name"
    )
    held = Table.objects.filter(
        game_id__in=mine, round__tournament__league__isnull=False
    ).values_list("game_id", "round__tournament__league__slug", "round__tournament__league__name")
    for game_id, slug, name in [*recorded, *held]:
        clubs.setdefault(game_id, set()).add((slug, name))
    played = []
    for seat in seats:
        game = seat.game
        if seat.index >= len(game.result):
            continue
        line = game.result[seat.index]
        played.append(
            Played(
                game=game,
                rank=line["rank"],
                score=line.get("score"),
                players=len(game.result),
                leagues=tuple(sorted(clubs.get(game.pk, ()))),
            )
        )
    return played


def game_summaries(played: list[Played]) -> dict[str, dict[str, Any]]:
    """Per game type: games, wins, win rate, average score (of the games with a score) and
    place, and the best result (the best place, then the highest score)."""
    by_slug: dict[str, list[Played]] = {}
    for p in played:
        by_slug.setdefault(p.game.slug, []).append(p)
    out = {}
    for slug, games in sorted(by_slug.items()):
        scores = [p.score for p in games if p.score is not None]
        wins = sum(p.won for p in games)
        best = min(games, key=lambda p: (p.rank, -(p.score if p.score is not None else -1e18)))
        out[slug] = {
            "game": slug,
            "name": game_name(slug),
            "games": len(games),
            "wins": wins,
            "win_rate": wins / len(games),
            "average_score": sum(scores) / len(scores) if scores else None,
            "average_place": sum(p.rank for p in games) / len(games),
            "best": best,
        }
    return out


def rating_histories(user, *, viewer) -> dict[str, list[tuple[dt.date, float, int, float, float]]]:
    """Per game type, (date, rating after, game id, deviation after, change) per rated game
    ``viewer`` may know of, oldest first: the rating shown (league.rating_scale), as each game
    left it."""
    out: dict[str, list[tuple[dt.date, float, int, float, float]]] = {}
    changes = RatingChange.objects.filter(user=user).order_by("finished_at", "game_id")
    if not audience.sees_everything(viewer) and viewer != user:
        changes = changes.filter(game__in=audience.visible(Game.objects.all(), viewer))
    for slug, when, before, after, deviation, game_id in changes.values_list(
        "slug",
        "finished_at",
        "glicko_rating_before",
        "glicko_rating_after",
        "glicko_deviation_after",
        "game_id",
    ):
        out.setdefault(slug, []).append(
            (timezone.localdate(when), after, game_id, deviation, after - before)
        )
    return out


def player_ratings(user) -> QuerySet[Rating]:
    """A player's ratings, each with when they last played that game (``shown_rating``)."""
    return Rating.objects.filter(user=user).order_by("slug").annotate(last_played=_last_played())


def filter_played(
    played: list[Played],
    *,
    slug: str | None = None,
    league: str | None = None,
    result: str | None = None,
) -> list[Played]:
    return [
        p
        for p in played
        if (slug is None or p.game.slug == slug)
        and (league is None or league in {club for club, _ in p.leagues})
        and (result is None or p.won == (result == "won"))
    ]


def opponents(games: list[Game], user) -> dict[int, list[str]]:
    """For each game, who else sat there (guests marked), in seat order: one query."""
    out: dict[int, list[str]] = {g.pk: [] for g in games}
    seats = Seat.objects.filter(game__in=games).select_related("user").order_by("game_id", "index")
    for seat in seats:
        if seat.user_id != user.pk:
            out[seat.game_id].append(
                seat.user.username if seat.user_id else f"{seat.guest} (guest)"
            )
    return out


def head_to_head(user, other, played: list[Played]) -> dict[str, Any]:
    """Over the finished games both sat at: how often each finished ahead of the other, per
    game type and in all."""
    mine = {p.game.pk: p for p in played}
    theirs = Seat.objects.filter(
        user=other, game__status=GameStatus.FINISHED, game__seats__user=user
    ).values_list("game_id", "index")
    rows: dict[str, dict[str, Any]] = {}
    total = {"games": 0, "ahead": 0, "behind": 0, "level": 0}
    for game_id, index in theirs:
        p = mine.get(game_id)
        if p is None or index >= len(p.game.result):
            continue
        their_rank = p.game.result[index]["rank"]
        outcome = "ahead" if p.rank < their_rank else "behind" if p.rank > their_rank else "level"
        row = rows.setdefault(
            p.game.slug,
            {
                "game": p.game.slug,
                "name": game_name(p.game.slug),
                "games": 0,
                "ahead": 0,
                "behind": 0,
                "level": 0,
            },
        )
        for counts in (row, total):
            counts["games"] += 1
            counts[outcome] += 1
    return {
        "opponent": other.username,
        "total": total,
        "games": sorted(rows.values(), key=lambda r: r["name"]),
    }


SKIPPED_WORDS = {
    "fewer than two members": "fewer than two members played",
    "one player held several seats": "one player held several seats",
}


def rating_changes_of(game: Game) -> dict:
    """What a finished game did to its players' ratings, the ones shown (Glicko-2, with the
    margin the game left): the changes, or why it was not rated (or is not yet: ``held``), or
    neither while the rating is under way."""
    changes = [
        {
            "player": player_words(c.user.username),
            "before": c.glicko_rating_before,
            "after": c.glicko_rating_after,
            "deviation": c.glicko_deviation_after,
            "delta": c.glicko_rating_after - c.glicko_rating_before,
        }
        for c in RatingChange.objects.filter(game=game).select_related("user").order_by("seat")
    ]
    marker = RatedGame.objects.filter(game=game).values_list("skipped", "consent").first()
    skipped, agreement = marker or ("", RatedGame.Consent.AGREED)
    return {
        "changes": changes,
        "skipped": SKIPPED_WORDS.get(skipped, skipped),
        # not rated yet: waiting for someone's agreement (league.consent)
        "held": agreement == RatedGame.Consent.WAITING,
    }


def games_without_vacation(game_ids) -> set[int]:
    """Those of ``game_ids`` that are tables of a tournament not allowing vacations."""
    tables = Table.objects.filter(
        game_id__in=list(game_ids), round__tournament__vacation_allowed=False
    )
    return set(tables.values_list("game_id", flat=True))
