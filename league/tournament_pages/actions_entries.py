"""Who plays, as the tournament's page changes it: a late entry, a walk-in and the member who
claims their entry, a drop (asked first) and re-entry, registering, check-in and closing it, a
waiting player seated, and an entry answered by the player entered."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from games.pages.links import back_or
from league import selectors, visibility
from league.forms import ClaimForm, PlayerForm, WalkInForm
from league.models import guest_name
from league.services import tournaments
from league.tournament_pages.actions import attempt, form_post, simple_post
from league.tournament_pages.page import tournament_page


def _enter(tournament, request, data) -> str:
    entry = tournaments.entry_add(tournament=tournament, player=data["player"], by=request.user)
    return f"{entry.name} has entered and plays from the next round paired."


def _walk_in(tournament, request, data) -> str:
    entry = tournaments.entry_walk_in(tournament=tournament, name=data["name"], by=request.user)
    return (
        f"{entry.guest} has entered as a walk-in. Their code to claim the entry later:"
        f" {selectors.shown_code(entry.claim_code)} (kept in the walk-in list)."
    )


def _claim(tournament, request, data) -> str:
    entry = tournaments.entry_claim(tournament=tournament, code=data["code"], by=request.user)
    return f"The entry of {guest_name(entry.guest)} is yours now: its games and standing."


@login_required
def tournament_drop(request, pk: int):
    """A drop asks first: the form (or ?player= on GET) shows a page to confirm it, and only
    the confirmation (``confirmed``) drops."""
    tournament = visibility.tournament_or_404(pk, request.user)
    player = (request.POST if request.method == "POST" else request.GET).get("player", "")
    if player != request.user.username and not selectors.is_tournament_organiser(
        tournament, request.user
    ):
        return tournament_page(
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

    return attempt(request, tournament, drop)


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


def _reenter(tournament, request) -> str:
    entry = tournaments.entry_reenter(
        tournament=tournament, player=request.POST.get("player", ""), by=request.user
    )
    return f"{entry.name} is back in and plays from the next round paired."


tournament_enter = form_post(PlayerForm, "enter", _enter)
tournament_walk_in = form_post(WalkInForm, "walk_in", _walk_in, anchor="#walk-ins")
tournament_claim = form_post(ClaimForm, "claim", _claim)
tournament_register = simple_post(_register)
tournament_check_in = simple_post(_check_in)
tournament_check_in_close = simple_post(_close_check_in, anchor="#registration")
tournament_seat = simple_post(_seat, anchor="#registration")
tournament_reenter = simple_post(_reenter, anchor="#organiser")
