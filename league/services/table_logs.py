"""A table-mode tournament's table played as a table log (games.tablelog) instead of a reported
result: its scorekeeper (a player at the table, or an organiser) enters the game move by move,
the rules give the result, and it needs no confirmation."""

from __future__ import annotations

from django.contrib.auth.models import AbstractUser

from core.errors import InvalidInput
from games.models import Game
from games.tablelog import services as logs
from league import permissions
from league.models import Table, Tournament


def table_log_start(*, tournament: Tournament, table: Table, by: AbstractUser) -> Game:
    """``by`` keeps the table's log from now on (permissions.why_not_log says who may)."""
    if tournament.mode != Tournament.Mode.TABLE:
        raise InvalidInput("an online tournament's tables are played here already")
    viewer = permissions.Viewer.of(tournament, by)
    refusal = permissions.why_not_log(viewer, permissions.table_at(table))
    if refusal is not None:
        raise refusal
    return logs.table_log_start(game=table.game, by=by, organiser=viewer.organiser)
