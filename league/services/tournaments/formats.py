"""Double elimination, and pools then a playoff: their pairings, kept apart from the others.

Double elimination's bracket is pure maths (league.double_elimination), recomputed from the
field, the drops and the tables' winners (selectors.double_elimination_bracket); a round
pairs every match ready in it, and each table is marked with the match it plays. A tie
cannot send anyone through: it stops the next pairing until an organiser settles it.

Pools (league.pools) play a round robin each, a round pairing every pool's next round; the
playoff after them is the top cut's path (elimination, rounds, pairings), to which this only
gives the seeds.
"""

from __future__ import annotations

import random

from core.errors import RuleViolation
from games.catalog import game_type
from games.models import GameStatus
from games.records import services as records
from league import pairing, pools
from league.models import Round, Tournament
from league.selectors import (
    bracket_label,
    double_elimination_bracket,
    pool_name,
    seat_names,
    tournament_pools,
    tournament_standings,
)
from league.services.tournaments.common import _active_players, _log
from league.tournament_spec import pool_stage_rounds


def is_double(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.DOUBLE_ELIMINATION


def is_pools(tournament: Tournament) -> bool:
    return tournament.format == Tournament.Format.POOLS


# -- double elimination ---------------------------------------------------------------------------


def double_pairing(tournament: Tournament, number: int, seats_had) -> pairing.Pairing | None:
    """Round ``number``: every match of the bracket ready in it; None once it has a champion
    (or nobody is left to play)."""
    bracket = double_elimination_bracket(tournament)
    ready = [] if bracket.champion is not None else bracket.ready(number)
    if not ready:
        return None
    tables = [pairing.seat_order([p for p in m.players if p], seats_had) for m in ready]
    return pairing.Pairing(tables=tables, byes=[])


def mark_matches(tournament: Tournament, round_: Round) -> None:
    """Mark each table of the round just paired with the bracket match it plays (two players
    share at most one match waiting to be played, so their names find it)."""
    ready = double_elimination_bracket(tournament).ready(round_.number)
    match_of = {frozenset(m.players): m.id for m in ready}
    for table in round_.tables.select_related("game").prefetch_related("game__seats__user"):
        table.match = match_of[frozenset(seat_names(table.game))]
        table.save(update_fields=["match"])


def refuse_ties(tournament: Tournament, last: Round) -> None:
    """A tie cannot say who goes through (never the seat order): the organiser settles it,
    by overriding the result or entering the winner of a play-off."""
    for table in last.tables.select_related("game").prefetch_related("game__seats__user"):
        ranks = [r["rank"] for r in table.game.result or []]
        if table.game.status == GameStatus.FINISHED and ranks.count(1) != 1:
            raise RuleViolation(
                f"table {table.number} ({bracket_label(table.match)}) ended in a tie, and a tie"
                " cannot decide who goes through: an organiser settles it with the winner of a"
                " play-off"
            )


def refuse_tied_report(tournament: Tournament, table, results) -> None:
    """At a double elimination table, a reported (or overridden) result must have one winner.
    ``results`` name the players as the game does (tables.game_named)."""
    if not is_double(tournament):
        return
    clean = records.parse_results(
        game_type(tournament.slug), results, records.seat_names(table.game)
    )
    if [r["rank"] for r in clean].count(1) != 1:
        raise RuleViolation(
            "a tie cannot decide who goes through: play it off and report the winner"
        )


def double_champion(tournament: Tournament) -> str | None:
    return double_elimination_bracket(tournament).champion


# -- pools, then a playoff ------------------------------------------------------------------------


def draw_pools(tournament: Tournament, by) -> None:
    """At round 1, with the field known: the pools (logged) and the rounds their stage takes."""
    groups = tournament_pools(tournament)
    field = sum(len(pool) for pool in groups)
    tournament.rounds = pool_stage_rounds(field, tournament.pools, tournament.table_size)
    tournament.save(update_fields=["rounds"])
    _log(
        tournament,
        "PoolsDrawn",
        by,
        {
            "pools": {pool_name(i): pool for i, pool in enumerate(groups)},
            "rounds": tournament.rounds,
        },
    )


def pools_pairing(tournament: Tournament, number: int, seats_had) -> pairing.Pairing | None:
    """Round ``number`` of every pool's round robin, tables numbered across the pools. A
    player who dropped leaves their seat empty: a table left with one player is a bye."""
    playing = set(_active_players(tournament, number))
    tables: list[list[str]] = []
    byes: list[str] = []
    scheduled = False
    for index, pool in enumerate(tournament_pools(tournament)):
        schedule = pairing.round_robin(
            pool, tournament.table_size, rng=random.Random(f"{tournament.pk}:pool:{index}")
        )
        if number > len(schedule):
            continue  # a smaller pool has finished: it waits for the others
        scheduled = True
        planned = schedule[number - 1]
        for table in planned.tables:
            seated = [p for p in table if p in playing]
            if len(seated) >= 2:
                tables.append(pairing.seat_order(seated, seats_had))
            else:
                byes += seated
        byes += [p for p in planned.byes if p in playing]
    return pairing.Pairing(tables=tables, byes=byes) if scheduled else None


def pool_playoff_seeds(tournament: Tournament) -> list[str]:
    """The playoff's seeds, best first (league.pools.playoff_seeds): the top ``pool_advance``
    of each pool still playing, pool winners first."""
    playing = set(_active_players(tournament, tournament.rounds + 1))
    rows = [row for row in tournament_standings(tournament) if row["player"] in playing]
    by_pool: dict[str, list[str]] = {}
    for row in rows:
        by_pool.setdefault(row["pool"], []).append(row["player"])
    count = len(tournament_pools(tournament))
    return pools.playoff_seeds(
        [by_pool.get(pool_name(i), []) for i in range(count)],
        [row["player"] for row in rows],
        tournament.pool_advance,
    )
