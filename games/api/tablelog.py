"""HTTP API for table logs (games.tablelog): creating one, taking its last entry back, and what
the scorekeeper's phone asks for: what is due now and the choices the rules allow."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import READ, RECORD
from core.errors import Refused, RuleViolation
from games import store
from games.api.serializers import AppendOut, appended_response
from games.models import Game, GameMode, GameStatus
from games.play import reads
from games.rules import CHANCE
from games.selectors import game_with_seats
from games.tablelog import services as logs


def log_create(request, data: dict[str, Any]) -> Game:
    """``POST /api/games/`` with ``"mode": "log"``: the checks only a table log makes."""
    if data["mode"] != "log":
        raise Refused('scorekeeper is for a table log only: add "mode": "log"')
    if data["time_control"] is not None:
        raise Refused("no clock runs in a table log: leave time_control out")
    return logs.log_create(
        slug=data["game"],
        seats=data["seats"],
        options=data["options"],
        scorekeeper=data["scorekeeper"],
        created_by=request.user,
    )


class UndoIn(serializers.Serializer):
    expected_version = serializers.IntegerField(min_value=0, max_value=2**31 - 1)


class LogUndoApi(APIView):
    """The scorekeeper takes back the last entry still standing: an EntryUndone event, never
    an edit. 409 on a stale version, with nothing to undo, or once the game is over."""

    scopes = {"POST": RECORD}

    @extend_schema(request=UndoIn, responses={201: AppendOut})
    def post(self, request, pk):
        body = UndoIn(data=request.data)
        body.is_valid(raise_exception=True)
        appended = logs.log_undo(
            game=pk, expected_version=body.validated_data["expected_version"], user=request.user
        )
        return appended_response(request, appended)


class LogDueOut(serializers.Serializer):
    version = serializers.IntegerField()
    status = serializers.CharField()
    due = serializers.ChoiceField(
        choices=["chance", "decision"],
        allow_null=True,
        help_text="what the scorekeeper enters next: a chance outcome or a seat's decision; "
        "null once the game is over",
    )
    seat = serializers.IntegerField(allow_null=True, help_text="the seat to decide, if any")
    choices = serializers.ListField(
        child=serializers.DictField(),
        help_text='the actions the rules allow now; post one with "seat" (or "chance")',
    )
    view = serializers.DictField(help_text="the state as the seat to decide sees it")
    can_undo = serializers.BooleanField()


class LogDueApi(APIView):
    """For the scorekeeper only: what is due now and every choice the rules allow."""

    scopes = {"GET": READ}

    @extend_schema(responses=LogDueOut)
    def get(self, request, pk):
        game = game_with_seats(pk)
        return Response(log_due(game, request.user))


def log_due(game: Game, user) -> dict[str, Any]:
    if game.mode != GameMode.LOG:
        raise RuleViolation("this game is not a table log")
    reads.require_seat_view(game, user)  # the scorekeeper's, while the game runs
    state = store.load_state(game)
    over = game.status != GameStatus.ACTIVE or state.is_terminal()
    player = None if over else state.current_player
    due = None if over else ("chance" if player == CHANCE else "decision")
    seat = player if due == "decision" else None
    return {
        "version": game.version,
        "status": game.status,
        "due": due,
        "seat": seat,
        "choices": [] if over else state.legal_actions(),
        "view": {**state.view(seat), "version": game.version},
        "can_undo": not over and logs.last_standing_entry(game) is not None,
    }
