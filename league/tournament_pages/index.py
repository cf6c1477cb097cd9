"""The list of tournaments, and the form that sets up a new one."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render

from core.errors import ServiceError
from games.catalog import game_name
from league import visibility
from league.forms import TournamentForm
from league.models import Tournament
from league.services import tournaments
from league.views import _refusal_status


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
