"""GET /api/games/{id}/export/: a finished game's log as a bundle to check offline."""

from __future__ import annotations

from django.http import HttpResponse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.views import APIView

from accounts.scopes import READ, HasScope
from core.errors import Conflict
from games import logchain
from games.models import GameStatus
from games.records import export
from games.selectors import game_with_seats


class GameExportApi(APIView):
    scopes = {"GET": READ}
    permission_classes = [
        HasScope,
        IsAuthenticatedOrReadOnly,
    ]  # once a game is over, its log is public

    @extend_schema(
        responses={
            200: OpenApiResponse(
                OpenApiTypes.OBJECT,
                description=(
                    "The bundle: format, format_version (2), chain_version (what each hash "
                    "covers: 2 the actor too, 1 for games logged before), rules {slug, module, "
                    "version}, game {mode, status}, events [{seq, kind, data, seat, actor, "
                    "time, hash}] and the fingerprint. Check it with `python3 -I -S "
                    "games/verify_log.py FILE` or `manage.py verify_log FILE`."
                ),
            )
        }
    )
    def get(self, request, pk):
        game = game_with_seats(pk, seen_by=request.user)
        if game.status == GameStatus.ACTIVE:
            raise Conflict("the game is still being played: its log is exported once it is over")
        response = HttpResponse(
            logchain.dump_bundle(export.bundle_of(game)), content_type="application/json"
        )
        response["Content-Disposition"] = f'attachment; filename="hadal-game-{game.pk}.json"'
        return response
