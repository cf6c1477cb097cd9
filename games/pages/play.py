"""Server-rendered pages: the games list, a new game and the game page.

Pages parse input and call ``games.play.services``. The game page embeds only what the services
return for the viewer (their seat's view, their legal actions, the log as they may see it);
static/js/game.js draws it and keeps it live through the JSON API.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.db.models import Prefetch, QuerySet, prefetch_related_objects
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from accounts.bots import is_bot_account
from core import inputs
from core.errors import InvalidInput, NotYourSeat, ServiceError
from games import audience, logchain, signals
from games.api.serializers import GameOut
from games.bots import BOTS, bot_name
from games.catalog import game_name, game_types
from games.models import EarlierFingerprint, EventKind, Game, GameMode, GameStatus, Seat
from games.pages.bots import not_for_bot_accounts
from games.pages.forms import NewGameForm
from games.pages.links import back_or
from games.play import away, endgame, lobby, reads, seating, services
from games.records import export
from games.records import reads as record_reads
from games.rules import CHANCE
from games.selectors import game_with_seats
from games.store import VersionConflict
from inbox import services as inbox

RECENT_GAMES = 20
MY_GAMES = 50
SEAT_COLUMNS = ("game", "index", "user", "guest", "bot", "resigned", "accepted")


# -- the games list -------------------------------------------------------------------------------


@dataclass
class GameRow:
    game: Game
    name: str
    seats: list[str]
    turn: str  # who is to play, "" once finished
    your_turn: bool
    status: str = ""  # in words, where "Active" would mislead (a record waiting for its players)
    waiting_for: str = ""  # the people invited who have not accepted yet: "bob and carol"


# -- the front door -------------------------------------------------------------------------------

# Each game in a line of our own, for someone who has never played it.
GAME_LINES = {
    "abyss": "Buy Allies with pearls, recruit the Lords of the underwater kingdom and hold "
    "Locations: the most influence wins.",
    "deep-sea-adventure": "Divers share one submarine and one tank of air: dive for treasure, "
    "and get it back up before the air runs out.",
    "deep-vents": "Grow an ecosystem around your vent, one hex a round, and end with the "
    "most archaea.",
    "oceans": "Played at your table and recorded here: the club's results, score sheets and "
    "ratings.",
    "ventlife": "Lay tiles into a shared vent field and fill it with creatures of the four "
    "species in play.",
}
# The house bot a "Play a bot now" seats: one that plays to win, quickly.
HOUSE_BOT = "greedy"


@dataclass(frozen=True)
class FrontGame:
    slug: str
    name: str
    line: str
    players: str  # "2 to 4 players"
    playable: bool  # False: recorded from a table (Oceans), no bot to play


def front_games() -> list[FrontGame]:
    """The games the home page offers, each with its line, its picture (static/img/games/) and
    its number of players."""
    return [
        FrontGame(
            slug=kind.slug,
            name=kind.name,
            line=GAME_LINES.get(kind.slug, ""),
            players=f"{kind.min_players} to {kind.max_players} players",
            playable=kind.playable,
        )
        for kind in game_types().values()
    ]


def _house_bot() -> str:
    return HOUSE_BOT if HOUSE_BOT in BOTS else next(iter(BOTS))


@require_POST
@not_for_bot_accounts
def game_against_bot(request, slug: str):
    """ "Play a bot now": a game of ``slug`` between the member and a house bot, in one click
    with the game's usual options and no clock. A visitor signs in first and comes back to
    the home page."""
    kind = game_types().get(slug)
    if kind is None or not kind.playable:
        raise Http404("no such game to play")
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("game-list"))
    try:
        game = services.game_create(
            slug=slug,
            seats=[{"user": request.user.username}, {"bot": _house_bot()}],
            options={},
            created_by=request.user,
        )
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("game-list")
    return redirect("game-detail", pk=game.pk)


def game_list(request):
    """The home page: what Hadal is and its games, each to play against a bot at once; what
    waits for a member first; their games and the others' recent ones."""
    user = request.user
    mine: list[Game] = []
    others = audience.visible(Game.objects.all(), user)
    if user.is_authenticated:
        seated = Seat.objects.filter(user=user).values("game")
        mine = _active_first(Game.objects.filter(pk__in=seated), MY_GAMES)
        others = others.exclude(pk__in=seated)
    return render(
        request,
        "games/game_list.html",
        {
            "my_games": [_row(game, user) for game in mine],
            "other_games": [_row(game, user) for game in _active_first(others, RECENT_GAMES)],
            # What waits for them leads the page (the inbox's open notices that ask them to act).
            "waiting_notices": inbox.waiting(user) if user.is_authenticated else [],
            "front_games": front_games(),
            "house_bot": bot_name(_house_bot()),
            "sign_in_here": f"{reverse('login')}?{urlencode({'next': reverse('game-list')})}",
        },
    )


def _active_first(games: QuerySet[Game], limit: int) -> list[Game]:
    """Up to ``limit`` games with their seats, active ones first, then the most recently moved.

    Two reads along the index on (status, updated_at) and on updated_at, each stopping at
    ``limit``, rather than ranking every game to keep the first few."""
    newest = games.order_by("-updated_at", "-id")
    active = list(newest.filter(status=GameStatus.ACTIVE)[:limit])
    rest = list(newest.exclude(status=GameStatus.ACTIVE)[:limit])
    shown = (active + rest)[:limit]
    # The seats with their players' names, not the players' whole rows.
    seats = Seat.objects.select_related("user").only(*SEAT_COLUMNS, "user__username")
    prefetch_related_objects(shown, Prefetch("seats", seats))
    return shown


def _row(game: Game, user) -> GameRow:
    seats = list(game.seats.all())
    turn, your_turn, waiting = "", False, ""
    if game.mode == GameMode.LOG and game.status == GameStatus.ACTIVE:
        # A table log waits for its scorekeeper, whoever is to act at the table.
        to_act = game.current_player
        turn = "the table (chance)" if to_act == CHANCE else _seat_name(seats[to_act])
        your_turn = game.scorekeeper_id == getattr(user, "pk", None)
    elif waiting := _waiting_for(game, seats):
        # Nobody's turn until every person invited has taken their seat: whoever looks.
        turn = f"waiting for {waiting} to accept"
    elif game.status == GameStatus.ACTIVE and game.current_player is not None:
        seat = seats[game.current_player]
        turn = _seat_name(seat)
        if sum(1 for s in seats if _seat_name(s) == turn) > 1:  # one person, several seats
            turn = f"{turn} (player {seat.index + 1})"
        your_turn = game.current_player in reads.seats_of(game, user)
    status = game.get_status_display()
    if game.mode == GameMode.RECORD and game.status == GameStatus.ACTIVE:
        status = "Waiting for confirmation"  # played on a table; its players confirm it
    return GameRow(
        game=game,
        name=game_name(game.slug),
        seats=[_seat_name(s) for s in seats],
        turn=turn,
        your_turn=your_turn,
        status=status,
        waiting_for=waiting,
    )


def _waiting_for(game: Game, seats: list[Seat]) -> str:
    """The people invited to a game being played here who have not taken their seat yet."""
    if game.mode != GameMode.PLAY or game.status != GameStatus.ACTIVE:
        return ""
    names = [s.player_name for s in seats if s.user_id is not None and not s.bot and not s.accepted]
    return " and ".join([", ".join(names[:-1]), names[-1]] if len(names) > 1 else names)


def _seat_name(seat: Seat) -> str:
    return f"{seat.player_name}, resigned" if seat.resigned else seat.player_name


# -- how to play ----------------------------------------------------------------------------------


# The games with a guide in templates/games/how_to_play/.
GUIDES = ("abyss", "deep-sea-adventure", "deep-vents", "oceans", "ventlife")


def how_to_play(request, slug: str):
    """A game's rules in short, in our words, with the project's rulings."""
    kind = game_types().get(slug)
    if kind is None or slug not in GUIDES:
        raise Http404("no such game")
    return render(
        request,
        "games/how_to_play.html",
        {"name": kind.name, "guide": f"games/how_to_play/{slug}.html", "playable": kind.playable},
    )


# -- a new game -----------------------------------------------------------------------------------


@login_required
@not_for_bot_accounts
def game_new(request):
    form = NewGameForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        try:
            game = services.game_create(
                slug=form.cleaned_data["game"],
                seats=form.seats(),
                options=form.options(),
                created_by=request.user,
                time_control=form.time_control(),
            )
        except InvalidInput as exc:
            form.add_error(None, str(exc))
        else:
            return redirect("game-detail", pk=game.pk)
    return render(request, "games/game_new.html", {"form": form})


# -- the game page --------------------------------------------------------------------------------


def game_detail(request, pk: int):
    """The game as the viewer may see it: their seat's view, or the spectator's.

    A person holding several seats (a hot-seat table) sees the one to play, or picks one with
    ``?seat=N``; anyone not seated sees the spectator view.
    """
    game = game_with_seats(pk, seen_by=request.user)  # the users' profiles too: a bot?
    if game.mode == GameMode.RECORD:
        return _recorded_game(request, game)
    # A table log is watched, not played, here: its scorekeeper enters it on its own page.
    logged = game.mode == GameMode.LOG
    mine = [] if logged else sorted(reads.seats_of(game, request.user))
    # A player seated at a table log plays at the table; its scorekeeper enters the moves here.
    log_seated = sorted(reads.seats_of(game, request.user)) if logged else []
    row = _row(game, request.user)
    seat = _chosen_seat(request.GET.get("seat"), mine, game.current_player)
    view = reads.game_view(game=game, user=request.user, seat=seat)
    actions = (
        [] if seat is None else reads.game_legal_actions(game=game, user=request.user, seat=seat)
    )
    page = {
        "game": GameOut(game).data,
        "name": game_name(game.slug),
        "seat": seat,
        "my_seats": mine,
        "log_seats": log_seated,
        "waiting_for": row.waiting_for,
        "view": view,
        "actions": actions,
        "events": reads.game_events(game=game, user=request.user),
        "api": {
            "game": reverse("api-game", args=[game.pk]),
            "state": reverse("api-game-state", args=[game.pk]),
            "actions": reverse("api-game-actions", args=[game.pk]),
            "events": reverse("api-game-events", args=[game.pk]),
            "resign": reverse("api-game-resign", args=[game.pk]),
            "stream": reverse("api-game-stream", args=[game.pk]),
        },
    }
    return render(
        request,
        "games/game_detail.html",
        {
            "game": game,
            "name": page["name"],
            "seats": [(s, _seat_name(s)) for s in game.seats.all()],
            "seat": seat,
            "my_seats": mine,
            "invited": [
                s.index
                for s in game.seats.all()
                if s.index in mine and not s.accepted and game.status == GameStatus.ACTIVE
            ],
            "page": page,
            "turn": row.turn,
            "waiting_for": row.waiting_for,
            "log_seated": log_seated,
            "away_notes": away.away_notes(game, request.user),
            "fingerprint": _fingerprint(game),
            "has_guide": game.slug in GUIDES,
            "over": endgame.game_over(game, view, request.user),
            "joinable": lobby.joinable_seats(game, request.user),
            "may_cancel": not logged
            and game.status == GameStatus.ACTIVE
            and game.created_by_id == request.user.pk
            and any(not s.accepted and not s.bot for s in game.seats.all()),
            # A table log is rated once every member seated has accepted their seat.
            "log_answers": seating.seat_answers(game) if logged else None,
            "log_seats_to_answer": _log_seats_to_answer(game, request.user) if logged else [],
            "log_entry": logged
            and game.status == GameStatus.ACTIVE
            and game.scorekeeper_id == request.user.pk,
            "bot_account": bool(mine) and is_bot_account(request.user),
        },
    )


def _log_seats_to_answer(game: Game, user) -> list[int]:
    """The viewer's seats at a table log that they have neither accepted nor declined."""
    if not user.is_authenticated or game.status == GameStatus.VOID:
        return []
    declined = seating.seats_declined(game)
    return [
        s.index
        for s in game.seats.all()
        if s.user_id == user.pk and not s.accepted and s.index not in declined
    ]


def _fingerprint(game: Game) -> dict[str, Any] | None:
    """The fingerprint for the page once the game is over (the score slip's moment), and the
    one it had before its record was moved to people's ids, if it was (migration 0021)."""
    if game.status == GameStatus.ACTIVE:
        return None
    full = export.public_fingerprint(game)
    if not full:
        return None
    shown: dict[str, Any] = {"full": full, "short": logchain.short(full)}
    earlier = EarlierFingerprint.objects.filter(game=game).first()
    if earlier is not None:
        shown["earlier"] = {
            "full": earlier.fingerprint,
            "short": logchain.short(earlier.fingerprint),
            "date": earlier.replaced_at,
            "checks": earlier.events is not None,
        }
    return shown


@login_required
@require_POST
@not_for_bot_accounts
def game_seat_answer(request, pk: int, answer: str):
    """An invited person takes their seat, or declines it and calls the game off."""
    game = game_with_seats(pk, seen_by=request.user)
    act = seating.game_accept if answer == "accept" else seating.game_decline
    try:
        act(game=game, seat=request.POST.get("seat"), user=request.user)
    except VersionConflict:
        messages.error(request, "Someone moved first; here is the game now.")
    except NotYourSeat:
        messages.error(request, "That seat is not yours to answer for.")
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if game.mode == GameMode.LOG:
            done = (
                "You have agreed to this table log: it is rated once everyone at it has."
                if answer == "accept"
                else "You declined: this table log will never be rated."
            )
        else:
            done = (
                "You have taken your seat."
                if answer == "accept"
                else "You declined: the game is called off."
            )
        messages.success(request, done)
    return back_or(request, "game-detail", game.pk)


RECORD_WORDS = {
    EventKind.GAME_CREATED: "Table set",
    EventKind.RESULT_RECORDED: "Result recorded",
    EventKind.RESULT_REPORTED: "Result reported",
    EventKind.RESULT_CONFIRMED: "Confirmed",
    EventKind.RESULT_DISPUTED: "Disputed",
    EventKind.RESULT_OVERRIDDEN: "Settled by the organiser",
    EventKind.RESULT_CORRECTED: "Corrected",
    EventKind.GAME_FINISHED: "Result final",
    EventKind.GAME_VOIDED: "Called off",
}


def _recorded_game(request, game: Game):
    """A game played on a table: its players, where its result stands, and the log of how it
    was recorded. A member it names and has not confirmed it may confirm or dispute it."""
    state = record_reads.result_state(game)
    me = request.user.username if request.user.is_authenticated else None
    log = [
        {**event, "words": RECORD_WORDS.get(event["kind"], event["kind"])}
        for event in reads.game_events(game=game, user=request.user)
    ]
    return render(
        request,
        "games/record_detail.html",
        {
            "game": game,
            "name": game_name(game.slug),
            "seats": [(s, _seat_name(s)) for s in game.seats.all()],
            "result": list(zip(game.seats.all(), game.result or [])),
            "state": state,
            "pending": list(zip(game.seats.all(), state["reported"] or [])),
            "may_answer": state["status"] == "awaiting confirmation" and me in state["waiting_for"],
            "may_correct": state["club_record"]
            and game.status != GameStatus.VOID
            and signals.may_correct(game, request.user),
            "events": log,
            "fingerprint": _fingerprint(game),
        },
    )


def _chosen_seat(asked: str | None, mine: list[int], to_play: int | None) -> int | None:
    """The seat asked for if the viewer holds it; else theirs that is to play; else their first."""
    seat = inputs.whole_number_or_none(asked, 0, inputs.BIGINT)
    if seat in mine:
        return seat
    if to_play in mine:
        return to_play
    return mine[0] if mine else None


# -- Oceans ---------------------------------------------------------------------------------------


def oceans_page(request):
    """Oceans, recorded not played: what a record checks, and the promo pack's Deep cards with
    how often each was played and won with."""
    cards = record_reads.oceans_card_statistics()
    return render(
        request,
        "games/oceans.html",
        {
            "name": game_name("oceans"),
            "cards": cards,
            "records": Game.objects.filter(slug="oceans", status=GameStatus.FINISHED).count(),
        },
    )
