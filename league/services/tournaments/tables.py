"""Results of tables played on a table (report, confirm, override), and an absent player's
table at any event: forfeited or adjudicated by the organiser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core import inputs
from core.errors import (
    InvalidInput,
    RuleViolation,
    ServiceError,
    UnknownName,
)
from games.models import GameMode, GameStatus
from games.records import table_results
from league import permissions
from league.models import (
    Table,
    Tournament,
)
from league.services.tournaments.absent import seat_forfeit
from league.services.tournaments.common import _log, _require_organiser
from league.services.tournaments.rounds import tournaments_end_if_over


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
    *,
    tournament: Tournament,
    table: Table,
    by,
    results: Any,
    bid: Any = table_results.UNSTATED,
) -> dict[str, Any]:
    """An organiser settles the result, or corrects it once final; stating no bid keeps the
    bid reported."""
    _require(permissions.why_not_override, tournament, by, table)
    if bid is not table_results.UNSTATED:
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


@transaction.atomic
def table_forfeit(
    *,
    tournament: Tournament,
    table: Table,
    by: AbstractUser,
    reason: Any,
    player: Any = None,
    results: Any = None,
) -> None:
    """An organiser ends an absent ``player``'s part at ``table``, for ``reason``: at a game
    played here their seat resigns (the last player left wins by forfeit; at a larger table
    the others play on); at a table played on a table the result is settled with them last.
    With ``results`` instead of a player, the organiser adjudicates: the game ends with that
    result. Logged (TableForfeited, TableAdjudicated); the tournament ends if that was its
    last table."""
    _require_organiser(tournament, by)
    reason = inputs.text(reason, "reason", 200) if reason is not None else None
    if not reason:
        raise InvalidInput("give a reason: it is kept with the result")
    game = table.game
    where = {"round": table.round.number, "table": table.number}
    if game.status != GameStatus.ACTIVE:
        raise RuleViolation(f"table {table.number} has finished")
    if (player is None) == (results is None):
        raise InvalidInput("say which player forfeits, or give the results you set: one of them")
    if player is None:
        if game.mode == GameMode.RECORD:
            table_results.result_override(game=game, by=by, results=results, reason=reason)
        else:
            table_results.result_adjudicate(game=game, by=by, results=results, reason=reason)
        _log(tournament, "TableAdjudicated", by, {**where, "reason": reason})
    else:
        name = inputs.text(player, "player", 150)
        seat_forfeit(table, name, by=by, reason=reason)
        _log(tournament, "TableForfeited", by, {**where, "player": name, "reason": reason})
    game.refresh_from_db()
    if game.status == GameStatus.FINISHED:
        tournaments_end_if_over(game_ids=[game.pk])
