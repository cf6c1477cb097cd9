"""GET /api/games/{id}/analysis/: a finished game's analysis, computed on first request."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import READ, HasScope
from games.models import Analysis
from games.play import analysis

ACTION = {"type": "object", "required": ["type"], "additionalProperties": True}


class AnalysisSeatOut(serializers.Serializer):
    seat = serializers.IntegerField()
    accuracy = serializers.FloatField(
        allow_null=True,
        help_text="100 * (1 - mean loss) over the seat's decisions with a choice; "
        "null if it never had one",
    )
    decisions = serializers.IntegerField(help_text="decisions judged")
    luck = serializers.FloatField(help_text="the sum of the seat's swings")


class AnalysisDecisionOut(serializers.Serializer):
    version = serializers.IntegerField(help_text="the event of the move")
    seat = serializers.IntegerField()
    played = serializers.JSONField(help_text="the move made")
    best = serializers.JSONField(help_text="the move the search preferred")
    loss = serializers.FloatField(
        help_text="max(0, value(best) - value(played)); values are expected results, 0..1"
    )
    value_played = serializers.FloatField()
    value_best = serializers.FloatField()


class AnalysisLuckOut(serializers.Serializer):
    version = serializers.IntegerField(help_text="the chance event")
    seat = serializers.IntegerField()
    swing = serializers.FloatField(help_text="after - before: the seat's expected result moved")
    before = serializers.FloatField()
    after = serializers.FloatField()


class AnalysisOut(serializers.Serializer):
    seats = AnalysisSeatOut(many=True)
    decisions = AnalysisDecisionOut(many=True)
    luck = AnalysisLuckOut(many=True)


class AnalysisRunningOut(serializers.Serializer):
    status = serializers.ChoiceField(choices=["running"])
    progress = serializers.FloatField(min_value=0, max_value=1)


class GameAnalysisApi(APIView):
    """A signed-in member may read a finished game's analysis; the first to ask starts it, on
    the analysis queue, within their share (games.play.analysis); everyone after reads it."""

    scopes = {"GET": READ}
    permission_classes = [HasScope, IsAuthenticated]

    @extend_schema(
        responses={
            200: AnalysisOut,
            202: OpenApiResponse(
                AnalysisRunningOut,
                description="being computed: ask again (the first request starts it)",
                examples=[OpenApiExample("running", {"status": "running", "progress": 0.4})],
            ),
            404: OpenApiResponse(description="no such game"),
            401: OpenApiResponse(description="not signed in"),
            409: OpenApiResponse(
                description="the game is still being played, was called off, or was recorded "
                "by its result only (no moves)"
            ),
            429: OpenApiResponse(
                description="you have started as many analyses as you may for now (at once, "
                "or this hour); Retry-After says when to ask again"
            ),
            503: OpenApiResponse(
                description="the analysis queue is full; Retry-After says when to ask again"
            ),
        }
    )
    def get(self, request, pk):
        row = analysis.game_analysis_get(game_id=pk, user=request.user)
        code = status.HTTP_200_OK if row.status == Analysis.DONE else status.HTTP_202_ACCEPTED
        return Response(analysis.analysis_payload(row), status=code)
