"""Pairing rounds, pairing one again, and the end of the tournament."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser
from django.db import connection, transaction

from core.direct import fetch_all
from core.errors import (
    RuleViolation,
)
from games.models import Game, GameStatus
from games.play import reads as game_reads
from games.play import services as game_services
from games.records import table_results
from league import notices
from league.models import (
    Round,
    Table,
    Tournament,
)
from league.selectors import (
    live_rounds,
    tournament_standings,
)
from league.services.tournaments.common import _log, _player, _require_organiser, _stage_of
from league.services.tournaments.elimination import _cut_seeds, _finishing_order
from league.services.tournaments.pairings import _next_pairing
from league.tournament_spec import check_field
from league.webhooks import outbox


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
    try:
        return _next_pairing(tournament, number, done) is None
    except RuleViolation:
        return False  # a round is due but cannot be seated: pairing it says why


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


def _complete(round_: Round) -> bool:
    return not round_.tables.exclude(game__status=GameStatus.FINISHED).exists()


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
