"""The tournament page's way into a table log (league.services.table_logs)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import RECORD
from core.errors import InvalidInput, ServiceError
from games.api.serializers import GameOut
from games.selectors import game_with_seats
from league import visibility
from league.models import Tournament
from league.services import table_logs, tournaments


def _table(tournament: Tournament, table: int):
    try:
        return tournaments.table_get(tournament, table)
    except InvalidInput:
        raise Http404("no table") from None


@login_required
@require_POST
def table_log(request, pk: int, table: int):
    """Play this table as a table log, kept by whoever asks (a player there, an organiser)."""
    tournament = visibility.tournament_or_404(pk, request.user)
    table_ = _table(tournament, table)
    try:
        game = table_logs.table_log_start(tournament=tournament, table=table_, by=request.user)
    except ServiceError as exc:
        messages.error(request, f"Table {table_.number}: {exc}")
        return redirect(reverse("tournament-detail", args=[tournament.pk]) + f"#table-{table_.pk}")
    return redirect("game-log", pk=game.pk)


class TableLogApi(APIView):
    """``POST /api/tournaments/{id}/tables/{table}/log/``: the table is played as a table log
    kept by you (a player at the table, or an organiser); the game, now in mode "log"."""

    scopes = {"POST": RECORD}

    @extend_schema(request=None, responses={201: GameOut})
    def post(self, request, pk, table):
        tournament = visibility.tournament_or_404(pk, request.user)
        game = table_logs.table_log_start(
            tournament=tournament, table=_table(tournament, table), by=request.user
        )
        return Response(
            GameOut(game_with_seats(game.pk), context={"detail": True}).data,
            status=status.HTTP_201_CREATED,
        )
