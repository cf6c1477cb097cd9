"""Tournament services: create, pair rounds, report results, standings, drops and late entry.

The maths is pure (league/pairing.py, league/standings.py); this module feeds it from the
database and writes what it decides. Online tables are games played in the service and report
themselves when they end; table-mode tables are recorded games whose seated players report
and confirm (games/records.py). Every organiser action is logged in TournamentEvent.
"""

from __future__ import annotations

import csv
import io
import random
from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.urls import reverse

from accounts.bots import bot_level, bot_user
from accounts.errors import InvalidInput, NotYourSeat, RuleViolation
from games import inputs, records, store
from games import services as game_services
from games.catalog import game_type
from games.models import EventKind, Game, GameStatus
from games.rules import get_rules
from games.signals import round_paired
from games.store import NewEvent
from league import pairing
from league.models import Entry, Rating, Round, Table, Tournament, TournamentEvent
from league.ratings import DEFAULT_RATING
from league.selectors import (
    is_league_organiser,
    is_tournament_organiser,
    live_rounds,
    seat_names,
    tables_of,
    tournament_standings,
)
from league.standings import DEFAULT_PLACEMENT_POINTS, TIEBREAKS, fallback_placement

User = get_user_model()
STARTING_BID_GAMES = records.BID_GAMES


# -- creating -------------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(
    *,
    name: Any,
    game: Any,
    format: Any,
    table_size: Any,
    rounds: Any,
    mode: Any,
    players: Any,
    created_by,
    options: Any = None,
    league=None,
    bye_points: Any = 0,
    placement_points: Any = None,
    tiebreaks: Any = None,
    advance: Any = 1,
    time_control: Any = None,
    seeding: Any = Tournament.Seeding.ENTRY,
) -> Tournament:
    """A tournament with its entries. ``seeding`` orders the seeds, which pair round 1: the
    order given (``entry``), Elo in the game, highest first, with the unrated at the default
    rating and ties in the order given (``rating``), or a draw (``random``). The entry order,
    the seeding and the seeds are logged."""
    name = inputs.text(name, "name", 100)
    try:
        kind = game_type(game)
    except (KeyError, TypeError):
        raise InvalidInput(f"unknown game {game!r}") from None
    if format not in Tournament.Format.values:
        raise InvalidInput(f"format must be one of {', '.join(Tournament.Format.values)}")
    if mode not in Tournament.Mode.values:
        raise InvalidInput(f"mode must be one of {', '.join(Tournament.Mode.values)}")
    if mode == Tournament.Mode.ONLINE and not kind.playable:
        raise InvalidInput(f'{kind.name} is recorded from tables only: use mode "table"')
    table_size = _whole(table_size, "table_size", 2, 4)
    if not kind.min_players <= table_size <= kind.max_players:
        raise InvalidInput(f"{kind.name} is played by {kind.min_players} to {kind.max_players}")
    rounds = _whole(rounds, "rounds", 1, 50)
    advance = _whole(advance, "advance", 1, table_size - 1) if format == "elimination" else 1
    options = _game_options(kind.slug, mode, options)
    if seeding not in Tournament.Seeding.values:
        raise InvalidInput(f"seeding must be one of {', '.join(Tournament.Seeding.values)}")
    users = _players(players)
    if len(users) < 2:
        raise InvalidInput("a tournament needs at least two players")
    _check_field(format, len(users), table_size, advance)
    placement = _placement(placement_points, table_size)
    order = _tiebreaks(tiebreaks)
    if inputs.score(bye_points, "bye_points") is None or bye_points < 0:
        raise InvalidInput("bye_points must be a number from 0")
    if league is not None and not is_league_organiser(league, created_by):
        raise NotYourSeat("only the league's organisers may hold its tournaments")
    if time_control is not None:
        if mode != Tournament.Mode.ONLINE:
            raise InvalidInput("time_control is for online tournaments")
        game_services.parse_time_control(time_control)
    tournament = Tournament.objects.create(
        name=name,
        slug=kind.slug,
        format=format,
        table_size=table_size,
        rounds=rounds,
        mode=mode,
        options=options,
        placement_points=placement,
        tiebreaks=order,
        bye_points=bye_points,
        advance=advance,
        seeding=seeding,
        league=league,
        time_control=time_control,
        created_by=created_by,
    )
    tournament.organisers.add(created_by)
    seeded = _seed(users, seeding, kind.slug)
    Entry.objects.bulk_create(
        [Entry(tournament=tournament, user=u, seed=i + 1) for i, u in enumerate(seeded)]
    )
    _log(
        tournament,
        "TournamentCreated",
        created_by,
        {
            "players": [u.username for u in users],
            "seeding": seeding,
            "seeds": [u.username for u in seeded],
        },
    )
    return tournament


def _seed(users: list, seeding: str, slug: str) -> list:
    if seeding == Tournament.Seeding.RANDOM:
        drawn = list(users)
        random.SystemRandom().shuffle(drawn)
        return drawn
    if seeding == Tournament.Seeding.RATING:
        elo = dict(
            Rating.objects.filter(slug=slug, user__in=users).values_list("user_id", "rating")
        )
        return sorted(users, key=lambda u: -elo.get(u.pk, DEFAULT_RATING))  # stable on ties
    return list(users)


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be a whole number from {low} to {high}")
    return value


def _check_field(format: str, players: int, table_size: int, advance: int) -> None:
    """Refuse a field no round could seat, and an elimination event some round of which would
    eliminate nobody (league.pairing.elimination_field says which)."""
    try:
        if format == Tournament.Format.ELIMINATION:
            pairing.elimination_field(players, table_size, advance)
        elif not pairing.table_sizes(players, table_size)[0]:
            raise ValueError(f"{players} players cannot fill a table of {table_size}")
    except ValueError as exc:
        raise InvalidInput(str(exc)) from None


def _game_options(slug: str, mode: str, options: Any) -> dict[str, Any]:
    if options is not None and not isinstance(options, dict):
        raise InvalidInput("options must be an object")
    options = dict(options or {})
    if slug in STARTING_BID_GAMES:
        options.setdefault("starting_bid", True)  # tournaments bid for first player
    if mode == Tournament.Mode.ONLINE:
        try:
            spec = get_rules(slug).spec
            return spec.validate(spec.min_players, options)
        except ValueError as exc:
            raise InvalidInput(str(exc)) from None
    return options


def _players(players: Any) -> list:
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise InvalidInput("players must be a list of usernames")
    if len(set(players)) != len(players):
        raise InvalidInput("a player is entered twice")
    return [_player(name) for name in players]


def _player(name: Any):
    """An entrant: a member, or a bot player (created on entry, so a tournament of bots can
    be held)."""
    name = inputs.text(name, "player", 150)
    level = bot_level(name)
    if level is not None:
        return bot_user(level, name)
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None:
        raise InvalidInput(f"no player {name!r}")
    return user


def _placement(points: Any, table_size: int) -> dict[str, list[float]]:
    """Points by place per table size: the defaults, then what the organiser gave; a smaller
    size the organiser did not give scores on the full table's scale (``fallback_placement``)."""
    table = {str(size): list(values) for size, values in DEFAULT_PLACEMENT_POINTS.items()}
    if points is None:
        points = {}
    if not isinstance(points, dict):
        raise InvalidInput('placement_points must be {"2": [1, 0], "3": [5, 3, 1], ...}')
    for size, values in points.items():
        if (
            str(size) not in {"2", "3", "4"}
            or not isinstance(values, list)
            or len(values) != int(size)
            or not all(_finite(v) for v in values)
        ):
            raise InvalidInput(f"placement_points[{size!r}] must list {size} numbers")
        table[str(size)] = values
    scaled = fallback_placement(
        {int(size): values for size, values in table.items()},
        table_size,
        given=[int(size) for size in points],
    )
    return {str(size): values for size, values in scaled.items()}


def _finite(value: Any) -> bool:
    try:
        return inputs.score(value, "a number") is not None
    except InvalidInput:
        return False


def _tiebreaks(names: Any) -> list[str]:
    if names is None:
        return list(TIEBREAKS)
    if (
        not isinstance(names, list)
        or not all(n in TIEBREAKS for n in names)
        or len(set(names)) != len(names)
    ):
        raise InvalidInput(f"tiebreaks must be a list from: {', '.join(TIEBREAKS)}")
    return names


def _log(tournament: Tournament, kind: str, actor, data: dict[str, Any]) -> None:
    TournamentEvent.objects.create(tournament=tournament, kind=kind, actor=actor, data=data)


def _require_organiser(tournament: Tournament, user) -> None:
    if not is_tournament_organiser(tournament, user):
        raise NotYourSeat("only the tournament's organisers may do that")


# -- pairing --------------------------------------------------------------------------------------


def round_pair(*, tournament: Tournament, by: AbstractUser) -> Round:
    """Pair the next round: the previous one must be complete. Once every round is played,
    the tournament is marked finished and this says so."""
    round_ = _pair_next(tournament, by)
    if round_ is None:
        raise RuleViolation("the tournament is over: every round has been played")
    return round_


@transaction.atomic
def _pair_next(tournament: Tournament, by) -> Round | None:
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.status == Tournament.Status.FINISHED:
        return None
    done = list(live_rounds(tournament))
    if done and not _complete(done[-1]):
        raise RuleViolation(f"round {done[-1].number} is not complete yet")
    number = len(done) + 1
    pairing_ = None
    if number <= _round_limit(tournament):
        pairing_ = _next_pairing(tournament, number, done)
    if pairing_ is None:
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status"])
        _log(tournament, "TournamentFinished", by, {"rounds": len(done)})
        return None
    round_ = _write_round(tournament, number, 1, pairing_, by)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return round_


def _round_limit(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.ELIMINATION:
        return 10_000  # until one player is left
    return tournament.rounds


def _complete(round_: Round) -> bool:
    return not round_.tables.exclude(game__status=GameStatus.FINISHED).exists()


def _active_players(tournament: Tournament, number: int) -> list[str]:
    """Entrants in seed order who play round ``number``: not dropped before it."""
    return [
        e.user.username
        for e in tournament.entries.select_related("user")
        if e.entered_after_round < number
        and (e.dropped_after_round is None or e.dropped_after_round >= number)
    ]


def _next_pairing(tournament: Tournament, number: int, done: list[Round]):
    players = _active_players(tournament, number)
    past = [seat_names(t.game) for t in tables_of(tournament)]
    first_seats = Counter(seats[0] for seats in past)
    rng = random.Random(f"{tournament.pk}:{number}")
    if tournament.format == Tournament.Format.SWISS and not done:
        return pairing.swiss_first_round(players, tournament.table_size, first_seats=first_seats)
    if tournament.format == Tournament.Format.SWISS:
        points = {row["player"]: row["points"] for row in tournament_standings(tournament)}
        byes_had = Counter(e.user.username for r in done for e in r.byes.select_related("user"))
        return pairing.swiss_round(
            players,
            points,
            past,
            tournament.table_size,
            byes_had=byes_had,
            first_seats=first_seats,
            rng=rng,
        )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        everyone = [e.user.username for e in tournament.entries.select_related("user")]
        schedule = pairing.round_robin(
            everyone,
            tournament.table_size,
            tournament.rounds,
            rng=random.Random(f"{tournament.pk}:schedule"),
        )
        if number > len(schedule):
            return None
        planned = schedule[number - 1]
        playing = set(players)
        tables = [[p for p in table if p in playing] for table in planned.tables]
        byes = [p for p in planned.byes if p in playing]
        byes += [p for table in tables if len(table) == 1 for p in table]
        return pairing.Pairing(
            tables=[pairing.seat_order(t, first_seats) for t in tables if len(t) >= 2], byes=byes
        )
    if not done:
        return pairing.elimination_first_round(
            players, tournament.table_size, first_seats=first_seats
        )
    ranked = [
        _finishing_order(t)
        for t in done[-1].tables.select_related("game").prefetch_related("game__seats__user")
    ]
    # A bye goes through, as the winner of a table of one.
    ranked += [[e.user.username] for e in done[-1].byes.select_related("user")]
    playing = set(players)
    ranked = [[p for p in table if p in playing] for table in ranked]
    return pairing.elimination_round(
        [t for t in ranked if t],
        tournament.advance,
        tournament.table_size,
        first_seats=first_seats,
        rng=rng,
    )


def _finishing_order(table: Table) -> list[str]:
    names = seat_names(table.game)
    ranks = [r["rank"] for r in table.game.result]
    scores = [r["score"] if r["score"] is not None else float("-inf") for r in table.game.result]
    return [names[i] for i in sorted(range(len(names)), key=lambda i: (ranks[i], -scores[i], i))]


def _write_round(tournament: Tournament, number: int, attempt: int, pairing_, by) -> Round:
    round_ = Round.objects.create(tournament=tournament, number=number, attempt=attempt)
    entries = {e.user.username: e for e in tournament.entries.select_related("user")}
    paired: list[tuple[int | None, list[int]]] = []
    for index, seats in enumerate(pairing_.tables, start=1):
        game = _table_game(tournament, seats, by)
        Table.objects.create(round=round_, number=index, game=game)
        paired.append((game.pk, [entries[name].user_id for name in seats]))
    round_.byes.set([entries[name] for name in pairing_.byes])
    paired.append((None, [entries[name].user_id for name in pairing_.byes]))
    transaction.on_commit(lambda: _announce_round(tournament, number, paired))
    _log(
        tournament,
        "RoundPaired",
        by,
        {
            "round": number,
            "attempt": attempt,
            "tables": [list(t) for t in pairing_.tables],
            "byes": list(pairing_.byes),
        },
    )
    return round_


def _announce_round(
    tournament: Tournament, number: int, paired: list[tuple[int | None, list[int]]]
) -> None:
    """Tell each player's stream (games.notices) where they play the round just paired."""
    url = reverse("tournament-detail", args=[tournament.pk])
    for game_id, user_ids in paired:
        notice = {"tournament": tournament.name, "round": number, "game": game_id, "url": url}
        round_paired.send_robust(sender=Tournament, user_ids=user_ids, notice=notice)


def _table_game(tournament: Tournament, seats: list[str], by) -> Game:
    if tournament.mode == Tournament.Mode.TABLE:
        return records.table_game_create(
            slug=tournament.slug,
            users=[_player(n) for n in seats],
            created_by=by,
            options=tournament.options,
        )
    return game_services.game_create(
        slug=tournament.slug,
        seats=[{"user": n} for n in seats],
        options=tournament.options,
        created_by=by,
        time_control=tournament.time_control,
        seated=True,
    )


@transaction.atomic
def round_repair(*, tournament: Tournament, number: int, by: AbstractUser) -> Round:
    """Pair round ``number`` again (late entries, drops) while none of its tables has a result
    and no online game at it has seen a player's move. The old games are voided, not deleted."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    rounds = list(live_rounds(tournament))
    if not rounds or rounds[-1].number != number:
        raise RuleViolation("only the latest round can be paired again")
    current = rounds[-1]
    for table in current.tables.select_related("game"):
        game = table.game
        if (
            game.status != GameStatus.ACTIVE
            or game.events.filter(
                kind__in=[EventKind.ACTION_APPLIED, EventKind.RESULT_REPORTED]
            ).exists()
        ):
            raise RuleViolation(
                f"table {table.number} has started or has a result: "
                "this round can no longer be paired again"
            )
    for table in current.tables.select_related("game"):
        store.append(
            table.game,
            table.game.version,
            [NewEvent(EventKind.GAME_VOIDED, {"reason": "round paired again"}, actor_id=by.pk)],
            projection={"status": GameStatus.VOID, "current_player": None},
        )
    current.void = True
    current.save(update_fields=["void"])
    # Whoever entered while this round was waiting plays it now.
    tournament.entries.filter(entered_after_round=number).update(entered_after_round=number - 1)
    pairing_ = _next_pairing(tournament, number, rounds[:-1])
    return _write_round(tournament, number, current.attempt + 1, pairing_, by)


# -- entries --------------------------------------------------------------------------------------


@transaction.atomic
def entry_add(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A late entry: plays from the next round paired."""
    _require_organiser(tournament, by)
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    if tournament.format != Tournament.Format.SWISS and tournament.round_set.exists():
        raise RuleViolation("late entry is only possible in a Swiss tournament once it runs")
    user = _player(player)
    if tournament.entries.filter(user=user).exists():
        raise RuleViolation(f"{player} has already entered")
    played = live_rounds(tournament).count()
    seed = (tournament.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1
    entry = Entry.objects.create(
        tournament=tournament, user=user, seed=seed, entered_after_round=played
    )
    _log(tournament, "EntryAdded", by, {"player": player, "after_round": played})
    return entry


@transaction.atomic
def entry_drop(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A drop: no further pairings; the games already played stand. A player may drop
    themself; the organisers may drop anyone."""
    player = inputs.text(player, "player", 150)
    entry = tournament.entries.select_related("user").filter(user__username=player).first()
    if entry is None:
        raise InvalidInput(f"{player!r} has not entered this tournament")
    if by.pk != entry.user_id:
        _require_organiser(tournament, by)
    if entry.dropped:
        raise RuleViolation(f"{player} has already dropped")
    entry.dropped_after_round = live_rounds(tournament).count()
    entry.save(update_fields=["dropped_after_round"])
    _log(
        tournament, "EntryDropped", by, {"player": player, "after_round": entry.dropped_after_round}
    )
    return entry


# -- results of table-mode tables -----------------------------------------------------------------


def table_get(tournament: Tournament, table_id: Any) -> Table:
    table = (
        (
            Table.objects.filter(pk=table_id, round__tournament=tournament, round__void=False)
            .select_related("game")
            .first()
        )
        if str(table_id).isascii() and str(table_id).isdigit()
        else None
    )
    if table is None:
        raise InvalidInput(f"no table {table_id!r} in this tournament")
    return table


def table_report(
    *, tournament: Tournament, table: Table, user, results: Any, bid: Any = None
) -> dict[str, Any]:
    _check_bid(tournament, bid)
    return records.result_report(game=table.game, user=user, results=results, bid=bid)


def table_confirm(
    *,
    tournament: Tournament,
    table: Table,
    user: AbstractUser,
    results: list[dict[str, Any]],
    bid: Any = records.UNSTATED,
) -> dict[str, Any]:
    """A seated player confirms the report; stating another winning bid disputes it."""
    if bid is not records.UNSTATED:
        _check_bid(tournament, bid)
    return records.result_confirm(game=table.game, user=user, results=results, bid=bid)


def table_override(
    *, tournament: Tournament, table: Table, by, results: Any, bid: Any = None
) -> dict[str, Any]:
    _require_organiser(tournament, by)
    _check_bid(tournament, bid)
    return records.result_override(game=table.game, by=by, results=results, bid=bid)


def _check_bid(tournament: Tournament, bid: Any) -> None:
    if bid is not None and not tournament.options.get("starting_bid"):
        raise InvalidInput("this tournament does not bid for first player")


# -- export ---------------------------------------------------------------------------------------


def standings_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["position", "player", "points", *tournament.tiebreaks, "games", "wins", "byes", "dropped"]
    )
    for position, row in enumerate(tournament_standings(tournament), start=1):
        writer.writerow(
            [
                position,
                row["player"],
                row["points"],
                *row["tiebreaks"],
                row["games"],
                row["wins"],
                row["byes"],
                row["dropped"],
            ]
        )
    return out.getvalue()


def results_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["round", "table", "game", "seat", "player", "rank", "score", "status", "winning bid"]
    )
    tables = list(tables_of(tournament))
    # The bid reported (or settled) at each table played on a table; on its winner's row.
    bids = {
        pk: state["bid"]
        for pk, state in records.result_states(
            [t.game_id for t in tables if t.game.mode == "record"]
        ).items()
    }
    for table in tables:
        names = seat_names(table.game)
        result = table.game.result or [{"rank": "", "score": ""}] * len(names)
        bid = bids.get(table.game_id) or {}
        for seat, (name, entry) in enumerate(zip(names, result)):
            writer.writerow(
                [
                    table.round.number,
                    table.number,
                    table.game.pk,
                    seat,
                    name,
                    entry["rank"],
                    entry["score"],
                    table.game.status,
                    bid["amount"] if bid.get("player") == name else "",
                ]
            )
    for round_ in live_rounds(tournament):
        for entry in round_.byes.select_related("user"):
            writer.writerow([round_.number, "", "", "", entry.user.username, "", "", "bye", ""])
    return out.getvalue()
