"""Results of tables played on a table: report, confirm, override."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractUser

from core.errors import (
    RuleViolation,
    ServiceError,
    UnknownName,
)
from games.records import table_results
from league import permissions
from league.models import (
    Table,
    Tournament,
)
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
