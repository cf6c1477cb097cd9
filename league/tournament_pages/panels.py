"""A table as its viewer sees it on the tournament's page: its result so far (the report and
each dispute of it), its links, and the forms and buttons they may use there."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.urls import reverse
from django.utils.text import slugify

from accounts.bots import BOT_PREFIX
from games.models import GameMode, GameStatus
from games.pages.links import Link
from league import permissions
from league.forms import TableResultForm
from league.models import Table, Tournament


@dataclass
class TablePanel:
    """One table as the viewer sees it: its result so far and the forms they may use."""

    id: int
    number: int
    game: int
    status: str  # the table's report status in table mode, else the game's status
    seats: list[str]
    columns: list[str]  # headings of the result columns: a result, or a report and disputes
    rows: list[dict[str, Any]]  # per seat: its player and one line per column
    bid: dict | None = None
    confirmed_by: list[str] = field(default_factory=list)
    waiting_for: list[str] = field(default_factory=list)
    seated: bool = False
    confirm_version: int | None = None  # set when the viewer may confirm the report as it is
    report_form: TableResultForm | None = None
    dispute_form: TableResultForm | None = None
    # The organiser's settle form is drawn for the one table asked for (?settle=<table id>, or
    # the one whose settling failed), not at every table: elsewhere ``may_override`` and a link.
    override_form: TableResultForm | None = None
    may_override: bool = False
    may_log: bool = False  # the viewer may play it as a table log instead (league.table_logs)
    # Organisers, at a table still playing: forfeit an absent player, or (a game played here)
    # adjudicate it; in table mode, once the round's clock runs, give it extra time.
    may_forfeit: bool = False
    may_adjudicate: bool = False
    may_extra_time: bool = False
    extra_minutes: int = 0
    logged: bool = False  # it is played as a table log: the rules give its result
    urls: dict[str, str] = field(default_factory=dict)  # its links: game, log, report, settle…
    bracket: str = ""  # double elimination: where in the bracket, in words

    @property
    def status_class(self) -> str:
        """The status as a CSS class."""
        return slugify(self.status)


class TableUrls:
    """A table's links, each URL reversed once per page and formatted per table (80 tables
    would reverse 200 URLs)."""

    def __init__(self, tournament: int):
        self.game = Link("game-detail", None)
        self.table = {
            name.replace("-", "_"): Link(f"table-{name}", tournament, None)
            for name in ("log", "report", "confirm", "override", "forfeit", "extra-time")
        }
        self.page = reverse("tournament-detail", args=[tournament])

    def of(self, table: int, game: int) -> dict[str, str]:
        out = {name: link(table) for name, link in self.table.items()}
        out["game"] = self.game(game)
        out["settle"] = f"{self.page}?settle={table}#table-{table}"
        return out


def table_panel(
    tournament: Tournament,
    out: dict[str, Any],
    viewer: permissions.Viewer,
    version: int,
    bound: dict[Any, Any],
    *,
    settle: bool = False,
    urls: TableUrls | None = None,
    clock_running: bool = False,
) -> TablePanel:
    """The panel of the table ``out`` (selectors.rounds_out) for ``viewer``: its result, what
    they may do there, and the forms for it, a form in ``bound`` as it was sent back."""
    seats, state = out["seats"], out.get("report")
    panel = TablePanel(
        id=out["id"],
        number=out["number"],
        bracket=out.get("bracket", ""),
        game=out["game"],
        status=state["status"] if state else out["status"],
        seats=seats,
        columns=[],
        rows=[],
        seated=viewer.name in seats,
        bid=out.get("bid"),
        logged=out.get("mode") == GameMode.LOG,
        urls=(urls or TableUrls(tournament.pk)).of(out["id"], out["game"]),
    )
    panel.columns, panel.rows = _result_rows(out, viewer.name)
    panel.extra_minutes = out.get("extra_minutes", 0)
    if viewer.organiser and out["status"] == GameStatus.ACTIVE:
        panel.may_forfeit = True
        panel.may_adjudicate = out.get("mode") != GameMode.RECORD  # else: settle it
        panel.may_extra_time = tournament.mode == Tournament.Mode.TABLE and clock_running
    if state is None:  # an online table or a table log: its game reports itself
        return panel
    panel.confirmed_by = state["confirmed_by"]
    if state["status"] == Table.Report.AWAITING_CONFIRMATION:
        panel.waiting_for = [
            n for n in seats if n not in state["confirmed_by"] and not n.startswith(BOT_PREFIX)
        ]
    at = permissions.TableAt.of(out)
    has_bid = bool(tournament.options.get("starting_bid"))
    may_confirm = permissions.may_confirm(viewer, at)
    panel.report_form = _result_form(
        bound,
        panel,
        "report",
        permissions.may_report(viewer, at),
        bid=has_bid,
        results=state["reported"],
        bid_value=state["bid"],
    )
    panel.dispute_form = _result_form(
        bound, panel, "dispute", may_confirm, bid=False, results=state["reported"]
    )
    panel.confirm_version = version if may_confirm else None
    panel.may_log = permissions.may_log(viewer, at)
    panel.may_override = permissions.may_override(viewer, at)
    panel.override_form = _result_form(
        bound,
        panel,
        "override",
        panel.may_override and settle,
        bid=has_bid,
        results=out["result"] or state["reported"],
        bid_value=state["bid"],
    )
    return panel


def _result_rows(out: dict[str, Any], me: str | None) -> tuple[list[str], list[dict[str, Any]]]:
    """A table's result columns and, per seat, its player and their line in each: the result
    once final, else the report and each dispute of it."""
    state = out.get("report")
    lines: list[list[dict]] = []
    columns: list[str] = []
    if out["status"] == GameStatus.FINISHED:
        columns, lines = ["Result"], [out["result"]]
    elif state and state["reported"]:
        columns = [f"Reported by {state['confirmed_by'][0]}"]
        columns += [f"{d['by']} says" for d in state["disputes"]]
        lines = [state["reported"]] + [d["results"] for d in state["disputes"]]
    rows = [
        {
            "seat": i,
            "player": name,
            "me": name == me,
            "lines": [column[i] for column in lines],
            # as the card shows them: the rank, and the score or a dash
            "shown": [
                (
                    str(column[i]["rank"]),
                    "—" if column[i].get("score") is None else str(column[i]["score"]),
                )
                for column in lines
            ],
        }
        for i, name in enumerate(out["seats"])
    ]
    return columns, rows


def _result_form(
    bound: dict[Any, Any],
    panel: TablePanel,
    action: str,
    offered: bool,
    *,
    bid: bool,
    results: list[dict] | None = None,
    bid_value: dict | None = None,
) -> TableResultForm | None:
    """The table's form for ``action``: as it was sent back with its errors, else a new one
    where it is ``offered``, filled with ``results``."""
    if (action, panel.id) in bound:
        return bound[(action, panel.id)]
    if not offered:
        return None
    return TableResultForm(
        seats=panel.seats,
        bid=bid,
        prefix=f"t{panel.id}-{action}",
        initial=TableResultForm.initial_from(results, bid_value),
    )
