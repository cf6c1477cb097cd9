"""Tournament pages: the list, the form, a tournament's page and its actions, print and projector."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from accounts.bots import BOT_PREFIX, is_bot
from core import inputs
from core.errors import InvalidInput, RuleViolation, ServiceError
from games.catalog import game_name
from games.models import GameMode, GameStatus
from games.pages.links import Link, back_or
from games.records import table_results
from league import permissions, selectors, visibility
from league.figures import tournament_standing_rows
from league.forms import (
    ClaimForm,
    DropForm,
    PlayerForm,
    TableResultForm,
    TournamentEditForm,
    TournamentForm,
    WalkInForm,
)
from league.models import GUEST_MARK, Entry, Table, Tournament, guest_name
from league.services import tournaments
from league.tournament_log import log_lines
from league.views import _refusal_status

TIEBREAK_LABELS = {
    "buchholz": "Buchholz",
    "score": "Score",
    "share": "Share",
    "wins": "Wins",
    "head_to_head": "Head to head",
    "median_buchholz": "Median Buchholz",
    "opponents_share": "Opponents' share",
}
TIEBREAK_HELP = {
    "buchholz": "the average, over your games, of your opponents' average points, so a game at"
    " a smaller table counts as much as one at a full table.",
    "score": "your game scores, added up.",
    "share": "your score at each table as a part of the table's total, added up; a negative"
    " score counts from the table's lowest, so it never beats a higher one.",
    "wins": "the games you won.",
    "head_to_head": "the points you took in games against the other players tied with you.",
    "median_buchholz": "Buchholz without your best and worst game, once you have played three.",
    "opponents_share": "how well your opponents did on average: the part of the most points"
    " they could have taken that they took, counting anyone below {floor} as {floor}.",
}
# The words of tie-break version 1, for events finished before issue 38 (league.standings).
TIEBREAK_HELP_V1 = {
    **TIEBREAK_HELP,
    "buchholz": "the points of everyone you played against, added up.",
    "share": "your score at each table as a part of the table's total, added up.",
}


def tournament_list(request):
    rows = visibility.visible_tournaments(request.user, Tournament.objects.select_related("league"))
    rows = rows.order_by("-created_at")[:200]
    return render(
        request,
        "league/tournament_list.html",
        {"tournaments": [{"tournament": t, "name": game_name(t.slug)} for t in rows]},
    )


@login_required
def tournament_new(request):
    form = TournamentForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournaments.tournament_create(spec=form.spec(), created_by=request.user)
        except ServiceError as exc:
            form.add_error(None, str(exc))
            status = _refusal_status(exc)
        else:
            messages.success(
                request,
                f"{tournament.name} is set up: pair the first round when the players are ready.",
            )
            return redirect("tournament-detail", pk=tournament.pk)
    return render(request, "league/tournament_new.html", {"form": form}, status=status)


def tournament_detail(request, pk: int):
    return _tournament_page(request, visibility.tournament_or_404(pk, request.user))


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


def _tournament_page(
    request,
    tournament: Tournament,
    *,
    bound: dict[Any, Any] | None = None,
    error: str = "",
    status: int = 200,
):
    bound = bound or {}
    user = request.user
    viewer = permissions.Viewer.of(tournament, user)
    settle = request.GET.get("settle", "")
    urls = _TableUrls(tournament.pk)
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
                _table_panel(
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


TIE_WORDS = {
    Tournament.EliminationTies.PLAYOFF: "played off: the report gives the order, or an"
    " organiser records the play-off",
    Tournament.EliminationTies.SEED: "the higher seed goes through",
    Tournament.EliminationTies.SCORE: "the higher score goes through, then the higher seed",
}


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def placings_shown(tournament: Tournament) -> list[dict[str, str]]:
    """The final placings in words: 1st, 2nd, 3rd–4th, ..."""
    return [
        {
            "place": ordinal(p["place"])
            + (f"–{ordinal(p['to'])}" if p["to"] != p["place"] else ""),
            "player": p["player"],
        }
        for p in selectors.tournament_placings(tournament)
    ]


def bracket_shown(tournament: Tournament) -> dict[str, Any] | None:
    """The bracket (tournaments.tournament_bracket) in the games' words: who holds each place
    or where it comes from, who went through, walkovers and byes."""
    bracket = tournaments.tournament_bracket(tournament)
    if bracket is None:
        return None
    names = {r["round"]: r["name"] for r in bracket["rounds"]}
    rounds = []
    for round_ in bracket["rounds"]:
        tables = []
        for index, table in enumerate(round_["tables"], start=1):
            places = []
            for place in table["places"]:
                source = place["from"]
                if place["player"] is not None:
                    note = "bye in round 1" if "seed" in source and round_["round"] > 1 else ""
                    text = place["player"]
                elif not table["decided"]:
                    text = "to be decided"
                    note = (
                        f"{'winner' if source['place'] == 1 else ordinal(source['place'])}"
                        f" of match {source['bracket_table']}, {names[source['round']].lower()}"
                        if "seed" not in source
                        else ""
                    )
                else:
                    text, note = "empty place", "withdrew"
                places.append(
                    {
                        "text": text,
                        "note": note,
                        "through": place["player"] is not None
                        and place["player"] in table["through"],
                        "empty": place["player"] is None,
                    }
                )
            tables.append(
                {
                    "match": index,
                    "table": table["table"],
                    "status": table["status"],
                    "words": _bracket_status(table),
                    "places": places,
                    "table_id": table["table_id"],
                    "players": [p["player"] for p in table["places"] if p["player"]],
                }
            )
        name = round_["name"]
        if round_["number"] is not None:
            special = name in ("Final", "Semi-finals")
            name = f"Round {round_['number']}" + (f" · {name}" if special else "")
        rounds.append({"name": name, "tables": tables})
    return {"rounds": rounds, "byes": bracket["byes"], "drawn": bracket["drawn"]}


def _bracket_status(table: dict[str, Any]) -> str:
    through = [p for p in table["through"] if p]
    if table["status"] == "walkover":
        return f"walkover: {', '.join(through)} through" if through else "nobody left"
    if table["status"] == "played":
        return (
            f"{', '.join(through)} through"
            if table["going_through"] > 1 or len(through) != 1
            else f"won by {through[0]}"
        )
    if table["status"] == "to play":
        return "to play"
    if table["status"] == "tied":
        return "tied for the place that goes through: to be played off"
    return "waiting for the tables before"


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


class _TableUrls:
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


def _table_panel(
    tournament: Tournament,
    out: dict[str, Any],
    viewer: permissions.Viewer,
    version: int,
    bound: dict[Any, Any],
    *,
    settle: bool = False,
    urls: _TableUrls | None = None,
    clock_running: bool = False,
) -> TablePanel:
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
        urls=(urls or _TableUrls(tournament.pk)).of(out["id"], out["game"]),
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


def _attempt(
    request,
    tournament: Tournament,
    call: Callable[[], str],
    *,
    form=None,
    key: Any = None,
    anchor: str = "",
):
    """Run a service call that returns the success message. On success, back to the page
    with the message; on a service error, the page again with the error on the form, or at the
    top for a button or a refusal (403: not the viewer's to do)."""
    try:
        done = call()
    except ServiceError as exc:
        status = _refusal_status(exc)
        if form is None or status == 403:
            return _tournament_page(request, tournament, error=str(exc), status=status)
        form.add_error(None, str(exc))
        return _tournament_page(request, tournament, bound={key: form})
    messages.success(request, done)
    return redirect(reverse("tournament-detail", args=[tournament.pk]) + anchor)


@login_required
@require_POST
def tournament_pair(request, pk: int):
    tournament = visibility.tournament_or_404(pk, request.user)

    draft = request.POST.get("draft") == "yes"  # the page's "Pair round N" drafts

    def pair() -> str:
        try:
            round_ = tournaments.round_pair(tournament=tournament, by=request.user, draft=draft)
        except RuleViolation:
            # Pairing after the last round closes the tournament, and says so by refusing.
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.FINISHED:
                raise
            return "Every round has been played: the tournament is over."
        if draft:
            return f"Round {round_.number} is drafted: nobody sees it until you publish it."
        return f"Round {round_.number} is paired."

    return _attempt(request, tournament, pair, anchor="#rounds")


@login_required
@require_POST
def tournament_repair(request, pk: int, number: int):
    tournament = visibility.tournament_or_404(pk, request.user)

    def repair() -> str:
        tournaments.round_repair(tournament=tournament, number=number, by=request.user)
        return f"Round {number} is paired again."

    return _attempt(request, tournament, repair, anchor="#rounds")


@login_required
@require_POST
def tournament_enter(request, pk: int):
    tournament = visibility.tournament_or_404(pk, request.user)
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, bound={"enter": form})

    def enter() -> str:
        entry = tournaments.entry_add(
            tournament=tournament, player=form.cleaned_data["player"], by=request.user
        )
        return f"{entry.name} has entered and plays from the next round paired."

    return _attempt(request, tournament, enter, form=form, key="enter")


@login_required
@require_POST
def tournament_walk_in(request, pk: int):
    tournament = visibility.tournament_or_404(pk, request.user)
    form = WalkInForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, bound={"walk_in": form})

    def walk_in() -> str:
        entry = tournaments.entry_walk_in(
            tournament=tournament, name=form.cleaned_data["name"], by=request.user
        )
        return (
            f"{entry.guest} has entered as a walk-in. Their code to claim the entry later:"
            f" {selectors.shown_code(entry.claim_code)} (kept in the walk-in list)."
        )

    return _attempt(request, tournament, walk_in, form=form, key="walk_in", anchor="#walk-ins")


@login_required
@require_POST
def tournament_claim(request, pk: int):
    tournament = visibility.tournament_or_404(pk, request.user)
    form = ClaimForm(request.POST)
    if not form.is_valid():
        return _tournament_page(request, tournament, bound={"claim": form})

    def claim() -> str:
        entry = tournaments.entry_claim(
            tournament=tournament, code=form.cleaned_data["code"], by=request.user
        )
        return f"The entry of {guest_name(entry.guest)} is yours now: its games and standing."

    return _attempt(request, tournament, claim, form=form, key="claim")


@login_required
def tournament_drop(request, pk: int):
    """A drop asks first: the form (or ?player= on GET) shows a page to confirm it, and only
    the confirmation (``confirmed``) drops."""
    tournament = visibility.tournament_or_404(pk, request.user)
    player = (request.POST if request.method == "POST" else request.GET).get("player", "")
    if player != request.user.username and not selectors.is_tournament_organiser(
        tournament, request.user
    ):
        return _tournament_page(
            request,
            tournament,
            error="only the tournament's organisers may drop another player",
            status=403,
        )
    if request.method != "POST" or request.POST.get("confirmed") != "yes":
        return render(
            request,
            "league/tournament_drop_confirm.html",
            {
                "tournament": tournament,
                "player": player,
                "self": player == request.user.username,
                "started": tournament.round_set.exists(),
                "waiting": any(
                    e.name == player
                    for e in tournament.entries.filter(waitlisted=True).select_related("user")
                ),
            },
        )

    def drop() -> str:
        entry = tournaments.entry_drop(tournament=tournament, player=player, by=request.user)
        if entry.user_id == request.user.pk:
            return "You have dropped out: your games stand, and you will not be paired again."
        return f"{entry.name} has dropped: no further pairings."

    return _attempt(request, tournament, drop)


def _simple_post(call: Callable[..., str], *, anchor: str = ""):
    """A view for a button that calls one service with the tournament and the request."""

    @login_required
    @require_POST
    def view(request, pk: int, **kwargs):
        tournament = visibility.tournament_or_404(pk, request.user)
        return _attempt(
            request, tournament, lambda: call(tournament, request, **kwargs), anchor=anchor
        )

    return view


def _reenter(tournament, request) -> str:
    entry = tournaments.entry_reenter(
        tournament=tournament, player=request.POST.get("player", ""), by=request.user
    )
    return f"{entry.name} is back in and plays from the next round paired."


def _register(tournament, request) -> str:
    entry = tournaments.entry_register(tournament=tournament, by=request.user)
    if entry.waitlisted:
        return "The tournament is full: you are on the waitlist and move up if a place frees."
    return "You have entered."


def _check_in(tournament, request) -> str:
    player = request.POST.get("player") or request.user.username
    entry = tournaments.entry_check_in(tournament=tournament, player=player, by=request.user)
    if entry.user_id == request.user.pk:
        return "You are checked in."
    return f"{entry.name} is checked in."


@login_required
@require_POST
def tournament_edit(request, pk: int):
    """The organisers' "Edit" form: the settings changed, as far as the state allows."""
    tournament = visibility.tournament_or_404(pk, request.user)
    started = selectors.live_rounds(tournament).exists()
    form = TournamentEditForm(request.POST, tournament=tournament, started=started)
    if not form.is_valid():
        return _tournament_page(request, tournament, bound={"edit": form})

    def edit() -> str:
        changes = form.changes()
        if not changes:
            return "Nothing was changed."
        tournaments.tournament_edit(tournament=tournament, changes=changes, by=request.user)
        return "The tournament's settings are saved."

    return _attempt(request, tournament, edit, form=form, key="edit", anchor="#edit")


def _close_check_in(tournament, request) -> str:
    promoted = tournaments.check_in_close(tournament=tournament, by=request.user)
    if promoted:
        return f"Check-in is closed. In from the waitlist: {', '.join(promoted)}."
    return "Check-in is closed."


def _seat(tournament, request) -> str:
    entry = tournaments.entry_seat(
        tournament=tournament, player=request.POST.get("player", ""), by=request.user
    )
    return f"{entry.name} has a place."


def _round_start(tournament, request, number: int) -> str:
    round_ = tournaments.round_start(
        tournament=tournament,
        number=number,
        by=request.user,
        minutes=request.POST.get("minutes"),
    )
    return f"Round {number}'s clock is running: {round_.minutes} minutes."


@login_required
@require_POST
def tournament_entry_answer(request, pk: int, answer: str):
    """The player an organiser entered accepts or declines, from the tournament's page or
    their invitations page (``next``)."""
    tournament = visibility.tournament_or_404(pk, request.user)
    try:
        if answer == "accept":
            tournaments.entry_accept(tournament=tournament, by=request.user)
            messages.success(request, f"You are in {tournament.name}.")
        else:
            tournaments.entry_decline(tournament=tournament, by=request.user)
            messages.success(request, f"You declined: you are out of {tournament.name}.")
    except ServiceError as exc:
        messages.error(request, str(exc))
    return back_or(request, "tournament-detail", tournament.pk)


def _draft_edit(tournament, request, number: int) -> str:
    """One edit of the draft from its forms: swap, fix, give (a bye) or seat (take it back)."""
    post = request.POST
    action = post.get("action", "")
    edit: dict[str, Any]
    if action == "swap":
        edit = {"swap": [post.get("player", ""), post.get("other", "")]}
    elif action == "fix":
        table = inputs.whole_number_or_none(post.get("table", ""), 1, 999)
        edit = {"fix": {"player": post.get("player", ""), "table": table or post.get("table")}}
    elif action in ("give", "seat"):
        edit = {"bye": {"player": post.get("player", ""), "give": action == "give"}}
    else:
        raise InvalidInput("choose an edit: swap, fix to a table, or a bye")
    _, costs = tournaments.draft_edit(
        tournament=tournament, number=number, by=request.user, edit=edit
    )
    done = {
        "swap": "Swapped.",
        "fix": "Moved.",
        "give": "Bye given.",
        "seat": "Bye taken back.",
    }[action]
    return " ".join([done, *(f"{cost[0].upper()}{cost[1:]}." for cost in costs)])


def _draft_publish(tournament, request, number: int) -> str:
    tournaments.draft_publish(tournament=tournament, number=number, by=request.user)
    return f"Round {number} is published: its players have been told."


def _draft_discard(tournament, request, number: int) -> str:
    tournaments.draft_discard(tournament=tournament, number=number, by=request.user)
    return f"The draft of round {number} is discarded."


def _fixed_table(tournament, request) -> str:
    raw = request.POST.get("table", "").strip()
    table = inputs.whole_number_or_none(raw, 1, 999) if raw else None
    if raw and table is None:
        raise InvalidInput("the table must be a whole number from 1 to 999, or empty for none")
    entry = tournaments.entry_fix_table(
        tournament=tournament, player=request.POST.get("player", ""), table=table, by=request.user
    )
    if table is None:
        return f"{entry.name} may sit at any table."
    return f"{entry.name} sits at table {table} in every round paired from now on."


tournament_draft_edit = _simple_post(_draft_edit, anchor="#draft")
tournament_draft_publish = _simple_post(_draft_publish, anchor="#rounds")
tournament_draft_discard = _simple_post(_draft_discard, anchor="#organiser")
tournament_fixed_table = _simple_post(_fixed_table, anchor="#organiser")
tournament_reenter = _simple_post(_reenter, anchor="#organiser")
tournament_register = _simple_post(_register)
tournament_check_in = _simple_post(_check_in)
tournament_check_in_close = _simple_post(_close_check_in, anchor="#registration")
tournament_seat = _simple_post(_seat, anchor="#registration")
tournament_round_start = _simple_post(_round_start, anchor="#rounds")


def _tiebreak(tournament, request, table: int) -> str:
    decided = tournaments.table_tiebreak(
        tournament=tournament,
        table=tournaments.table_get(tournament, table),
        by=request.user,
        order=request.POST.getlist("order"),
    )
    return f"Table {decided['table']}: the play-off's order is {', '.join(decided['order'])}."


tournament_tiebreak = _simple_post(_tiebreak, anchor="#bracket")


def _round_clock(tournament, request, number: int, action: str) -> str:
    """Pause, resume or extend a round's clock, from the buttons under the round."""
    if action == "extend":
        round_ = tournaments.round_extend(
            tournament=tournament,
            number=number,
            by=request.user,
            minutes=request.POST.get("minutes"),
        )
        return f"Round {number} now lasts {round_.minutes} minutes."
    if action == "pause":
        tournaments.round_pause(tournament=tournament, number=number, by=request.user)
        return f"Round {number}'s clock is paused."
    tournaments.round_resume(tournament=tournament, number=number, by=request.user)
    return f"Round {number}'s clock is running again."


def _extra_time(tournament, request, table: int) -> str:
    table_ = tournaments.table_extra_time(
        tournament=tournament,
        table=tournaments.table_get(tournament, table),
        by=request.user,
        minutes=request.POST.get("minutes"),
    )
    return f"Table {table_.number} plays {table_.extra_minutes} minutes beyond the round."


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


tournament_round_clock = _simple_post(_round_clock, anchor="#rounds")
tournament_table_extra_time = _simple_post(_extra_time, anchor="#rounds")
tournament_table_forfeit = _simple_post(_forfeit, anchor="#rounds")


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
    if not form.is_valid():
        return _tournament_page(request, tournament, bound={(key, table_.pk): form})

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

    return _attempt(request, tournament, send, form=form, key=(key, table_.pk), anchor=anchor)


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

    return _attempt(request, tournament, confirm, anchor=anchor)


def _table_message(number: int, state: dict[str, Any]) -> str:
    if state["status"] == Table.Report.FINAL:
        return f"Table {number}: the result is final."
    if state["status"] == Table.Report.DISPUTED:
        return f"Table {number}: the result is disputed; the organiser decides it."
    return f"Table {number}: reported, awaiting confirmation."


# -- at the venue ---------------------------------------------------------------------------------


def tournament_print(request, pk: int, number: int):
    """Round ``number``'s pairings and a score slip per table, for printing (one page for the
    pairings, then the slips)."""
    tournament = visibility.tournament_or_404(pk, request.user)
    round_ = selectors.live_rounds(tournament).filter(number=number).first()
    if round_ is None:
        raise Http404("no such round")
    out = selectors.round_out(round_)
    return render(
        request,
        "league/tournament_print.html",
        {
            "tournament": tournament,
            "name": game_name(tournament.slug),
            "round": out,
            "find": selectors.find_your_table(out),
            "bid": bool(tournament.options.get("starting_bid")),
            "bracket": bracket_shown(tournament),
        },
    )


def tournament_projector(request, pk: int):
    """For a screen at the venue: the latest round's tables in big type, its clock counting
    down, and a QR code to the public standings."""
    from league.venue import qr_svg

    tournament = visibility.tournament_or_404(pk, request.user)
    latest = selectors.live_rounds(tournament).last()
    url = request.build_absolute_uri(reverse("tournament-detail", args=[pk]) + "#standings")
    out = selectors.round_out(latest) if latest else None
    return render(
        request,
        "league/tournament_projector.html",
        {
            "tournament": tournament,
            "round": out,
            "find": selectors.find_your_table(out) if out else [],
            "qr": qr_svg(url),
            "standings_url": url,
            "champion": selectors.tournament_champion(tournament),
        },
    )
