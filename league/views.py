"""Pages for ratings, leagues, tournaments and club records.

Ratings: a leaderboard per game and a player page with rating-history charts. Leagues,
tournaments and records: pages that read through the selectors and the services' read
functions and change things only through the services (``league.services.leagues``,
``league.services.tournaments``). A service error is shown on the form that was sent, or at the top
of the page for a button; a refusal (not the viewer's to do) is shown at the top with a 403.
Success redirects with a message.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_POST

from accounts.bots import BOT_PREFIX, is_bot
from accounts.people import ERASED_PREFIX, shown_username
from core import inputs
from core.errors import InvalidInput, NotYourSeat, RuleViolation, ServiceError
from games.catalog import game_name, game_types
from games.models import Game, GameMode, GameStatus
from games.pages.links import Link, back_or
from games.records import reads as record_reads
from games.records import services as records
from games.selectors import game_with_seats
from league import club_views, permissions, selectors, visibility
from league.charts import rating_chart
from league.figures import figure, standing_rows, tournament_standing_rows
from league.forms import (
    CorrectionForm,
    DropForm,
    LeagueForm,
    MatchForm,
    MemberForm,
    PlayerForm,
    PlaysImportForm,
    SeasonForm,
    SeasonTournamentForm,
    TableResultForm,
    TournamentForm,
)
from league.models import Entry, League, LeagueInvitation, Season, Table, Tournament
from league.plays import MAX_BYTES as MAX_PLAYS_FILE
from league.ratings import DEFAULT_RATING
from league.services import leagues, plays, tournaments
from league.services.bot_levels import level_ratings

User = get_user_model()


def ratings_index(request):
    return redirect("leaderboard", slug=next(iter(game_types())))


def leaderboard(request, slug: str):
    """The Elo ladder of one game, played here or only recorded (Oceans)."""
    if slug not in game_types():
        raise Http404("unknown game")
    player_url = Link("player", None)
    rows = []
    for place, r in enumerate(selectors.leaderboard(slug)[:200], 1):
        openskill = r.openskill_mu - 3 * r.openskill_sigma
        rows.append(
            {
                **selectors.rating_entry(r),
                "place": str(place),
                "games_shown": str(r.games),
                "openskill": openskill,
                "is_bot": is_bot(r.user),
                # as the table shows them (floatformat:1), and the player's link
                "rating_shown": figure(r.rating, 1),
                "openskill_shown": figure(openskill, 1),
                "url": player_url(r.user.username),
            }
        )
    games = [(kind.slug, kind.name) for kind in game_types().values()]
    return render(
        request,
        "league/leaderboard.html",
        {
            "slug": slug,
            "name": game_name(slug),
            "rows": rows,
            "games": games,
            "bot_levels": level_ratings(slug),
        },
    )


HISTORY_PAGE = 25  # games per page of a player's history


def player(request, username: str):
    """A player's games: per game type their rating with its chart, their record and best
    result; their whole history, filtered; head to head against another member (``?vs=``)."""
    # A former member's page stays (their games and ratings are the clubs' history), nameless.
    user = get_object_or_404(
        User.objects.filter(Q(is_active=True) | Q(username__startswith=ERASED_PREFIX)),
        username=username,
    )
    played = selectors.games_played(user, viewer=request.user)
    summaries = selectors.game_summaries(played)
    histories = selectors.rating_histories(user, viewer=request.user)
    ratings = {r.slug: r for r in selectors.player_ratings(user)}
    cards = []
    for slug in sorted(set(summaries) | set(ratings), key=game_name):
        rating = ratings.get(slug)
        card: dict[str, Any] = {"game": slug, "name": game_name(slug), "rating": rating}
        card["summary"] = summaries.get(slug)
        if card["summary"]:
            card["best"] = _place(card["summary"]["best"])
        if histories.get(slug):
            page = _whole_number(request.GET.get(f"chart-{slug}"), 1)
            chart = rating_chart(histories[slug], DEFAULT_RATING, page)
            card["chart"] = chart
            card["earlier"] = (
                _query(request, **{f"chart-{slug}": chart.page + 1})
                if chart.page < chart.pages
                else None
            )
            card["later"] = (
                _query(request, **{f"chart-{slug}": chart.page - 1}) if chart.page > 1 else None
            )
        cards.append(card)

    clubs = sorted({club for p in played for club in p.leagues}, key=lambda c: c[1])
    chosen = {
        "game": request.GET.get("game") if request.GET.get("game") in summaries else None,
        "league": request.GET.get("league")
        if request.GET.get("league") in {slug for slug, _ in clubs}
        else None,
        "result": request.GET.get("result")
        if request.GET.get("result") in selectors.RESULTS
        else None,
    }
    shown = selectors.filter_played(
        played, slug=chosen["game"], league=chosen["league"], result=chosen["result"]
    )
    page = Paginator(shown, HISTORY_PAGE).get_page(request.GET.get("page"))
    against = selectors.opponents([p.game for p in page], user)
    history = [
        {
            "played": p,
            "name": game_name(p.game.slug),
            "place": _place(p),
            "against": against[p.game.pk],
        }
        for p in page
    ]

    vs, versus, vs_error = request.GET.get("vs", "").strip(), None, ""
    if vs:
        other = User.objects.filter(username=vs, is_active=True).first()
        if other is None:
            vs_error = f"There is no member called {vs}."
        elif other == user:
            vs_error = "Choose someone else to compare with."
        else:
            versus = selectors.head_to_head(user, other, played)
    return render(
        request,
        "league/player.html",
        {
            "player": user,
            "shown_name": shown_username(user.username),
            "is_bot": is_bot(user),
            "cards": cards,
            "history": history,
            "page": page,
            "newer": _query(request, page=page.previous_page_number())
            if page.has_previous()
            else None,
            "older": _query(request, page=page.next_page_number()) if page.has_next() else None,
            "game_choices": [(slug, summaries[slug]["name"]) for slug in summaries],
            "league_choices": clubs,
            "chosen": chosen,
            "filtered": any(chosen.values()),
            "vs": vs,
            "versus": versus,
            "vs_error": vs_error,
            "waiting": [
                {"game": game, "name": game_name(game.slug), "state": state}
                for game, state in (
                    record_reads.records_waiting_for(user) if request.user == user else []
                )
            ],
        },
    )


def _place(played: selectors.Played) -> str:
    """The place in people's words: 1st of 4, or 2nd= of 3 for a shared place."""
    rank = played.rank
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    shared = sum(line["rank"] == rank for line in played.game.result) > 1
    return f"{rank}{suffix}{'=' if shared else ''} of {played.players}"


def _whole_number(raw: str | None, default: int) -> int:
    number = inputs.whole_number_or_none(raw, 0, inputs.BIGINT)
    return default if number is None else number


def _query(request, **changes) -> str:
    """This page's query string with some parameters changed."""
    params = request.GET.copy()
    for key, value in changes.items():
        params[key] = str(value)
    return "?" + params.urlencode()


def _refusal_status(exc: ServiceError) -> int:
    """A refusal (not the viewer's to do) is 403; anything else is a form error, shown at 200."""
    return 403 if isinstance(exc, NotYourSeat) else 200


# -- leagues --------------------------------------------------------------------------------------


def league_list(request):
    form = LeagueForm(request.POST or None)
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        if form.is_valid():
            try:
                league = leagues.league_create(
                    name=form.cleaned_data["name"],
                    description=form.cleaned_data["description"],
                    visibility=form.cleaned_data["visibility"],
                    created_by=request.user,
                )
            except ServiceError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, f"{league.name} is open: add its members.")
                return redirect("league-detail", slug=league.slug)
    clubs = visibility.visible_leagues(request.user).annotate(member_count=Count("membership"))
    clubs = clubs.order_by("name")
    return render(request, "league/league_list.html", {"leagues": clubs, "form": form})


def league_detail(request, slug: str):
    league = visibility.league_or_404(slug, request.user, door=True)
    if not visibility.may_read_league(league, request.user):  # invited to a members-only club
        invitation = league.invitations.select_related("invited_by").get(user=request.user)
        return render(
            request, "league/club_door.html", {"league": league, "invitation": invitation}
        )
    return _league_page(request, league)


@dataclass
class StandingsChoice:
    """Which standings the league page shows: a season (None: every league game) and a game
    type (None: overall), read from ``?season=`` (an id, or ``all``) and ``?game=``."""

    season: Season | None
    slug: str | None
    seasons: list[Season]

    @classmethod
    def read(cls, request, league: League) -> StandingsChoice:
        seasons = list(league.seasons.prefetch_related("tournaments"))
        raw = request.GET.get("season")
        try:
            if raw is None:
                season = selectors.current_season(league, seasons)
            elif raw == "all":
                season = None
            else:
                season = selectors.season_named(league, raw)
            slug = selectors.game_named(request.GET.get("game"))
        except InvalidInput as exc:
            raise Http404(str(exc)) from None
        return cls(season=season, slug=slug, seasons=seasons)

    def query(self, **change) -> str:
        season = change.get("season", self.season)
        slug = change.get("slug", self.slug)
        params = {"season": season.pk if season else "all"}
        if slug:
            params["game"] = slug
        return "?" + urlencode(params)


def _league_page(
    request,
    league: League,
    *,
    bound: dict[str, Any] | None = None,
    error: str = "",
    status: int = 200,
):
    bound = bound or {}
    choice = StandingsChoice.read(request, league)
    tables = selectors.league_tables(league, season=choice.season)
    shown = tables["overall"]
    if choice.slug is not None:
        shown = next((t["rows"] for t in tables["games"] if t["game"] == choice.slug), [])
    organiser = selectors.is_league_organiser(league, request.user)
    player_url = Link("player", None)
    members = list(league.membership_set.select_related("user").order_by("-role", "user__username"))
    invited = selectors.league_invited(league)
    for member in [*members, *invited]:
        member.url = player_url(member.user.username)
    invitation = next((i for i in invited if i.user_id == request.user.pk), None)
    games = (
        league.games.exclude(status=GameStatus.VOID)
        .order_by("-finished_at", "-pk")
        .prefetch_related("seats__user")[:20]
    )
    return render(
        request,
        "league/league_detail.html",
        {
            "league": league,
            "organiser": organiser,
            "member": selectors.is_league_member(league, request.user),
            "members": members,
            "invited": invited,
            "invitation": invitation,
            "seasons": choice.seasons,
            "choice": choice,
            "season_links": [
                {"season": s, "query": choice.query(season=s), "current": s == choice.season}
                for s in choice.seasons
            ],
            "all_time_query": choice.query(season=None),
            "game_links": [
                {"slug": None, "name": "All games", "query": choice.query(slug=None)},
                *(
                    {"slug": t["game"], "name": t["name"], "query": choice.query(slug=t["game"])}
                    for t in tables["games"]
                ),
            ],
            "standings": standing_rows(
                shown, player_url, request.user.username if request.user.is_authenticated else None
            ),
            "standings_name": game_name(choice.slug) if choice.slug else "All games",
            "csv_query": choice.query(),
            "recent_games": [
                {"game": g, "name": game_name(g.slug), "result": _result_line(g)} for g in games
            ],
            "tournaments": league.tournaments.order_by("-created_at"),
            "member_form": bound.get("member") or MemberForm(),
            "season_form": bound.get("season") or SeasonForm(),
            "season_tournament_form": bound.get("season-tournament")
            or SeasonTournamentForm(league=league),
            "import_form": bound.get("import") or PlaysImportForm(),
            "import_report": bound.get("import_report"),
            "error": error,
            **club_views.club_panel(league, request.user),
        },
        status=status,
    )


def league_standings_csv(request, slug: str):
    """The standings the league page shows, as CSV: the same ``?season=`` and ``?game=``."""
    league = visibility.league_or_404(slug, request.user)
    choice = StandingsChoice.read(request, league)
    rows = selectors.league_table(league, season=choice.season, slug=choice.slug)
    name = "-".join(
        part
        for part in (
            league.slug,
            leagues.name_slug(choice.season.name) if choice.season else "all",
            choice.slug,
        )
        if part
    )
    response = HttpResponse(selectors.standings_csv(rows), content_type="text/csv")
    response["Content-Disposition"] = f'attachment; filename="{name}-standings.csv"'
    return response


def _result_line(game: Game) -> list[dict[str, Any]]:
    """The result in finishing order; a recorded game's guests are marked."""
    guests = {s.guest for s in game.seats.all() if s.guest}
    return [
        {**line, "guest": line["player"] in guests}
        for line in sorted(game.result or [], key=lambda line: line["rank"])
    ]


@login_required
@require_POST
def league_member_add(request, slug: str):
    """An organiser invites someone (or changes a member's role)."""
    league = visibility.league_or_404(slug, request.user)
    form = MemberForm(request.POST)
    if form.is_valid():
        try:
            added = leagues.member_invite(
                league=league,
                player=form.cleaned_data["player"],
                role=form.cleaned_data["role"],
                by=request.user,
            )
        except NotYourSeat as exc:
            return _league_page(request, league, error=str(exc), status=403)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            name = added.user.username
            if isinstance(added, LeagueInvitation):
                text = f"{name} is invited to {league.name}: a {added.role} once they accept."
            else:
                text = f"{name} is a {added.role} of {league.name}."
            messages.success(request, text)
            return redirect("league-detail", slug=league.slug)
    return _league_page(request, league, bound={"member": form})


@login_required
@require_POST
def league_invitation_answer(request, slug: str, answer: str):
    """The person invited joins the league, or declines, from its page or their invitations."""
    league = visibility.league_or_404(slug, request.user, door=True)
    try:
        if answer == "accept":
            leagues.invitation_accept(league=league, by=request.user)
            messages.success(request, f"Welcome to {league.name}.")
        else:
            leagues.invitation_decline(league=league, by=request.user)
            messages.success(request, f"You declined to join {league.name}.")
    except ServiceError as exc:
        messages.error(request, str(exc))
    if not visibility.may_read_league(league, request.user):  # declined a members-only club
        return back_or(request, "invitations")
    return back_or(request, "league-detail", league.slug)


@login_required
@require_POST
def league_season_add(request, slug: str):
    league = visibility.league_or_404(slug, request.user)
    form = SeasonForm(request.POST)
    if form.is_valid():
        try:
            season = leagues.season_add(league=league, by=request.user, **form.cleaned_data)
        except NotYourSeat as exc:
            return _league_page(request, league, error=str(exc), status=403)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, f"Season {season.name} added.")
            return redirect("league-detail", slug=league.slug)
    return _league_page(request, league, bound={"season": form})


@login_required
@require_POST
def league_season_tournament(request, slug: str):
    league = visibility.league_or_404(slug, request.user)
    form = SeasonTournamentForm(request.POST, league=league)
    if form.is_valid():
        try:
            tournament = leagues.season_tournament_add(by=request.user, **form.cleaned_data)
        except NotYourSeat as exc:
            return _league_page(request, league, error=str(exc), status=403)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            season = form.cleaned_data["season"]
            messages.success(request, f"{tournament.name} counts in {season.name}.")
            return redirect("league-detail", slug=league.slug)
    return _league_page(request, league, bound={"season-tournament": form})


@login_required
@require_POST
def league_plays_import(request, slug: str):
    """An organiser imports a file of plays; a dry run, or an import with refused rows, is
    reported on the league page."""
    league = visibility.league_or_404(slug, request.user)
    form = PlaysImportForm(request.POST, request.FILES)
    if form.is_valid():
        data = form.cleaned_data
        try:
            report = plays.plays_import(
                league=league,
                content=data["file"].read(MAX_PLAYS_FILE + 1),  # decode refuses more
                format=data["format"],
                by=request.user,
                dry_run=data["dry_run"],
                skip_refused=data["skip_refused"],
            )
        except NotYourSeat as exc:
            return _league_page(request, league, error=str(exc), status=403)
        except ServiceError as exc:
            form.add_error("file", str(exc))
        else:
            if report.imported:
                messages.success(request, "Imported: " + "; ".join(report.lines(refusals=10)))
                return redirect("league-detail", slug=league.slug)
            return _league_page(request, league, bound={"import": form, "import_report": report})
    return _league_page(request, league, bound={"import": form})


def league_plays_export(request, slug: str):
    """The league's plays as a download: ``?format=csv`` (default) or ``bgstats``."""
    league = visibility.league_or_404(slug, request.user)
    format = request.GET.get("format", "csv")
    try:
        text, content_type = plays.plays_export(league=league, format=format)
    except InvalidInput as exc:
        raise Http404(str(exc)) from None
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    name = f"{league.slug}-plays.{'json' if format == 'bgstats' else 'csv'}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


# -- club records ---------------------------------------------------------------------------------


@login_required
def match_new(request):
    """Record a game played on a table; the game page shows it once recorded."""
    club = League.objects.filter(slug=request.GET.get("league", "")).first()
    initial: dict[str, Any] = {"league": club.pk} if club else {}
    if request.GET.get("game") in game_types():
        initial["game"] = request.GET["game"]
    form = MatchForm(request.POST or None, user=request.user, initial=initial or None)
    status = 200
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            game = leagues.match_record(
                game=data["game"],
                played_at=data["played_at"],
                results=form.results(),
                recorded_by=request.user,
                league=data["league"].slug if data["league"] else None,
                notes=data["notes"],
                sheet=form.sheet(),
            )
        except ServiceError as exc:
            form.add_error(None, str(exc))
            status = _refusal_status(exc)
        else:
            messages.success(request, f"Recorded {game_name(game.slug)} #{game.pk}.")
            return redirect("game-detail", pk=game.pk)
    return render(request, "league/match_new.html", {"form": form}, status=status)


@login_required
@require_POST
def match_answer(request, pk: int, answer: str):
    """A named member confirms or disputes a club record from its page."""
    game = game_with_seats(pk, seen_by=request.user)
    try:
        if answer == "confirm":
            leagues.match_confirm(game=game, by=request.user)
            messages.success(request, "Confirmed. Thank you.")
        else:
            leagues.match_dispute(game=game, by=request.user, reason=request.POST.get("reason", ""))
            messages.success(request, "Disputed: the result waits for a correction.")
    except ServiceError as exc:
        messages.error(request, str(exc))
    return back_or(request, "game-detail", game.pk)


@login_required
def match_correct(request, pk: int):
    """Whoever recorded a club record, or a league organiser, puts its result right: a new
    result with a reason, logged beside the old one (an organiser's stands at once)."""
    game = game_with_seats(pk, seen_by=request.user)
    if game.mode != GameMode.RECORD:
        raise Http404("No Game matches the given query.")
    state = record_reads.result_state(game)
    if not state["club_record"] or game.status == GameStatus.VOID:
        raise Http404("only a club record is corrected here")
    players = records.seat_names(game)  # members and guests, in seat order
    current = state["reported"] or game.result
    context = {"game": game, "name": game_name(game.slug), "current": current}
    if not selectors.may_correct_record(game, request.user):
        context["refused"] = "Only whoever recorded this game or a league organiser may correct it."
        return render(request, "league/match_correct.html", context, status=403)
    form = CorrectionForm(request.POST or None, players=players, current=current)
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            leagues.match_correct(
                game=game,
                results=form.results(),
                by=request.user,
                reason=form.cleaned_data["reason"],
            )
        except ServiceError as exc:
            form.add_error(None, str(exc))
            status = 403 if isinstance(exc, NotYourSeat) else 400
        else:
            messages.success(request, "Corrected. The history keeps both results.")
            return redirect("game-detail", pk=game.pk)
    elif request.method == "POST":
        status = 400
    context["form"] = form
    return render(request, "league/match_correct.html", context, status=status)


# -- tournaments ----------------------------------------------------------------------------------

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
    "buchholz": "the points of everyone you played against, added up.",
    "score": "your game scores, added up.",
    "share": "your score at each table as a part of the table's total, added up.",
    "wins": "the games you won.",
    "head_to_head": "the points you took in games against the other players tied with you.",
    "median_buchholz": "Buchholz without your best and worst game, once you have played three.",
    "opponents_share": "how well your opponents did on average: the part of the most points"
    " they could have taken that they took, counting anyone below {floor} as {floor}.",
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
    logged: bool = False  # it is played as a table log: the rules give its result
    urls: dict[str, str] = field(default_factory=dict)  # its links: game, log, report, settle…

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
                )
                for table in out["tables"]
            ],
        }
        for out in selectors.rounds_out(live, tables)
    ]
    playing = [e.user.username for e in entries if not e.dropped]
    me = next((e for e in entries if e.user_id == user.pk), None) if user.is_authenticated else None
    repairable = bool(live) and tournaments.why_not_repairable(live[-1]) is None
    floor = f"1/{tournament.table_size + 1}"
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
                (TIEBREAK_LABELS.get(name, name), TIEBREAK_HELP.get(name, "").format(floor=floor))
                for name in tournament.tiebreaks
            ],
            "repairable": repairable and tournament.status != Tournament.Status.FINISHED,
            "champion": selectors.tournament_champion(tournament),
            "started": bool(live),
            "in_count": sum(1 for e in entries if selectors.in_field(e) and not e.dropped),
            "waitlist": [e.user.username for e in entries if e.waitlisted],
            "not_checked_in": [
                e.user.username
                for e in entries
                if not e.waitlisted and not e.dropped and not e.checked_in
            ],
            "dropped_players": [e.user.username for e in entries if e.dropped],
            "bots": {e.user.username for e in entries if is_bot(e.user)},
            # Entered by an organiser and not yet answered: their games rate nobody meanwhile.
            "unanswered": [
                e.user.username
                for e in entries
                if e.answer == Entry.Answer.INVITED and not e.dropped
            ],
            "standings": tournament_standing_rows(
                selectors.tournament_standings(
                    tournament, entries=entries, rounds=live, tables=tables
                ),
                Link("player", None),
            ),
            "entries": len(entries),
            "my_entry": me,
            "enter_form": bound.get("enter") or PlayerForm(),
            "drop_form": DropForm(players=playing),
            "error": error,
            "live": tournament.status == Tournament.Status.RUNNING,
        },
        status=status,
    )


class _TableUrls:
    """A table's links, each URL reversed once per page and formatted per table (80 tables
    would reverse 200 URLs)."""

    def __init__(self, tournament: int):
        self.game = Link("game-detail", None)
        self.table = {
            name: Link(f"table-{name}", tournament, None)
            for name in ("log", "report", "confirm", "override")
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
) -> TablePanel:
    seats, state = out["seats"], out.get("report")
    panel = TablePanel(
        id=out["id"],
        number=out["number"],
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

    def pair() -> str:
        try:
            round_ = tournaments.round_pair(tournament=tournament, by=request.user)
        except RuleViolation:
            # Pairing after the last round closes the tournament, and says so by refusing.
            tournament.refresh_from_db()
            if tournament.status != Tournament.Status.FINISHED:
                raise
            return "Every round has been played: the tournament is over."
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
        return f"{entry.user.username} has entered and plays from the next round paired."

    return _attempt(request, tournament, enter, form=form, key="enter")


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
                "waiting": tournament.entries.filter(
                    user__username=player, waitlisted=True
                ).exists(),
            },
        )

    def drop() -> str:
        entry = tournaments.entry_drop(tournament=tournament, player=player, by=request.user)
        if entry.user_id == request.user.pk:
            return "You have dropped out: your games stand, and you will not be paired again."
        return f"{entry.user.username} has dropped: no further pairings."

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
    return f"{entry.user.username} is back in and plays from the next round paired."


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
    return f"{entry.user.username} is checked in."


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


tournament_reenter = _simple_post(_reenter, anchor="#organiser")
tournament_register = _simple_post(_register)
tournament_check_in = _simple_post(_check_in)
tournament_round_start = _simple_post(_round_start, anchor="#rounds")


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
            state = tournaments.table_override(
                tournament=tournament,
                table=table_,
                by=request.user,
                results=form.results(),
                bid=form.bid(),
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
    return render(
        request,
        "league/tournament_print.html",
        {
            "tournament": tournament,
            "name": game_name(tournament.slug),
            "round": selectors.round_out(round_),
            "bid": bool(tournament.options.get("starting_bid")),
        },
    )


def tournament_projector(request, pk: int):
    """For a screen at the venue: the latest round's tables in big type, its clock counting
    down, and a QR code to the public standings."""
    from league.venue import qr_svg

    tournament = visibility.tournament_or_404(pk, request.user)
    latest = selectors.live_rounds(tournament).last()
    url = request.build_absolute_uri(reverse("tournament-detail", args=[pk]) + "#standings")
    return render(
        request,
        "league/tournament_projector.html",
        {
            "tournament": tournament,
            "round": selectors.round_out(latest) if latest else None,
            "qr": qr_svg(url),
            "standings_url": url,
            "champion": selectors.tournament_champion(tournament),
        },
    )
