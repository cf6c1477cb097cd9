"""A tournament's page: its rounds and tables, the standings, the entries and walk-ins, the
player's own table first, and for its organisers the draft, the settings and the log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.shortcuts import render

from accounts.bots import is_bot
from core.errors import InvalidInput
from games.catalog import game_name
from games.models import GameStatus
from games.pages.links import Link
from league import permissions, selectors, visibility
from league.figures import tournament_standing_rows
from league.forms import ClaimForm, DropForm, PlayerForm, TournamentEditForm, WalkInForm
from league.models import GUEST_MARK, Entry, Table, Tournament
from league.services import tournaments
from league.tournament_log import log_lines
from league.tournament_pages.panels import TablePanel, TableUrls, table_panel
from league.tournament_pages.words import (
    TIE_WORDS,
    TIEBREAK_HELP,
    TIEBREAK_HELP_V1,
    TIEBREAK_LABELS,
    bracket_shown,
    placings_shown,
)


def tournament_detail(request, pk: int):
    return tournament_page(request, visibility.tournament_or_404(pk, request.user))


def tournament_page(
    request,
    tournament: Tournament,
    *,
    bound: dict[Any, Any] | None = None,
    error: str = "",
    status: int = 200,
):
    """The tournament's page as ``request``'s viewer sees it: with the forms in ``bound`` sent
    back as they came, errors and all (by key: "enter", or (action, table id) at a table),
    ``error`` at the top, and ``status``."""
    bound = bound or {}
    user = request.user
    viewer = permissions.Viewer.of(tournament, user)
    settle = request.GET.get("settle", "")
    urls = TableUrls(tournament.pk)
    # The rounds, their tables (games, seats, players) and the entries, each read once and
    # shared by the tables shown and the standings.
    live = selectors.rounds_of(tournament)
    tables = list(selectors.tables_of(tournament))
    versions = {table.game_id: table.game.version for table in tables}
    entries = list(tournament.entries.select_related("user__profile"))  # profile: is it a bot
    rounds = [
        {
            **out,
            "tables": [
                table_panel(
                    tournament,
                    table,
                    viewer,
                    versions[table["game"]],
                    bound,
                    settle=settle == str(table["id"]),
                    urls=urls,
                    clock_running=out["started_at"] is not None,
                )
                for table in out["tables"]
            ],
        }
        for out in selectors.rounds_out(live, tables)
    ]
    playing = [e.name for e in entries if not e.dropped]
    me = next((e for e in entries if e.user_id == user.pk), None) if user.is_authenticated else None
    repairable = bool(live) and tournaments.why_not_repairable(live[-1]) is None
    floor = f"1/{tournament.table_size + 1}"
    standings_error = ""
    try:
        after = selectors.standings_round(tournament, request.GET.get("round"))
    except InvalidInput as exc:
        after, standings_error, status = None, str(exc), 400
    played = sum(1 for r in live if r.stage == "main")
    help_words = TIEBREAK_HELP_V1 if tournament.tiebreak_version == 1 else TIEBREAK_HELP
    return render(
        request,
        "league/tournament_detail.html",
        {
            "tournament": tournament,
            "name": game_name(tournament.slug),
            "organiser": viewer.organiser,
            "organisers": [u.username for u in tournament.organisers.order_by("username")],
            "rounds": rounds,
            "latest": rounds[-1]["number"] if rounds else None,
            "tiebreaks": [TIEBREAK_LABELS.get(name, name) for name in tournament.tiebreaks],
            "tiebreak_help": [
                (TIEBREAK_LABELS.get(name, name), help_words.get(name, "").format(floor=floor))
                for name in tournament.tiebreaks
            ],
            "repairable": repairable and tournament.status != Tournament.Status.FINISHED,
            "finishable": viewer.organiser
            and tournament.status == Tournament.Status.RUNNING
            and tournaments.why_not_finishable(tournament) is None,
            "champion": selectors.tournament_champion(tournament),
            "started": bool(live),
            "in_count": sum(1 for e in entries if selectors.in_field(e) and not e.dropped),
            "waitlist": [e.name for e in entries if e.waitlisted],
            "waiting_here": [e.name for e in entries if e.waitlisted and e.checked_in],
            "not_checked_in": [
                e.name for e in entries if not e.waitlisted and not e.dropped and not e.checked_in
            ],
            # Who an organiser may check in: those with a place, and those waiting for one.
            "to_check_in": [e.name for e in entries if not e.dropped and not e.checked_in],
            "check_in_open": tournament.check_in and tournament.check_in_closed_at is None,
            "dropped_players": [e.name for e in entries if e.dropped],
            "bots": {e.name for e in entries if e.user_id and is_bot(e.user)},
            # Entered by an organiser and not yet answered: their games rate nobody meanwhile.
            "unanswered": [
                e.name for e in entries if e.answer == Entry.Answer.INVITED and not e.dropped
            ],
            "standings": _by_pool(
                tournament_standing_rows(
                    selectors.tournament_standings(
                        tournament, entries=entries, rounds=live, tables=tables, after_round=after
                    ),
                    _player_pages(),
                )
            ),
            "standings_after": after,
            "double_bracket": selectors.double_bracket(tournament),
            "standings_error": standings_error,
            "standings_rounds": list(range(played, 0, -1)),
            "draft": selectors.draft_out(tournament) if viewer.organiser else None,
            "fixed": [(e.name, e.fixed_table) for e in entries if e.fixed_table],
            "your_table": _your_table(tournament, me, rounds),
            "entries": len(entries),
            "my_entry": me,
            "enter_form": bound.get("enter") or PlayerForm(),
            **_walk_ins(tournament, entries, viewer, me, user, bound),
            "drop_form": DropForm(players=playing),
            "error": error,
            "live": tournament.status == Tournament.Status.RUNNING,
            # The organisers' own: the settings to edit and the tournament's log.
            "edit_form": (
                bound.get("edit") or TournamentEditForm(tournament=tournament, started=bool(live))
            )
            if viewer.organiser
            else None,
            "log": log_lines(tournament, tiebreaks=TIEBREAK_LABELS) if viewer.organiser else [],
            "bracket": bracket_shown(tournament),
            "placings": placings_shown(tournament),
            "ties": TIE_WORDS[tournament.elimination_ties],
        },
        status=status,
    )


def _player_pages() -> Callable[[str], str]:
    """A player's page by name, or "" for a walk-in (a guest has none)."""
    link = Link("player", None)
    return lambda name: "" if name.endswith(GUEST_MARK) else link(name)


def _walk_ins(tournament, entries, viewer, me, user, bound) -> dict[str, Any]:
    """The walk-ins: the organisers' form and list (each with its claim code, or who claimed
    it), and a signed-in player's form to claim one with the code on their slip."""
    unclaimed = any(e.guest and not e.user_id for e in entries)
    table_mode = tournament.mode == Tournament.Mode.TABLE
    return {
        "walk_in_form": (bound.get("walk_in") or WalkInForm())
        if viewer.organiser and table_mode and tournament.status != Tournament.Status.FINISHED
        else None,
        "walk_ins": [selectors.walk_in_out(e) for e in entries if e.guest]
        if viewer.organiser
        else [],
        "claim_form": (bound.get("claim") or ClaimForm())
        if user.is_authenticated and me is None and unclaimed and not viewer.organiser
        else None,
    }


def _your_table(tournament: Tournament, me: Entry | None, rounds: list[dict]) -> dict | None:
    """The signed-in player's place in the latest round, for the card at the top of the
    page: their table and opponents, or their bye, and what to do next."""
    if me is None or me.dropped or me.waitlisted or not rounds:
        return None
    latest = rounds[-1]
    if me.name in latest["byes"]:
        return {"round": latest["number"], "bye": True}
    table = next((t for t in latest["tables"] if me.name in t.seats), None)
    if table is None:
        return None
    seat = table.seats.index(me.name)
    return {
        "round": latest["number"],
        "bye": False,
        "table": table,
        "opponents": [name for name in table.seats if name != me.name],
        "seat": selectors.SEAT_WORDS[seat],
        "next": _next_step(tournament, table),
    }


def _next_step(tournament: Tournament, table: TablePanel) -> str:
    """What the player at ``table`` does next, in words."""
    if table.status in (GameStatus.FINISHED, Table.Report.FINAL):
        return "Your result is in: wait for the next round."
    if table.status == Table.Report.AWAITING_CONFIRMATION:
        if table.confirm_version is not None:
            return "Check the result reported at your table and confirm it."
        return "Your result is reported: the others at your table confirm it."
    if table.status == Table.Report.DISPUTED:
        return "Your result is disputed: the organiser settles it."
    if tournament.mode == Tournament.Mode.TABLE and not table.logged:
        return "Go to your table and play; when the game ends, report the result here."
    return "Your game is ready: open it and play."


def _by_pool(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Standings as the page shows them: numbered in order, or pool by pool (format pools),
    each numbered within its pool."""
    if not rows or "pool" not in rows[0]:
        return [{**row, "place": i} for i, row in enumerate(rows, start=1)]
    out: list[dict[str, Any]] = []
    for pool in sorted({str(row["pool"]) for row in rows}):
        members = [row for row in rows if row["pool"] == pool]
        out += [{**row, "place": i} for i, row in enumerate(members, start=1)]
    return out
