"""Who may do what at a tournament's table: report its result, confirm it, keep its log, settle
it. The tournament page asks these to choose the forms it draws, and the services
(league.services.tournaments, league.services.table_logs), which the API calls, to refuse,
so the page and the API cannot disagree.

Each question is a pure function of who asks (a Viewer) and how the table stands (a TableAt),
both read beforehand: a page of 80 tables asks its 320 questions without a query. ``why_not_*``
gives the refusal, in the words and with the status games.records and games.tablelog refuse with
(they check again, for any caller); ``may_*`` whether there is none. Sending a report is allowed
more widely than its form is offered: once another player has reported, a report of the same
result confirms it and another result disputes it (games.records.table_results.result_report).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from core.errors import Conflict, NotYourSeat, RuleViolation, ServiceError
from games.models import GameStatus
from league.models import Table, Tournament
from league.selectors import is_tournament_organiser, table_out


@dataclass(frozen=True)
class Viewer:
    """Who asks: their name (None when not signed in), and whether they organise the
    tournament."""

    name: str | None
    organiser: bool

    @classmethod
    def of(cls, tournament: Tournament, user) -> Viewer:
        name = user.username if user.is_authenticated else None
        return cls(name=name, organiser=is_tournament_organiser(tournament, user))


@dataclass(frozen=True)
class TableAt:
    """A table as it stands: who sits there, its game's status, and in table mode where its
    reported result stands (``report``, a Table.Report, with who has confirmed it, its reporter
    first); ``report`` is None at a table played here or kept as a table log, whose game gives
    its result."""

    seats: tuple[str, ...]
    game: GameStatus
    report: Table.Report | None = None
    confirmed_by: tuple[str, ...] = ()

    @classmethod
    def of(cls, out: dict[str, Any]) -> TableAt:
        """From a row of league.selectors.tables_out."""
        state = out.get("report")
        return cls(
            seats=tuple(out["seats"]),
            game=GameStatus(out["status"]),
            report=Table.Report(state["status"]) if state else None,
            confirmed_by=tuple(state["confirmed_by"]) if state else (),
        )


def table_at(table: Table) -> TableAt:
    """How ``table`` stands now, read from its game's seats and result events."""
    return TableAt.of(table_out(table))


# -- the questions --------------------------------------------------------------------------------


def may_report(viewer: Viewer, table: TableAt) -> bool:
    """Whether ``viewer`` is offered the report form: a player at the table before anyone has
    reported, or its reporter until someone confirms. (Once another has reported they confirm
    or dispute instead: :func:`may_confirm`.)"""
    return why_not_report(viewer, table) is None and (
        table.report == Table.Report.AWAITING_REPORT or table.confirmed_by == (viewer.name,)
    )


def may_confirm(viewer: Viewer, table: TableAt) -> bool:
    """Whether ``viewer`` may confirm (or, with another result, dispute) the reported result."""
    return why_not_confirm(viewer, table) is None


def may_log(viewer: Viewer, table: TableAt) -> bool:
    """Whether ``viewer`` may play the table as a table log instead (league.table_logs)."""
    return why_not_log(viewer, table) is None


def may_override(viewer: Viewer, table: TableAt) -> bool:
    """Whether ``viewer`` may settle the table's result, or correct it once final."""
    return why_not_override(viewer, table) is None


# -- the refusals ---------------------------------------------------------------------------------


def why_not_report(viewer: Viewer, table: TableAt) -> ServiceError | None:
    """Why a report from ``viewer`` is refused; None if it is not. Once another player has
    reported, it is refused as a confirmation would be."""
    refusal = _why_not_at_the_table(viewer, table)
    if refusal is not None or table.report == Table.Report.AWAITING_REPORT:
        return refusal
    if table.confirmed_by[0] != viewer.name:
        return why_not_confirm(viewer, table)
    if len(table.confirmed_by) > 1:
        return RuleViolation("a confirmed result cannot be reported again; confirm or dispute it")
    return None


def why_not_confirm(viewer: Viewer, table: TableAt) -> ServiceError | None:
    refusal = _why_not_at_the_table(viewer, table)
    if refusal is not None:
        return refusal
    if table.report == Table.Report.AWAITING_REPORT:
        return RuleViolation("nothing has been reported yet: report the result instead")
    if viewer.name in table.confirmed_by:
        return RuleViolation("you have already confirmed this result")
    return None


def _why_not_at_the_table(viewer: Viewer, table: TableAt) -> ServiceError | None:
    """What refuses a report and a confirmation alike: a table whose game gives its result, a
    viewer not seated there, a result final or disputed."""
    if table.report is None:
        return RuleViolation("this game is played in the service: it reports its own result")
    if viewer.name not in table.seats:
        return NotYourSeat("only a player at this table may report or confirm its result")
    if table.game != GameStatus.ACTIVE:
        return RuleViolation("the result is final; the organiser may correct it")
    if table.report == Table.Report.DISPUTED:
        return RuleViolation("the result is disputed: the organiser decides it now")
    return None


def why_not_log(viewer: Viewer, table: TableAt) -> ServiceError | None:
    if table.report is None or table.game != GameStatus.ACTIVE:
        return Conflict("only a table still waiting for its result can be played as a table log")
    if table.report != Table.Report.AWAITING_REPORT:
        return Conflict("a result has been reported at this table: confirm or dispute it instead")
    if not viewer.organiser and viewer.name not in table.seats:
        return NotYourSeat("only a player at this table or an organiser may keep its log")
    return None


def why_not_override(viewer: Viewer, table: TableAt) -> ServiceError | None:
    if not viewer.organiser:
        return NotYourSeat("only the tournament's organisers may do that")
    if table.report is None:
        return RuleViolation("only a table game's result can be overridden")
    return None
