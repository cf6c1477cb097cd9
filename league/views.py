"""Pages for ratings, leagues, tournaments and club records.

Ratings: a leaderboard per game and a player page with rating-history charts. Leagues,
tournaments and records: pages that read through the selectors and the services' read
functions and change things only through the services (``league.services.leagues``,
``league.services.tournaments``). A service error is shown on the form that was sent, or at the top
of the page for a button; a refusal (not the viewer's to do) is shown at the top with a 403.
Success redirects with a message.
"""

from __future__ import annotations

from dataclasses import dataclass
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
from django.views.decorators.http import require_POST

from accounts.bots import is_bot
from accounts.people import ERASED_PREFIX
from core import inputs
from core.errors import InvalidInput, NotYourSeat, ServiceError
from games.catalog import game_name, game_types
from games.models import Game, GameMode, GameStatus
from games.pages.links import Link, back_or
from games.player_names import player_words
from games.records import reads as record_reads
from games.records import services as records
from games.records.oceans import SLUG as OCEANS
from games.selectors import game_with_seats
from league import club_views, rating_scale, selectors, visibility
from league.charts import rating_chart
from league.figures import figure, standing_rows
from league.forms import (
    CorrectionForm,
    LeagueForm,
    MatchForm,
    MemberForm,
    PlaysImportForm,
    SeasonForm,
    SeasonTournamentForm,
)
from league.models import League, LeagueInvitation, Season
from league.plays import MAX_BYTES as MAX_PLAYS_FILE
from league.services import leagues, plays
from league.services.bot_levels import level_ratings

User = get_user_model()


def ratings_index(request):
    """The ladder of the game most played here (the most rated games), not an empty one."""
    return redirect("leaderboard", slug=selectors.most_played_game())


def leaderboard(request, slug: str):
    """The ladder of one game, played here or only recorded (Oceans): ranked by rating minus
    two deviations, the provisional players shown only when asked (``?provisional=1``)."""
    if slug not in game_types():
        raise Http404("unknown game")
    with_provisional = request.GET.get("provisional") == "1"
    player_url = Link("player", None)
    everyone = selectors.leaderboard(slug)
    ranked = everyone if with_provisional else [r for r in everyone if not r.shown["provisional"]]
    rows = []
    for place, r in enumerate(ranked[:200], 1):
        rows.append(
            {
                **selectors.rating_entry(r),
                "place": str(place),
                "games_shown": str(r.games),
                "is_bot": is_bot(r.user),
                # as the table shows them: the player in people's words (a house bot by its
                # level's name), the rating and its margin as whole numbers, and the link
                "player_shown": player_words(r.user.username),
                "rating_shown": figure(r.shown["rating"], 0),
                "deviation_shown": figure(r.shown["deviation"], 0),
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
            "with_provisional": with_provisional,
            "provisional_count": sum(1 for r in everyone if r.shown["provisional"]),
            "rated_count": len(everyone),
        },
    )


def ratings_how(request):
    """How ratings work, in players' words, with the figures the pages use."""
    return render(
        request,
        "league/ratings_how.html",
        {
            "newcomer": figure(rating_scale.NEWCOMER_DEVIATION, 0),
            "provisional_above": figure(rating_scale.PROVISIONAL_DEVIATION, 0),
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
        if rating is not None:
            now_shown = selectors.shown_rating(rating)
            card["shown"] = {
                **now_shown,
                "rating_shown": figure(now_shown["rating"], 0),
                "deviation_shown": figure(now_shown["deviation"], 0),
            }
        card["summary"] = summaries.get(slug)
        if card["summary"]:
            card["best"] = _place(card["summary"]["best"])
        if histories.get(slug):
            page = _whole_number(request.GET.get(f"chart-{slug}"), 1)
            games = histories[slug]
            chart = rating_chart(
                [(when, after, game_id) for when, after, game_id, _, _ in games],
                rating_scale.BASE,
                page,
                deviations=[deviation for _, _, _, deviation, _ in games],
                start_deviation=rating_scale.NEWCOMER_DEVIATION,
            )
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
    # each rated game's change to the rating shown, as a whole number with its sign
    changes = {
        game_id: f"{round(change):+d}" if round(change) else "±0"
        for games in histories.values()
        for _, _, game_id, _, change in games
    }
    history = [
        {
            "played": p,
            "name": game_name(p.game.slug),
            "place": _place(p),
            "against": against[p.game.pk],
            "change": changes.get(p.game.pk, "—"),
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
            "shown_name": player_words(user.username),
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


def _ladder(rows: list[dict[str, Any]], player_url) -> list[dict[str, Any]]:
    """A league's rows as its own ladder: ranked by the rating less twice its deviation, as the
    site's leaderboards are; provisional ratings last, marked."""
    ranked = sorted(rows, key=lambda r: (r["provisional"], -r["conservative"]))
    return [
        {
            "player": r["player"],
            "url": player_url(r["player"]),
            "rating_shown": figure(r["rating"], 0),
            "deviation_shown": figure(r["deviation"], 0),
            "provisional": r["provisional"],
            "games": r["games"],
        }
        for r in ranked
    ]


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
            # The club's own ladder of one game type (a rating is of one game): the chosen one,
            # or the only one played here.
            "ladder": _ladder(
                shown if choice.slug or len(tables["games"]) == 1 else [], player_url
            ),
            "ladder_name": game_name(choice.slug or tables["games"][0]["game"])
            if choice.slug or len(tables["games"]) == 1
            else "",
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
                import_duplicates=data["import_duplicates"],
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
    form = CorrectionForm(
        request.POST or None,
        players=players,
        current=current,
        oceans=game.slug == OCEANS,
        sheet=state["sheet"],
    )
    status = 200
    if request.method == "POST" and form.is_valid():
        try:
            leagues.match_correct(
                game=game,
                results=form.results(),
                by=request.user,
                reason=form.cleaned_data["reason"],
                sheet=form.sheet(),
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
