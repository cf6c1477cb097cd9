"""``/api/me/notices/``: the member's inbox, newest first, and marking notices read."""

from __future__ import annotations

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import READ
from core import inputs
from inbox import kinds, services


class NoticeOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=kinds.NAMES, help_text="what it is about (inbox.kinds)")
    text = serializers.CharField(help_text="the notice, in words")
    url = serializers.CharField(help_text="where it leads: the page to act on it")
    created = serializers.DateTimeField(source="created_at")
    read = serializers.BooleanField()
    waiting = serializers.SerializerMethodField(
        help_text="it still waits for you to act (your turn, an invitation, a record to confirm)"
    )

    def get_waiting(self, notice) -> bool:
        return notice.done_at is None and notice.kind in kinds.WAITING


class ReadIn(serializers.Serializer):
    ids = serializers.ListField(
        child=serializers.IntegerField(min_value=1),
        required=False,
        max_length=500,
        help_text="the notices to mark read; leave out to mark every notice read",
    )


class CountsOut(serializers.Serializer):
    unread = serializers.IntegerField(help_text="notices not yet read: the bell")
    turns = serializers.IntegerField(help_text="games where it is your turn")
    invitations = serializers.IntegerField(help_text="seats offered to you")


class ReadOut(CountsOut):
    marked = serializers.IntegerField(help_text="how many of them were unread")


class NoticesApi(APIView):
    """Your notices, newest first, a page of 50: ``?unread=1`` for the unread only,
    ``?before=ID`` for the page after the one ending at ID. The counts are in the headers
    (``X-Unread``)."""

    scopes = {"GET": READ}

    @extend_schema(
        parameters=[
            OpenApiParameter("unread", bool, description="only the notices not yet read"),
            OpenApiParameter(
                "before",
                {"type": "integer", "minimum": 1, "maximum": inputs.BIGINT},
                description="only notices older than this id",
            ),
        ],
        responses=NoticeOut(many=True),
    )
    def get(self, request):
        unread = inputs.flag(request.query_params.get("unread"), "unread")
        before = request.query_params.get("before")
        before_id = (
            None if before is None else inputs.whole_number(before, "before", 1, inputs.BIGINT)
        )
        rows = services.notices_of(request.user, unread=unread, before=before_id)
        response = Response(NoticeOut(rows, many=True).data)
        response["X-Unread"] = str(services.counts(request.user.pk)["unread"])
        return response


class NoticesReadApi(APIView):
    """Mark notices read: ``{"ids": [...]}``, or ``{}`` for all of them. A notice that waits
    for you (your turn, say) stays in your list of what waits until you have done it."""

    scopes = {"POST": READ}

    @extend_schema(
        request=ReadIn,
        responses={200: ReadOut, 400: OpenApiResponse(description="ids that are not ids")},
    )
    def post(self, request):
        body = ReadIn(data=request.data)
        body.is_valid(raise_exception=True)
        marked = services.mark_read(request.user, body.validated_data.get("ids"))
        return Response({"marked": marked, **services.counts(request.user.pk)})
