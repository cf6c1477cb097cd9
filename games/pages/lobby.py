"""Pages for coming to a game: your invitations, the lobby of open seats and live games to
watch, taking an open seat, and asking for a rematch. The services are games.play.lobby's."""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from games import signals
from games.catalog import game_name
from games.models import Game, GameStatus, Seat
from games.pages.bots import not_for_bot_accounts
from games.play import clocks, lobby, seating
from games.selectors import game_with_seats
from games.templatetags.ordinals import ordinal

LOBBY_GAMES = 50
LIVE_GAMES = 30


@dataclass
class Place:
    """A seat as a list shows it: its order of play and who holds it."""

    index: int
    order: str  # "1st", "2nd"...
    who: str
    open: bool
    to_play: bool


@dataclass
class GameCard:
    game: Game
    name: str
    clock: str
    places: list[Place]


def seat_label(seat: Seat) -> str:
    if seat.is_open:
        return "open seat"
    if seat.bot:
        return seat.player_name
    waiting = "" if seat.accepted else ", invited"
    return f"{seat.name}{waiting}{', resigned' if seat.resigned else ''}"


def card(game: Game) -> GameCard:
    to_play = game.current_player if game.status == GameStatus.ACTIVE else None
    return GameCard(
        game=game,
        name=game_name(game.slug),
        clock=clocks.describe(clocks.time_control_of(game)),
        places=[
            Place(
                index=s.index,
                order=ordinal(s.index + 1),
                who=seat_label(s),
                open=s.is_open,
                to_play=s.index == to_play,
            )
            for s in game.seats.all()
        ],
    )


@login_required
def invitations(request):
    seats = list(lobby.invitations_for(request.user))
    return render(
        request,
        "games/invitations.html",
        {
            "invitations": [
                {
                    "seat": seat,
                    "name": game_name(seat.game.slug),
                    "order": ordinal(seat.index + 1),
                    "by": seat.game.created_by.username if seat.game.created_by else "",
                    "clock": clocks.describe(clocks.time_control_of(seat.game)),
                }
                for seat in seats
            ],
            "log_seats": [
                {
                    "seat": seat,
                    "name": game_name(seat.game.slug),
                    "keeper": seat.game.scorekeeper.username if seat.game.scorekeeper else "",
                }
                for seat in seating.log_seats_waiting(request.user)
            ],
            "elsewhere": signals.invitations_elsewhere(request.user),
        },
    )


def lobby_page(request):
    return render(
        request,
        "games/lobby.html",
        {
            "open_games": [card(g) for g in lobby.open_games(request.user)[:LOBBY_GAMES]],
            "live_games": [card(g) for g in lobby.live_games(request.user)[:LIVE_GAMES]],
        },
    )


@login_required
@require_POST
@not_for_bot_accounts
def game_join(request, pk: int):
    game = game_with_seats(pk, seen_by=request.user)
    try:
        lobby.game_join(game=game.pk, seat=request.POST.get("seat"), user=request.user)
    except ServiceError as exc:
        messages.error(request, f"You could not join: {exc}.")
        return redirect("lobby")
    messages.success(request, "You have taken your seat.")
    return redirect("game-detail", pk=game.pk)


@login_required
@require_POST
@not_for_bot_accounts
def game_rematch(request, pk: int):
    game = game_with_seats(pk, seen_by=request.user)
    try:
        new = lobby.game_rematch(game=game.pk, user=request.user)
    except ServiceError as exc:
        messages.error(request, f"No rematch: {exc}.")
        return redirect("game-detail", pk=game.pk)
    messages.success(request, "Rematch! The other players are invited.")
    return redirect("game-detail", pk=new.pk)


@login_required
@require_POST
@not_for_bot_accounts
def game_cancel(request, pk: int):
    game = game_with_seats(pk, seen_by=request.user)
    try:
        lobby.game_cancel(game=game.pk, user=request.user)
    except ServiceError as exc:
        messages.error(request, f"The game goes on: {exc}.")
    else:
        messages.success(request, "The game is called off.")
    return redirect("game-detail", pk=game.pk)
