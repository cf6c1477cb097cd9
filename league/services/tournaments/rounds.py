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
from league import notices, pairing
from league.models import (
    Entry,
    Round,
    RoundDraft,
    Table,
    Tournament,
)
from league.selectors import (
    live_rounds,
    tournament_champion,
    tournament_standings,
)
from league.services.tournaments import formats
from league.services.tournaments.common import _log, _require_organiser, _stage_of
from league.services.tournaments.elimination import (
    _bracket_champion,
    _bracket_draw,
    _bracket_placings,
    _cut_seeds,
)
from league.services.tournaments.entries import _close_check_in
from league.services.tournaments.pairings import _next_pairing
from league.tournament_spec import check_field
from league.webhooks import outbox


def round_pair(
    *, tournament: Tournament, by: AbstractUser, draft: bool = False
) -> Round | RoundDraft:
    """Pair the next round: the previous one must be complete. Round 1 closes registration
    (with check-in, whoever has not checked in is dropped). Once every round is played, the
    tournament is marked finished (it ends by itself when its last table ends) and this says
    so. With ``draft``, the pairing is kept as the organisers' draft (no games, told to
    nobody) to edit and publish (league.services.tournaments.drafts); else it is published
    at once."""
    round_ = _pair_next(tournament, by, draft=draft)
    if round_ is None:
        champion = tournament_champion(Tournament.objects.get(pk=tournament.pk))
        if champion is not None:  # a walkover can decide an elimination between rounds
            raise RuleViolation(f"the tournament is over: {champion} is the champion")
        raise RuleViolation("the tournament is over: every round has been played")
    return round_


@transaction.atomic
def _pair_next(tournament: Tournament, by, *, draft: bool = False) -> Round | RoundDraft | None:
    """Decide the next round's pairing, then publish it or keep it as a draft."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    _refuse_while_drafted(tournament)
    if tournament.status == Tournament.Status.FINISHED:
        return None
    done = list(live_rounds(tournament))
    if done and not _complete(done[-1]):
        raise RuleViolation(f"round {done[-1].number} is not complete yet")
    number = len(done) + 1
    if done and formats.is_double(tournament):
        formats.refuse_ties(tournament, done[-1])
    if number == 1:
        _close_registration(tournament, by)
        if formats.is_pools(tournament):
            formats.draw_pools(tournament, by)
    if _over(tournament, done):
        _finish(tournament, by, done)
        return None
    pairing_ = _next_pairing(tournament, number, done)
    assert pairing_ is not None  # _over said there is a next round
    pairing_ = _with_fixed_tables(tournament, pairing_)
    stage = _stage_of(tournament, number)
    if draft:
        return _draft_keep(tournament, number, stage, pairing_, by)
    return _publish(tournament, number, pairing_, by, stage=stage, done=done)


def _refuse_while_drafted(tournament: Tournament) -> None:
    draft = RoundDraft.objects.filter(tournament=tournament).first()
    if draft is not None:
        raise RuleViolation(f"round {draft.number} is a draft: publish it or discard it first")


def _with_fixed_tables(tournament: Tournament, pairing_: pairing.Pairing) -> pairing.Pairing:
    """The pairing with every player who must sit at a given table there, in seed order."""
    fixed = {
        e.name: e.fixed_table
        for e in tournament.entries.filter(fixed_table__isnull=False).select_related("user")
    }
    return pairing.fix_tables(pairing_, fixed) if fixed else pairing_


def _draft_keep(
    tournament: Tournament, number: int, stage: str, pairing_: pairing.Pairing, by
) -> RoundDraft:
    """Keep the pairing as a draft: stored, logged, and nothing else (no games, no notices)."""
    tables = [list(t) for t in pairing_.tables]
    draft = RoundDraft.objects.create(
        tournament=tournament, number=number, stage=stage, tables=tables, byes=list(pairing_.byes)
    )
    _log(
        tournament,
        "RoundDrafted",
        by,
        {"round": number, "stage": stage, "tables": tables, "byes": list(pairing_.byes)},
    )
    return draft


def _publish(
    tournament: Tournament,
    number: int,
    pairing_: pairing.Pairing,
    by,
    *,
    stage: str,
    done: list[Round],
) -> Round:
    """Write round ``number`` as decided (or drafted and edited): the start of a top cut, its
    games, its notices, and a running tournament."""
    if stage == "cut" and not any(r.stage == "cut" for r in done):
        _log(
            tournament,
            "StageStarted",
            by,
            {"stage": "top cut", "round": number, "players": _cut_seeds(tournament)},
        )
    if _knockout(tournament, stage):
        _bracket_draw(tournament, done, by)
    round_ = _write_round(tournament, number, 1, pairing_, by, stage=stage)
    if formats.is_double(tournament):
        formats.mark_matches(tournament, round_)
    tournament.status = Tournament.Status.RUNNING
    tournament.save(update_fields=["status"])
    return round_


def _close_registration(tournament: Tournament, by) -> None:
    """Before round 1: with check-in, close it unless an organiser has (the no-shows dropped,
    their places given to waiting players who checked in); then the field must seat a round
    (and hold the top cut). Raises, changing nothing, if it cannot."""
    if tournament.check_in and tournament.check_in_closed_at is None:
        _close_check_in(tournament, by)
    waiting = [
        e for e in tournament.entries.select_related("user") if not e.waitlisted and not e.dropped
    ]
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
        pools=(tournament.pools, tournament.pool_advance),
    )


def _over(tournament: Tournament, done: list[Round]) -> bool:
    """Whether no round follows ``done`` (whose last is complete)."""
    number = len(done) + 1
    if number > _round_limit(tournament):
        return True
    if tournament.format in (Tournament.Format.SWISS, Tournament.Format.POOLS):
        if number <= tournament.rounds:
            return False
        if not any(r.stage == "cut" for r in done):
            # drops may leave too few for a cut: the Swiss standings then decide
            return not tournament.top_cut or len(_cut_seeds(tournament)) < 2
    try:
        return _next_pairing(tournament, number, done) is None
    except RuleViolation:
        return False  # a tie to be played off, or a round that cannot be seated: pairing
        # the next round says which


def _knockout(tournament: Tournament, stage: str) -> bool:
    """Whether rounds of ``stage`` are played in a bracket."""
    return tournament.format == Tournament.Format.ELIMINATION or stage == "cut"


@transaction.atomic
def tournament_finish(*, tournament: Tournament, by) -> Tournament:
    """An organiser ends a Swiss, round robin or pools event after a round, before its last (the
    venue closes; drops left one player): the standings as they stand are final and the top
    one is the champion. Not once a bracket has begun (it ends with its champion), nor while
    a round is being played or drafted."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    _refuse_while_drafted(tournament)
    reason = why_not_finishable(tournament)
    if reason:
        raise RuleViolation(reason)
    _finish(tournament, by, list(live_rounds(tournament)), early=True)
    return tournament


def why_not_finishable(tournament: Tournament) -> str | None:
    """Why an organiser may not end ``tournament`` now (:func:`tournament_finish`), or None:
    the page offers the button only when this is None."""
    if tournament.status == Tournament.Status.FINISHED:
        return "the tournament is over already"
    done = list(live_rounds(tournament))
    if not done:
        return "no round has been played yet: there are no standings to end on"
    if any(_knockout(tournament, r.stage) for r in done) or formats.is_double(tournament):
        return "a bracket is being played: it ends when it has its champion"
    if RoundDraft.objects.filter(tournament=tournament).exists():
        return "a round is drafted: publish it or discard it first"
    if not _complete(done[-1]):
        return (
            f"round {done[-1].number} is still being played: finish, forfeit or adjudicate its"
            " tables first"
        )
    return None


def _finish(tournament: Tournament, by, done: list[Round], *, early: bool = False) -> None:
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    champion = _champion(tournament, done)
    data: dict = {"rounds": len(done), "champion": champion}
    if early:
        data["early"] = True  # an organiser ended it (tournament_finish)
    if done and _knockout(tournament, done[-1].stage):
        data["placings"] = [
            {"place": first, "to": last, "player": player}
            for first, last, player in _bracket_placings(tournament, done)
        ]
    _log(tournament, "TournamentFinished", by, data)
    notices.tournament_finished(tournament, champion)


def _champion(tournament: Tournament, done: list[Round]) -> str | None:
    """The winner of the bracket in an elimination event or top cut (the last player standing
    when the others dropped out); else the top standing."""
    if not done:
        return None
    if formats.is_double(tournament):
        return formats.double_champion(tournament)
    if _knockout(tournament, done[-1].stage):
        return _bracket_champion(tournament, done)
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
            # Not while its organisers are drafting a round: they decide, not this.
            if end_if_over(tournament, None):
                ended.append(tournament.pk)
    return ended


def end_if_over(tournament: Tournament, by) -> bool:
    """End ``tournament`` (locked by the caller) if its last round is complete and none
    follows: after a setting changed (fewer rounds), as after a game ended."""
    if tournament.status != Tournament.Status.RUNNING:
        return False
    if RoundDraft.objects.filter(tournament=tournament).exists():
        return False
    done = list(live_rounds(tournament))
    if done and _complete(done[-1]) and _over(tournament, done):
        _finish(tournament, by, done)
        return True
    return False


def _round_limit(tournament: Tournament) -> int:
    if tournament.format == Tournament.Format.ELIMINATION or tournament.top_cut:
        return 10_000  # until one player is left
    if formats.is_double(tournament):
        return 10_000  # until the bracket has its champion
    return tournament.rounds


def _complete(round_: Round) -> bool:
    return not round_.tables.exclude(game__status=GameStatus.FINISHED).exists()


def _write_round(
    tournament: Tournament, number: int, attempt: int, pairing_, by, *, stage: str = "main"
) -> Round:
    round_ = Round.objects.create(
        tournament=tournament, number=number, attempt=attempt, stage=stage
    )
    entries = {e.name: e for e in tournament.entries.select_related("user")}
    paired: list[tuple[int | None, int | None, list[int | None]]] = []
    for index, seats in enumerate(pairing_.tables, start=1):
        game = _table_game(tournament, [entries[name] for name in seats], by)
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


def _table_game(tournament: Tournament, seats: list[Entry], by) -> Game:
    if tournament.mode == Tournament.Mode.TABLE:
        return table_results.table_game_create(
            slug=tournament.slug,
            # A walk-in sits as a guest, by name (league.services.tournaments.walk_ins).
            users=[e.user if e.user_id else e.guest for e in seats],
            created_by=by,
            options=tournament.options,
        )
    return game_services.game_create(
        slug=tournament.slug,
        seats=[{"user": e.user.username} for e in seats],
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
    pairing_ = _with_fixed_tables(tournament, _next_pairing(tournament, number, rounds[:-1]))
    if _knockout(tournament, current.stage):
        _bracket_draw(tournament, rounds[:-1], by)
    round_ = _write_round(
        tournament, number, current.attempt + 1, pairing_, by, stage=current.stage
    )
    if formats.is_double(tournament):
        formats.mark_matches(tournament, round_)
    return round_
