"""``/api/me/vacations/``: a member's days away from the board (accounts.vacations), while
which the clocks of their correspondence games wait. Listed with the days left this year;
scheduled (POST), called off (DELETE), taken now (``away/``) and ended (``back/``); and the
opt-in to a day taken for them instead of a timeout (``settings/``)."""

from __future__ import annotations

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import vacations
from accounts.scopes import PLAY, READ


class VacationIn(serializers.Serializer):
    starts = serializers.DateTimeField(
        help_text="when it begins: now or later (a minute ago counts as now)"
    )
    ends = serializers.DateTimeField(help_text="when it ends: after it begins")


class VacationOut(serializers.Serializer):
    id = serializers.IntegerField()
    starts = serializers.DateTimeField(source="starts_at")
    ends = serializers.DateTimeField(
        source="ends_at", allow_null=True, help_text="null: away now, until you say you are back"
    )
    state = serializers.ChoiceField(
        choices=list(vacations.State.values),
        help_text="scheduled: to come; away: under way, your clocks wait; over",
    )
    auto = serializers.BooleanField(help_text="taken for you instead of a timeout")
    days = serializers.SerializerMethodField(
        help_text="the days it counts against the allowance (so far, if it has no end yet)"
    )

    def get_days(self, vacation) -> int:
        return vacations.days_counted(vacation, timezone.now())


class VacationsOut(serializers.Serializer):
    allowance = serializers.IntegerField(help_text="days away a calendar year")
    days_left = serializers.IntegerField(help_text="days left this year")
    year = serializers.IntegerField()
    auto = serializers.BooleanField(
        help_text="a day away is taken for you where your clock would run out in a"
        " correspondence game"
    )
    away = VacationOut(allow_null=True, help_text="the vacation under way, or null")
    vacations = VacationOut(many=True, help_text="under way and to come, soonest first")


class JsonBoolean(serializers.BooleanField):
    """true or false in JSON, nothing else (DRF's takes 0, "yes" and the like too)."""

    def to_internal_value(self, data):
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class AwaySettingsIn(serializers.Serializer):
    auto = JsonBoolean(
        help_text="take a day away for you instead of a timeout in a correspondence game"
    )


def _summary(user) -> dict:
    return VacationsOut(vacations.summary_of(user)).data


class VacationsApi(APIView):
    """Your days away: how many are left this year, the vacation under way and those to come.
    POST schedules one: the clocks of your correspondence games (a day or more a move) stop
    from its start to its end."""

    scopes = {"GET": READ, "POST": PLAY}

    @extend_schema(responses=VacationsOut)
    def get(self, request):
        return Response(_summary(request.user))

    @extend_schema(
        request=VacationIn,
        responses={
            201: VacationOut,
            422: OpenApiResponse(
                description="refused, the reason said: it ends before it starts, starts in the"
                " past, overlaps another of yours, or needs more days than you have left"
            ),
        },
    )
    def post(self, request):
        body = VacationIn(data=request.data)
        body.is_valid(raise_exception=True)
        made = vacations.vacation_schedule(
            user=request.user,
            starts_at=body.validated_data["starts"],
            ends_at=body.validated_data["ends"],
        )
        return Response(VacationOut(made).data, status=status.HTTP_201_CREATED)


class VacationCancelApi(APIView):
    """Call off a vacation to come. One under way ends with ``back/`` instead."""

    scopes = {"DELETE": PLAY}

    @extend_schema(
        responses={
            204: None,
            404: OpenApiResponse(description="no such vacation of yours to come"),
            409: OpenApiResponse(description="it has begun: say you are back instead"),
        }
    )
    def delete(self, request, pk):
        vacations.vacation_cancel(user=request.user, vacation_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class AwayNowApi(APIView):
    """ "I am away now": your correspondence clocks stop until you say you are back (or your
    days left this year run out)."""

    scopes = {"POST": PLAY}

    @extend_schema(
        request=None,
        responses={
            201: VacationOut,
            422: OpenApiResponse(
                description="you are away already, have no day left this year, or have a"
                " vacation to come (cancel it, or schedule this one with an end)"
            ),
        },
    )
    def post(self, request):
        made = vacations.vacation_away_now(user=request.user)
        return Response(VacationOut(made).data, status=status.HTTP_201_CREATED)


class BackApi(APIView):
    """ "I am back": the vacation under way ends now and your clocks run again, each with the
    time it had left."""

    scopes = {"POST": PLAY}

    @extend_schema(
        request=None,
        responses={200: VacationOut, 422: OpenApiResponse(description="you are not away")},
    )
    def post(self, request):
        ended = vacations.vacation_back(user=request.user)
        return Response(VacationOut(ended).data)


class AwaySettingsApi(APIView):
    """Whether a day away is taken for you where your clock runs out in a correspondence game
    (while you have days left and its tournament, if any, allows vacations)."""

    scopes = {"PUT": PLAY}

    @extend_schema(request=AwaySettingsIn, responses=VacationsOut)
    def put(self, request):
        body = AwaySettingsIn(data=request.data)
        body.is_valid(raise_exception=True)
        vacations.away_auto_set(user=request.user, on=body.validated_data["auto"])
        return Response(_summary(request.user))
