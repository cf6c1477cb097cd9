"""A table's actions on the tournament's page: its result reported, confirmed (as reported, or
otherwise: a dispute) and settled by an organiser; a forfeit or an adjudication; extra time
beyond the round's clock; and the order a bracket's play-off decided."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.views.decorators.http import require_POST

from core import inputs
from core.errors import InvalidInput
from games.records import table_results
from league import selectors, visibility
from league.forms import TableResultForm
from league.models import Table, Tournament
from league.services import tournaments
from league.tournament_pages.actions import attempt, simple_post


@login_required
@require_POST
def table_result(request, pk: int, table: int, action: str):
    """report/, confirm/ (as reported, or with a different result: a dispute) and override/."""
    tournament = visibility.tournament_or_404(pk, request.user)
    try:
        table_ = tournaments.table_get(tournament, table)
    except InvalidInput:
        raise Http404("no such table") from None
    out = selectors.table_out(table_)
    anchor = f"#table-{table_.pk}"
    if action == "confirm" and "as_reported" in request.POST:
        return _confirm_as_reported(request, tournament, table_, out, anchor)
    key = "dispute" if action == "confirm" else action
    has_bid = bool(tournament.options.get("starting_bid")) and key != "dispute"
    form = TableResultForm(
        request.POST, seats=out["seats"], bid=has_bid, prefix=f"t{table_.pk}-{key}"
    )

    def send() -> str:
        if action == "report":
            state = tournaments.table_report(
                tournament=tournament,
                table=table_,
                user=request.user,
                results=form.results(),
                bid=form.bid(),
            )
        elif action == "confirm":
            state = tournaments.table_confirm(
                tournament=tournament, table=table_, user=request.user, results=form.results()
            )
        else:
            bid = form.bid()
            state = tournaments.table_override(
                tournament=tournament,
                table=table_,
                by=request.user,
                results=form.results(),
                # A blank bid keeps the one reported.
                bid=table_results.UNSTATED if bid is None else bid,
            )
        return _table_message(table_.number, state)

    return attempt(request, tournament, send, form=form, key=(key, table_.pk), anchor=anchor)


def _confirm_as_reported(request, tournament: Tournament, table_, out: dict[str, Any], anchor: str):
    def confirm() -> str:
        # The page showed the report as of this version; confirm only what the player saw.
        if request.POST.get("version") != str(table_.game.version):
            raise InvalidInput(
                f"the result of table {table_.number} has changed since the page "
                "was loaded: check it again"
            )
        reported = (out.get("report") or {}).get("reported") or []
        state = tournaments.table_confirm(
            tournament=tournament, table=table_, user=request.user, results=reported
        )
        return _table_message(table_.number, state)

    return attempt(request, tournament, confirm, anchor=anchor)


def _table_message(number: int, state: dict[str, Any]) -> str:
    if state["status"] == Table.Report.FINAL:
        return f"Table {number}: the result is final."
    if state["status"] == Table.Report.DISPUTED:
        return f"Table {number}: the result is disputed; the organiser decides it."
    return f"Table {number}: reported, awaiting confirmation."


def _forfeit(tournament, request, table: int) -> str:
    """A no-show's forfeit (``player``), or an adjudication (a place for each seat)."""
    table_ = tournaments.table_get(tournament, table)
    reason = request.POST.get("reason", "")
    if "player" in request.POST:
        player = request.POST["player"]
        tournaments.table_forfeit(
            tournament=tournament, table=table_, by=request.user, player=player, reason=reason
        )
        return f"Table {table_.number}: {player} forfeits ({reason.strip()})."
    seats = selectors.table_out(table_)["seats"]
    results = [
        {
            "player": name,
            "score": None,
            "rank": inputs.whole_number(
                request.POST.get(f"place_{i}", ""), f"the place of {name}", 1, len(seats)
            ),
        }
        for i, name in enumerate(seats)
    ]
    tournaments.table_forfeit(
        tournament=tournament, table=table_, by=request.user, results=results, reason=reason
    )
    return f"Table {table_.number}: adjudicated ({reason.strip()})."


def _extra_time(tournament, request, table: int) -> str:
    table_ = tournaments.table_extra_time(
        tournament=tournament,
        table=tournaments.table_get(tournament, table),
        by=request.user,
        minutes=request.POST.get("minutes"),
    )
    return f"Table {table_.number} plays {table_.extra_minutes} minutes beyond the round."


def _tiebreak(tournament, request, table: int) -> str:
    decided = tournaments.table_tiebreak(
        tournament=tournament,
        table=tournaments.table_get(tournament, table),
        by=request.user,
        order=request.POST.getlist("order"),
    )
    return f"Table {decided['table']}: the play-off's order is {', '.join(decided['order'])}."


tournament_table_forfeit = simple_post(_forfeit, anchor="#rounds")
tournament_table_extra_time = simple_post(_extra_time, anchor="#rounds")
tournament_tiebreak = simple_post(_tiebreak, anchor="#bracket")
