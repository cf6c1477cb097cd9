"""Tournament services: create, pair rounds, report results, standings, drops and late entry.

The maths is pure (league/pairing.py, league/standings.py); this module feeds it from the
database and writes what it decides. Online tables are games played in the service and report
themselves when they end; table-mode tables are recorded games whose seated players report
and confirm (games/records/services.py). Every organiser action is logged in TournamentEvent.
"""

from __future__ import annotations

import csv
import functools
import io
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import connection, transaction
from django.utils import timezone

from accounts.bots import bot_level, bot_user, is_bot, is_house_bot
from core import inputs
from core.direct import fetch_all
from core.errors import (
    Conflict,
    InvalidInput,
    NotYourSeat,
    Refused,
    RuleViolation,
    ServiceError,
    UnknownName,
)
from games.models import Game, GameStatus
from games.play import reads as game_reads
from games.play import services as game_services
from games.play import steps
from games.records import reads as record_reads
from games.records import table_results
from league import notices, pairing, permissions
from league.models import (
    Entry,
    Membership,
    RatedGame,
    Rating,
    Round,
    Table,
    Tournament,
    TournamentEvent,
)
from league.ratings import DEFAULT_RATING
from league.selectors import (
    is_league_organiser,
    is_tournament_organiser,
    live_rounds,
    online_bids,
    seat_names,
    tables_of,
    tournament_standings,
)
from league.tasks import rate_finished_games
from league.tournament_spec import TournamentSpec, check_field
from league.webhooks import outbox

User = get_user_model()


# -- creating -------------------------------------------------------------------------------------


@transaction.atomic
def tournament_create(*, spec: TournamentSpec, created_by: AbstractUser) -> Tournament:
    """The tournament ``spec`` describes (its settings checked as it was made), with its
    entries, seeded as it says. The entry order, the seeding and the seeds are logged."""
    users = [_player(name, people_only=spec.people_only) for name in spec.players]
    if spec.league is not None and not is_league_organiser(spec.league, created_by):
        raise NotYourSeat("only the league's organisers may hold its tournaments")
    tournament = Tournament.objects.create(
        name=spec.name,
        slug=spec.game,
        format=spec.format,
        table_size=spec.table_size,
        rounds=spec.rounds,
        mode=spec.mode,
        options=spec.options,
        placement_points=spec.placement_points,
        tiebreaks=spec.tiebreaks,
        bye_points=spec.bye_points,
        advance=spec.advance,
        seeding=spec.seeding,
        league=spec.league,
        season=spec.season,
        time_control=spec.time_control,
        created_by=created_by,
        entry_mode=spec.entry_mode,
        cap=spec.cap,
        check_in=spec.check_in,
        people_only=spec.people_only,
        vacation_allowed=spec.vacation_allowed,
        top_cut=spec.top_cut,
        avoid_club_rounds=spec.avoid_club_rounds,
        round_minutes=spec.round_minutes,
    )
    tournament.organisers.add(created_by)
    seeded = _seed(users, spec.seeding, spec.game)
    Entry.objects.bulk_create(
        [
            Entry(tournament=tournament, user=u, seed=i + 1, answer=_answer(u, created_by))
            for i, u in enumerate(seeded)
        ]
    )
    _log(
        tournament,
        "TournamentCreated",
        created_by,
        {
            "players": [u.username for u in users],
            "seeding": spec.seeding,
            "seeds": [u.username for u in seeded],
        },
    )
    if tournament.check_in:
        for user in seeded:
            notices.check_in_open(tournament, user.pk)
    return tournament


def _answer(user, by) -> str:
    """An entry's answer as it is made: entering oneself is agreeing (and a house bot has
    nobody to ask; a bot account's member answers through the API); an organiser entering
    someone asks them (league.consent: their games wait)."""
    if user.pk == by.pk or is_house_bot(user):
        return Entry.Answer.ACCEPTED
    return Entry.Answer.INVITED


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


def _player(name: Any, *, people_only: bool = False):
    """An entrant: a member, or a bot player (created on entry, so a tournament of bots can
    be held); with ``people_only``, no bot of either kind."""
    name = inputs.text(name, "player", 150)
    level = bot_level(name)
    if level is not None:
        if people_only:
            raise Refused(_bots_out(name))
        return bot_user(level, name)
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None:
        raise UnknownName(f"no player {name!r}")
    if people_only and is_bot(user):
        raise Refused(_bots_out(name))
    return user


def _bots_out(name: str) -> str:
    return f"{name} is a bot, and this tournament is for people only"


def _log(tournament: Tournament, kind: str, actor, data: dict[str, Any]) -> None:
    TournamentEvent.objects.create(tournament=tournament, kind=kind, actor=actor, data=data)


def _require_organiser(tournament: Tournament, user) -> None:
    if not is_tournament_organiser(tournament, user):
        raise NotYourSeat("only the tournament's organisers may do that")


# -- pairing --------------------------------------------------------------------------------------


def round_pair(*, tournament: Tournament, by: AbstractUser) -> Round:
    """Pair the next round: the previous one must be complete. Round 1 closes registration
    (with check-in, whoever has not checked in is dropped). Once every round is played, the
    tournament is marked finished (it ends by itself when its last table ends) and this says
    so."""
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
    if number == 1:
        _close_registration(tournament, by)
    if _over(tournament, done):
        _finish(tournament, by, done)
        return None
    pairing_ = _next_pairing(tournament, number, done)
    assert pairing_ is not None  # _over said there is a next round
    stage = _stage_of(tournament, number)
    if stage == "cut" and not any(r.stage == "cut" for r in done):
        _log(
            tournament,
            "StageStarted",
            by,
            {"stage": "top cut", "round": number, "players": _cut_seeds(tournament)},
        )
    round_ = _write_round(tournament, number, 1, pairing_, by, stage=stage)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return round_


def _close_registration(tournament: Tournament, by) -> None:
    """Before round 1: with check-in, drop whoever has not checked in; then the field must
    seat a round (and hold the top cut). Raises, changing nothing, if it cannot."""
    waiting = [
        e for e in tournament.entries.select_related("user") if not e.waitlisted and not e.dropped
    ]
    if tournament.check_in:
        for entry in waiting:
            if not entry.checked_in:
                entry.dropped_after_round = 0
                entry.save(update_fields=["dropped_after_round"])
                _log(
                    tournament,
                    "EntryDropped",
                    by,
                    {"player": entry.user.username, "after_round": 0, "reason": "not checked in"},
                )
        waiting = [e for e in waiting if e.checked_in]
    if len(waiting) < 2:
        raise RuleViolation(
            f"round 1 needs at least two players{' checked in' if tournament.check_in else ''};"
            f" {len(waiting)} {'is' if len(waiting) == 1 else 'are'}"
        )
    check_field(
        tournament.format,
        len(waiting),
        tournament.table_size,
        tournament.advance,
        tournament.top_cut,
    )


def _over(tournament: Tournament, done: list[Round]) -> bool:
    """Whether no round follows ``done`` (whose last is complete)."""
    number = len(done) + 1
    if number > _round_limit(tournament):
        return True
    if tournament.format == Tournament.Format.SWISS:
        if number <= tournament.rounds:
            return False
        if not any(r.stage == "cut" for r in done):
            # drops may leave too few for a cut: the Swiss standings then decide
            return not tournament.top_cut or len(_cut_seeds(tournament)) < 2
    return _next_pairing(tournament, number, done) is None


def _finish(tournament: Tournament, by, done: list[Round]) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    champion = _champion(tournament, done)
    _log(tournament, "TournamentFinished", by, {"rounds": len(done), "champion": champion})
    notices.tournament_finished(tournament, champion)


def _champion(tournament: Tournament, done: list[Round]) -> str | None:
    """The winner of the final in an elimination event or top cut; else the top standing."""
    if not done:
        return None
    last = done[-1]
    if tournament.format == Tournament.Format.ELIMINATION or last.stage == "cut":
        tables = list(last.tables.select_related("game").prefetch_related("game__seats__user"))
        if len(tables) == 1 and tables[0].game.result:
            return _finishing_order(tables[0])[0]
        return None
    rows = [row for row in tournament_standings(tournament) if not row["dropped"]]
    return rows[0]["player"] if rows else None


def _tournaments_of(game_ids: list[int]) -> set[int]:
    """The tournaments these games are tables of (in a round not re-paired): one statement,
    sent straight to the database driver (core.direct). Every finished game asks, and the
    ORM's query took about 0.8 ms of a finishing move to build and run."""
    found: set[int] = set()
    for start in range(0, len(game_ids), 500):  # a batch (an import) in bounded statements
        chunk = list(game_ids[start : start + 500])
        sql = (
            f"SELECT DISTINCT r.tournament_id FROM {Table._meta.db_table} t"
            f" JOIN {Round._meta.db_table} r ON r.id = t.round_id"
            f" WHERE t.game_id IN ({', '.join(['%s'] * len(chunk))}) AND NOT r.void"
        )
        found.update(pk for (pk,) in fetch_all(connection, sql, chunk))
    return found


def tournaments_end_if_over(*, game_ids: list[int]) -> list[int]:
    """End the tournaments whose last round these games completed: called when games end.
    Returns the ids of the tournaments it ended.

    Most games belong to no tournament: for them this is one read, with no transaction (on
    SQLite a transaction begins by taking the write lock), and the end of a game costs no
    more. A tournament found is locked and read again inside one."""
    pks = _tournaments_of(game_ids)
    if not pks:
        return []
    ended = []
    with transaction.atomic():
        for tournament in Tournament.objects.select_for_update().filter(
            pk__in=pks, status=Tournament.Status.RUNNING
        ):
            done = list(live_rounds(tournament))
            if done and _complete(done[-1]) and _over(tournament, done):
                _finish(tournament, None, done)
                ended.append(tournament.pk)
    return ended


def _round_limit(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.ELIMINATION or tournament.top_cut:
        return 10_000  # until one player is left
    return tournament.rounds


def _stage_of(tournament: Tournament, number: int) -> str:
    return "cut" if tournament.top_cut and number > tournament.rounds else "main"


def _complete(round_: Round) -> bool:
    return not round_.tables.exclude(game__status=GameStatus.FINISHED).exists()


def _active_players(tournament: Tournament, number: int) -> list[str]:
    """Entrants in seed order who play round ``number``: in (not waiting for a place), and not
    dropped before it."""
    return [
        e.user.username
        for e in tournament.entries.select_related("user")
        if not e.waitlisted
        and e.entered_after_round < number
        and (e.dropped_after_round is None or e.dropped_after_round >= number)
    ]


def _cut_seeds(tournament: Tournament) -> list[str]:
    """The top cut, best first: the top ``top_cut`` of the Swiss standings still playing."""
    playing = set(_active_players(tournament, tournament.rounds + 1))
    rows = [row["player"] for row in tournament_standings(tournament) if row["player"] in playing]
    return rows[: tournament.top_cut]


def _club_groups(tournament: Tournament, players: list[str]) -> list[list[str]]:
    """Players sharing a league (a club) other than the tournament's own, one list per club."""
    memberships = Membership.objects.filter(user__username__in=players)
    if tournament.league_id is not None:
        memberships = memberships.exclude(league_id=tournament.league_id)
    clubs: dict[int, list[str]] = {}
    for league_id, name in memberships.values_list("league_id", "user__username"):
        clubs.setdefault(league_id, []).append(name)
    return [sorted(names) for names in clubs.values() if len(names) > 1]


def _next_pairing(tournament: Tournament, number: int, done: list[Round]):
    players = _active_players(tournament, number)
    past = [seat_names(t.game) for t in tables_of(tournament)]
    seats_had = pairing.seat_counts(past)
    rng = random.Random(f"{tournament.pk}:{number}")
    avoid = _club_groups(tournament, players) if number <= tournament.avoid_club_rounds else []
    if _stage_of(tournament, number) == "cut":
        cut = [r for r in done if r.stage == "cut"]
        if not cut:
            return pairing.elimination_first_round(
                _cut_seeds(tournament), tournament.table_size, first_seats=seats_had
            )
        return _elimination_next(tournament, cut[-1], players, seats_had, rng)
    if tournament.format == Tournament.Format.SWISS and not done:
        return pairing.swiss_first_round(
            players, tournament.table_size, first_seats=seats_had, avoid=avoid
        )
    if tournament.format == Tournament.Format.SWISS:
        points = {row["player"]: row["points"] for row in tournament_standings(tournament)}
        byes_had = Counter(e.user.username for r in done for e in r.byes.select_related("user"))
        return pairing.swiss_round(
            players,
            points,
            past,
            tournament.table_size,
            byes_had=byes_had,
            first_seats=seats_had,
            rng=rng,
            avoid=avoid,
        )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        everyone = [
            e.user.username
            for e in tournament.entries.select_related("user")
            if not e.waitlisted and e.dropped_after_round != 0
        ]
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
            tables=[pairing.seat_order(t, seats_had) for t in tables if len(t) >= 2], byes=byes
        )
    if not done:
        return pairing.elimination_first_round(
            players, tournament.table_size, first_seats=seats_had
        )
    return _elimination_next(tournament, done[-1], players, seats_had, rng)


def _elimination_next(tournament: Tournament, last: Round, players, seats_had, rng):
    ranked = [
        _finishing_order(t)
        for t in last.tables.select_related("game").prefetch_related("game__seats__user")
    ]
    # A bye goes through, as the winner of a table of one.
    ranked += [[e.user.username] for e in last.byes.select_related("user")]
    playing = set(players)
    ranked = [[p for p in table if p in playing] for table in ranked]
    return pairing.elimination_round(
        [t for t in ranked if t],
        tournament.advance,
        tournament.table_size,
        first_seats=seats_had,
        rng=rng,
    )


def _finishing_order(table: Table) -> list[str]:
    names = seat_names(table.game)
    ranks = [r["rank"] for r in table.game.result]
    scores = [r["score"] if r["score"] is not None else float("-inf") for r in table.game.result]
    return [names[i] for i in sorted(range(len(names)), key=lambda i: (ranks[i], -scores[i], i))]


def _write_round(
    tournament: Tournament, number: int, attempt: int, pairing_, by, *, stage: str = "main"
) -> Round:
    round_ = Round.objects.create(
        tournament=tournament, number=number, attempt=attempt, stage=stage
    )
    entries = {e.user.username: e for e in tournament.entries.select_related("user")}
    paired: list[tuple[int | None, int | None, list[int]]] = []
    for index, seats in enumerate(pairing_.tables, start=1):
        game = _table_game(tournament, seats, by)
        Table.objects.create(round=round_, number=index, game=game)
        paired.append((index, game.pk, [entries[name].user_id for name in seats]))
    round_.byes.set([entries[name] for name in pairing_.byes])
    paired.append((None, None, [entries[name].user_id for name in pairing_.byes]))
    notices.round_paired(tournament, number, paired)
    outbox.round_paired(
        tournament,
        number,
        [(index, list(seats)) for index, seats in enumerate(pairing_.tables, start=1)],
        list(pairing_.byes),
    )
    _log(
        tournament,
        "RoundPaired",
        by,
        {
            "round": number,
            "attempt": attempt,
            "stage": stage,
            "tables": [list(t) for t in pairing_.tables],
            "byes": list(pairing_.byes),
        },
    )
    return round_


def _table_game(tournament: Tournament, seats: list[str], by) -> Game:
    if tournament.mode == Tournament.Mode.TABLE:
        return table_results.table_game_create(
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


def why_not_repairable(round_: Round) -> str | None:
    """Why round ``round_`` can no longer be paired again (a table has started or has a
    result), or None if it can."""
    tables = list(round_.tables.order_by("number").values_list("number", "game_id", "game__status"))
    played = game_reads.games_played(game_ids=[game for _, game, _ in tables])
    first = next(
        (n for n, game, status in tables if status != GameStatus.ACTIVE or game in played), None
    )
    if first is None:
        return None
    return f"table {first} has started or has a result: this round can no longer be paired again"


@transaction.atomic
def round_repair(*, tournament: Tournament, number: int, by: AbstractUser) -> Round:
    """Pair round ``number`` again (late entries, drops) while none of its tables has a result
    and no online game at it has seen a player's move. The old games are voided, not deleted."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    rounds = list(live_rounds(tournament))
    if not rounds or rounds[-1].number != number:
        raise RuleViolation("only the latest round can be paired again")
    current = rounds[-1]
    reason = why_not_repairable(current)
    if reason:
        raise RuleViolation(reason)
    for table in current.tables.select_related("game"):
        game_services.game_void(game=table.game, by=by, reason="round paired again")
    current.void = True
    current.save(update_fields=["void"])
    # Whoever entered while this round was waiting plays it now.
    tournament.entries.filter(entered_after_round=number).update(entered_after_round=number - 1)
    pairing_ = _next_pairing(tournament, number, rounds[:-1])
    return _write_round(tournament, number, current.attempt + 1, pairing_, by, stage=current.stage)


@transaction.atomic
def round_start(
    *, tournament: Tournament, number: int, by: AbstractUser, minutes: Any = None
) -> Round:
    """Start the clock of round ``number`` (table mode), for ``minutes`` or the tournament's
    round length. Logged; a clock once started stands."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.mode != Tournament.Mode.TABLE:
        raise RuleViolation("round clocks are for tournaments played on tables")
    round_ = live_rounds(tournament).filter(number=number).first()
    if round_ is None:
        raise UnknownName(f"round {number} has not been paired")
    if round_.started_at is not None:
        raise RuleViolation(f"round {number}'s clock is already running")
    if minutes is None or (isinstance(minutes, str) and not minutes.strip()):
        minutes = tournament.round_minutes
    if minutes is None:
        raise RuleViolation("say how many minutes the round lasts")
    minutes = inputs.whole_number(minutes, "minutes", 5, 600)  # a page's form sends text
    round_.started_at = timezone.now()
    round_.minutes = minutes
    round_.save(update_fields=["started_at", "minutes"])
    _log(
        tournament,
        "RoundStarted",
        by,
        {"round": number, "minutes": minutes, "at": round_.started_at.isoformat()},
    )
    return round_


# -- entries --------------------------------------------------------------------------------------


def _started(tournament: Tournament) -> bool:
    return tournament.round_set.exists()


def _in_count(tournament: Tournament) -> int:
    """Entrants holding a place before round 1: not waiting, not withdrawn."""
    return tournament.entries.filter(waitlisted=False, dropped_after_round__isnull=True).count()


def _next_seed(tournament: Tournament) -> int:
    return (tournament.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1


@transaction.atomic
def entry_add(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """The organisers enter a player: before round 1 up to the cap (then onto the waitlist),
    later as a late entry who plays from the next round paired."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    return _enter(tournament, _player(player, people_only=tournament.people_only), by)


@transaction.atomic
def entry_register(*, tournament: Tournament, by: AbstractUser) -> Entry:
    """A player enters themself: open entry only, until round 1 is paired; beyond the cap
    they wait in line for a place."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    if tournament.entry_mode != Tournament.EntryMode.OPEN:
        raise RuleViolation("the organisers enter the players of this tournament")
    if _started(tournament):
        raise RuleViolation("entry closed when round 1 was paired: ask an organiser")
    return _enter(tournament, by, by)


def _enter(tournament: Tournament, user, by) -> Entry:
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    if tournament.people_only and is_bot(user):
        raise Refused(_bots_out(user.username))
    started = _started(tournament)
    if tournament.format != Tournament.Format.SWISS and started:
        raise RuleViolation("late entry is only possible in a Swiss tournament once it runs")
    if started and tournament.top_cut and live_rounds(tournament).count() >= tournament.rounds:
        raise RuleViolation("the Swiss rounds are over: nobody can enter the top cut")
    entry = tournament.entries.filter(user=user).first()
    if entry is not None and not (entry.dropped_after_round == 0 and not started):
        raise RuleViolation(f"{user.username} has already entered")
    played = live_rounds(tournament).count()
    waitlisted = (
        not started and tournament.cap is not None and _in_count(tournament) >= tournament.cap
    )
    if entry is None:
        entry = Entry(tournament=tournament, user=user, seed=_next_seed(tournament))
    entry.entered_after_round = played
    entry.dropped_after_round = None
    entry.waitlisted = waitlisted
    entry.checked_in = False
    entry.answer = _answer(user, by)
    entry.save()
    kind = "EntryWaitlisted" if waitlisted else "EntryAdded"
    _log(tournament, kind, by, {"player": user.username, "after_round": played})
    if tournament.check_in and not waitlisted and not started:
        notices.check_in_open(tournament, user.pk)
    return entry


def _own_entry(tournament: Tournament, by: AbstractUser, player: str | None) -> Entry:
    """The entry ``by`` answers for: their own, or why not."""
    if player is not None and player != by.username:
        raise NotYourSeat("only the player entered may answer for their entry: answer your own")
    entry = tournament.entries.select_related("user").filter(user=by).first()
    if entry is None:
        raise Conflict(f"you have not been entered in {tournament.name}")
    return entry


@transaction.atomic
def entry_accept(*, tournament: Tournament, by: AbstractUser, player: str | None = None) -> Entry:
    """The player an organiser entered says yes: from now on the tournament's games at which
    everyone has agreed are rated, those already played included (league.consent)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _own_entry(tournament, by, player)
    if entry.answer == Entry.Answer.ACCEPTED:
        raise Conflict("you have accepted this entry already")
    if entry.answer == Entry.Answer.DECLINED:
        raise Conflict("you declined this entry: an organiser may enter you again")
    entry.answer = Entry.Answer.ACCEPTED
    entry.save(update_fields=["answer"])
    _log(tournament, "EntryAccepted", by, {"player": by.username})
    _rate_held_games(tournament)
    return entry


@transaction.atomic
def entry_decline(*, tournament: Tournament, by: AbstractUser, player: str | None = None) -> Entry:
    """The player an organiser entered says no: they are withdrawn (before round 1 the first
    player waiting takes the place), and none of their games at it is rated."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    entry = _own_entry(tournament, by, player)
    if entry.answer == Entry.Answer.ACCEPTED:
        raise Conflict("you have accepted this entry: to leave the tournament, drop out")
    if entry.answer == Entry.Answer.DECLINED:
        raise Conflict("you have declined this entry already")
    held_a_place = not entry.waitlisted and not entry.dropped
    entry.answer = Entry.Answer.DECLINED
    if not entry.dropped and tournament.status != Tournament.Status.FINISHED:
        entry.dropped_after_round = live_rounds(tournament).count()
    entry.waitlisted = False
    entry.save(update_fields=["answer", "dropped_after_round", "waitlisted"])
    _log(
        tournament,
        "EntryDeclined",
        by,
        {"player": by.username, "after_round": entry.dropped_after_round},
    )
    if held_a_place and not _started(tournament):
        _promote(tournament, by)
    return entry


def _rate_held_games(tournament: Tournament) -> None:
    """Once committed, ask the ratings to look again at the tournament's games held for want of
    someone's agreement (league.services.ratings releases those everyone now agrees to)."""
    held: dict[str, list[int]] = {}
    for game_id, slug in RatedGame.objects.filter(
        consent=RatedGame.Consent.WAITING, game__table__round__tournament=tournament
    ).values_list("game_id", "slug"):
        held.setdefault(slug, []).append(game_id)
    for slug, ids in held.items():
        one = ids[0] if len(ids) == 1 else None  # several: the sweep's pass over the game type
        steps.after_commit(
            f"rate {tournament.name}'s games held for consent",
            functools.partial(rate_finished_games.delay, slug, one),
        )


@transaction.atomic
def entry_drop(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A drop: no further pairings; the games already played stand. A player may drop
    themself; the organisers may drop anyone. Before round 1 it is a withdrawal, and the
    first player waiting takes the place."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    player = inputs.text(player, "player", 150)
    entry = tournament.entries.select_related("user").filter(user__username=player).first()
    if entry is None:
        raise Refused(f"{player!r} has not entered this tournament")
    if by.pk != entry.user_id:
        _require_organiser(tournament, by)
    if entry.dropped:
        raise RuleViolation(f"{player} has already dropped")
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    held_a_place = not entry.waitlisted
    entry.dropped_after_round = live_rounds(tournament).count()
    entry.waitlisted = False
    entry.save(update_fields=["dropped_after_round", "waitlisted"])
    _log(
        tournament, "EntryDropped", by, {"player": player, "after_round": entry.dropped_after_round}
    )
    if held_a_place and not _started(tournament):
        _promote(tournament, by)
    return entry


def _promote(tournament: Tournament, by) -> None:
    """Move waiting players up, first come first served, while the cap leaves room."""
    room = None if tournament.cap is None else tournament.cap - _in_count(tournament)
    waiting = tournament.entries.select_related("user").filter(waitlisted=True).order_by("seed")
    for entry in waiting if room is None else waiting[: max(room, 0)]:
        entry.waitlisted = False
        entry.save(update_fields=["waitlisted"])
        _log(tournament, "EntryPromoted", by, {"player": entry.user.username})
        notices.tell(
            [entry.user_id],
            "tournament",
            f"A place came free in {tournament.name}: you are in",
            notices.tournament_url(tournament),
        )
        if tournament.check_in:
            notices.check_in_open(tournament, entry.user_id)


@transaction.atomic
def entry_reenter(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """An organiser puts a dropped player back in: they play from the next round paired (in
    Swiss and round robin; not once an elimination stage runs). The drop stays in the log."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    player = inputs.text(player, "player", 150)
    entry = tournament.entries.select_related("user").filter(user__username=player).first()
    if entry is None:
        raise Refused(f"{player!r} has not entered this tournament")
    if not entry.dropped:
        raise RuleViolation(f"{player} has not dropped: there is nothing to re-enter")
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    played = live_rounds(tournament).count()
    if played and (
        tournament.format == Tournament.Format.ELIMINATION
        or (tournament.top_cut and played >= tournament.rounds)
    ):
        raise RuleViolation("a dropped player cannot re-enter once elimination has begun")
    if not played:
        return _enter(tournament, entry.user, by)
    entry.dropped_after_round = None
    entry.entered_after_round = played
    if entry.answer == Entry.Answer.DECLINED:
        # They said no: putting them back in asks them again (an answer they agreed to before
        # stands for the games played since, as a drop does not take it back).
        entry.answer = _answer(entry.user, by)
    entry.save(update_fields=["dropped_after_round", "entered_after_round", "answer"])
    _log(tournament, "EntryReentered", by, {"player": player, "after_round": played})
    return entry


@transaction.atomic
def entry_check_in(*, tournament: Tournament, player: str, by: AbstractUser) -> Entry:
    """A player checks in (or an organiser checks them in) before round 1. Checking in
    yourself accepts the organisers' entry too."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    player = inputs.text(player, "player", 150)
    entry = tournament.entries.select_related("user").filter(user__username=player).first()
    if entry is None:
        raise Refused(f"{player!r} has not entered this tournament")
    if by.pk != entry.user_id:
        _require_organiser(tournament, by)
    if not tournament.check_in:
        raise RuleViolation("this tournament has no check-in")
    if _started(tournament):
        raise RuleViolation("check-in closed when round 1 was paired")
    if entry.waitlisted:
        raise RuleViolation(f"{player} is waiting for a place and cannot check in yet")
    if entry.dropped:
        raise RuleViolation(f"{player} has withdrawn")
    if entry.checked_in:
        raise RuleViolation(f"{player} has already checked in")
    entry.checked_in = True
    entry.save(update_fields=["checked_in"])
    _log(tournament, "CheckedIn", by, {"player": player})
    notices.checked_in(tournament, entry.user_id)
    if by.pk == entry.user_id and entry.answer == Entry.Answer.INVITED:
        # Checking in yourself is saying yes: you are there to play.
        entry.answer = Entry.Answer.ACCEPTED
        entry.save(update_fields=["answer"])
        _log(tournament, "EntryAccepted", by, {"player": player})
    return entry


@transaction.atomic
def tournament_cap(*, tournament: Tournament, cap: Any, by: AbstractUser) -> Tournament:
    """Change the cap before round 1 (None: no cap); a higher one moves waiting players up.
    A cap below the players already in is refused."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if _started(tournament):
        raise RuleViolation("the field is set once round 1 is paired")
    cap = None if cap is None else _whole(cap, "cap", 2, 2000)
    holding = _in_count(tournament)
    if cap is not None and cap < holding:
        raise InvalidInput(f"the cap of {cap} is below the {holding} players already in")
    tournament.cap = cap
    tournament.save(update_fields=["cap"])
    _log(tournament, "CapChanged", by, {"cap": cap})
    _promote(tournament, by)
    return tournament


# -- results of table-mode tables -----------------------------------------------------------------


def table_get(tournament: Tournament, table_id: Any) -> Table:
    table = (
        (
            Table.objects.filter(pk=table_id, round__tournament=tournament, round__void=False)
            .select_related("game")
            .prefetch_related("game__seats__user")
            .first()
        )
        if str(table_id).isascii() and str(table_id).isdigit()
        else None
    )
    if table is None:
        raise UnknownName(f"no table {table_id!r} in this tournament")
    return table


def table_report(
    *, tournament: Tournament, table: Table, user, results: Any, bid: Any = None
) -> dict[str, Any]:
    """A seated player reports the result (permissions.why_not_report says who may)."""
    _check_bid(tournament, bid)
    _require(permissions.why_not_report, tournament, user, table)
    return _ended(
        table, table_results.result_report(game=table.game, user=user, results=results, bid=bid)
    )


def _ended(table: Table, state: dict[str, Any]) -> dict[str, Any]:
    """A table's result final: the tournament ends if that was its last (the game's end is
    announced too, after the commit; this ends it at once, in the same request)."""
    if state["status"] == Table.Report.FINAL:
        tournaments_end_if_over(game_ids=[table.game_id])
    return state


def table_confirm(
    *,
    tournament: Tournament,
    table: Table,
    user: AbstractUser,
    results: list[dict[str, Any]],
    bid: Any = table_results.UNSTATED,
) -> dict[str, Any]:
    """A seated player confirms the report; stating another winning bid disputes it."""
    if bid is not table_results.UNSTATED:
        _check_bid(tournament, bid)
    _require(permissions.why_not_confirm, tournament, user, table)
    return _ended(
        table, table_results.result_confirm(game=table.game, user=user, results=results, bid=bid)
    )


def table_override(
    *, tournament: Tournament, table: Table, by, results: Any, bid: Any = None
) -> dict[str, Any]:
    """An organiser settles the result, or corrects it once final."""
    _require(permissions.why_not_override, tournament, by, table)
    _check_bid(tournament, bid)
    return _ended(
        table, table_results.result_override(game=table.game, by=by, results=results, bid=bid)
    )


def _require(why_not: Callable[..., ServiceError | None], tournament, user, table) -> None:
    """Refuse what ``why_not`` (league.permissions) refuses ``user`` at ``table``."""
    refusal = why_not(permissions.Viewer.of(tournament, user), permissions.table_at(table))
    if refusal is not None:
        raise refusal


def _check_bid(tournament: Tournament, bid: Any) -> None:
    if bid is not None and not tournament.options.get("starting_bid"):
        raise RuleViolation("this tournament does not bid for first player")


# -- export ---------------------------------------------------------------------------------------


def standings_csv(tournament: Tournament) -> str:
    """One column each (wins once, even when it is also a tie-break), numbers to two
    decimals."""
    out = io.StringIO()
    writer = csv.writer(out)
    tiebreaks = list(tournament.tiebreaks)
    extra = [name for name in ("games", "wins", "byes") if name not in tiebreaks]
    writer.writerow(["position", "player", "points", *tiebreaks, *extra, "dropped"])
    for position, row in enumerate(tournament_standings(tournament), start=1):
        writer.writerow(
            [
                position,
                row["player"],
                _number(row["points"]),
                *map(_number, row["tiebreaks"]),
                *(row[name] for name in extra),
                "yes" if row["dropped"] else "",
            ]
        )
    return out.getvalue()


def _number(value: float) -> str:
    value = round(float(value), 2)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def results_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["round", "table", "game", "seat", "player", "rank", "score", "status", "winning bid"]
    )
    tables = list(tables_of(tournament))
    # The bid reported (or settled) at each table played on a table, on its winner's row ...
    bids = {
        pk: state["bid"]
        for pk, state in record_reads.result_states(
            [t.game_id for t in tables if t.game.mode == "record"]
        ).items()
    }
    # ... and at each table played here, the bid its game settled.
    bids.update(
        (pk, bid)
        for pk, bid in online_bids([t.game for t in tables if t.game.mode != "record"]).items()
        if bid["settled"]
    )
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
