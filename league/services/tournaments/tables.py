"""Results of tables: report, confirm and override (on a table), breaking a tie (any),
and an absent player's table at any event, forfeited or adjudicated by the organiser."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core import inputs
from core.errors import (
    InvalidInput,
    Refused,
    RuleViolation,
    ServiceError,
    UnknownName,
)
from games.catalog import game_type
from games.models import GameMode, GameStatus
from games.records import services as records
from games.records import table_results
from league import permissions
from league.models import (
    Table,
    Tournament,
)
from league.selectors import live_rounds, seat_names
from league.services.tournaments.absent import seat_forfeit
from league.services.tournaments.common import _log, _require_organiser
from league.services.tournaments.elimination import TIE_REFUSED, table_line, tied_across
from league.services.tournaments.formats import refuse_tied_report
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
    results, bid = game_named(table, results), game_named(table, bid)
    _check_no_tie_at_the_line(tournament, table, results)
    refuse_tied_report(tournament, table, results)
    return _ended(
        table, table_results.result_report(game=table.game, user=user, results=results, bid=bid)
    )


def game_named(table: Table, named: Any) -> Any:
    """Results or a bid (``{"player", ...}`` lines) naming the table's players as the tournament
    does, renamed as its game does: a walk-in's seat is a guest's, "Ann" in the game and "Ann
    (guest)" (or the member who claimed the entry since) in the tournament. Anything else is
    passed on for the game to refuse."""
    game_names = records.seat_names(table.game)
    renamed = {
        ours: theirs
        for ours, theirs in zip(seat_names(table.game), game_names, strict=True)
        if ours != theirs
    }
    if not renamed:
        return named

    def line(item: Any) -> Any:
        if isinstance(item, dict) and isinstance(item.get("player"), str):
            return {**item, "player": renamed.get(item["player"], item["player"])}
        return item

    return [line(item) for item in named] if isinstance(named, list) else line(named)


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
        bid = game_named(table, bid)
    _require(permissions.why_not_confirm, tournament, user, table)
    results = game_named(table, results)
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
        bid = game_named(table, bid)
    results = game_named(table, results)
    _check_no_tie_at_the_line(tournament, table, results)
    refuse_tied_report(tournament, table, results)
    return _ended(
        table, table_results.result_override(game=table.game, by=by, results=results, bid=bid)
    )


def _require(why_not: Callable[..., ServiceError | None], tournament, user, table) -> None:
    """Refuse what ``why_not`` (league.permissions) refuses ``user`` at ``table``."""
    refusal = why_not(permissions.Viewer.of(tournament, user), permissions.table_at(table))
    if refusal is not None:
        raise refusal


def _check_no_tie_at_the_line(tournament: Tournament, table: Table, results: Any) -> None:
    """At a bracket's table of an event whose ties are played off, refuse ranks that tie across
    the line of who goes through (or for the final's win): the report must give the order."""
    if tournament.elimination_ties != Tournament.EliminationTies.PLAYOFF:
        return
    line = table_line(tournament, table)
    if line is None:
        return
    clean = records.parse_results(
        game_type(table.game.slug), results, records.seat_names(table.game)
    )
    if tied_across([r["rank"] for r in clean], line):
        raise RuleViolation(TIE_REFUSED)


@transaction.atomic
def table_tiebreak(*, tournament: Tournament, table: Table, by, order: Any) -> dict[str, Any]:
    """An organiser records the order of a bracket's table whose players tied across the line
    (the play-off's result, or the organiser's decision): a ``TableTiebroken`` event of the
    tournament; the game's own log is never edited. Only for the latest round, before the
    next is paired; the order must keep every rank the game gave."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    round_ = table.round
    latest = live_rounds(tournament).last()
    if latest is None or latest.pk != round_.pk:
        raise RuleViolation(f"round {round_.number + 1} has been paired: too late to break a tie")
    line = table_line(tournament, table)
    if line is None:
        raise RuleViolation("only a table of an elimination round has ties to break")
    if table.game.status != GameStatus.FINISHED or not table.game.result:
        raise RuleViolation(f"table {table.number} has no result yet")
    names = seat_names(table.game)
    ranks = {names[i]: r["rank"] for i, r in enumerate(table.game.result)}
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(names):
        raise InvalidInput(f"order must list the players at the table: {', '.join(names)}")
    if not tied_across(list(ranks.values()), line):
        raise RuleViolation(f"table {table.number} has no tie across the line to break")
    if any(ranks[a] > ranks[b] for a, b in zip(order, order[1:])):
        raise Refused("the order must keep the game's ranks: only tied players change places")
    _log(
        tournament,
        "TableTiebroken",
        by,
        {"round": round_.number, "table": table.number, "order": list(order)},
    )
    tournaments_end_if_over(game_ids=[table.game_id])
    return {"round": round_.number, "table": table.number, "order": list(order)}


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
        # Both or neither: a request the schema allows, refused for what it asks (422).
        raise RuleViolation("say which player forfeits, or give the results you set: one of them")
    if player is None:
        results = game_named(table, results)
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
