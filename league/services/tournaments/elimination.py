"""Elimination rounds and the top cut: who goes through, in what order."""

from __future__ import annotations

from league import pairing
from league.models import (
    Round,
    Table,
    Tournament,
)
from league.selectors import (
    seat_names,
    tournament_standings,
)
from league.services.tournaments import formats
from league.services.tournaments.common import _active_players


def _cut_seeds(tournament: Tournament) -> list[str]:
    """The top cut, best first: the top ``top_cut`` of the Swiss standings still playing (in
    format pools, the playoff's seeds from the pools)."""
    if formats.is_pools(tournament):
        return formats.pool_playoff_seeds(tournament)
    playing = set(_active_players(tournament, tournament.rounds + 1))
    rows = [row["player"] for row in tournament_standings(tournament) if row["player"] in playing]
    return rows[: tournament.top_cut]


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
