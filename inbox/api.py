"""``/api/me/notices/``: the member's inbox, newest first, and marking notices read;
``/api/me/notices/choices/``: how each kind of notice reaches the member;
``/api/me/push/``: the devices told of notices by Web Push (inbox.push)."""

from __future__ import annotations

import re

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import RegexValidator
from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.addresses import verified_address
from accounts.scopes import READ
from core import inputs
from core.errors import InvalidInput, Refused
from core.fields import Text
from inbox import choices, kinds, push, services


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


# -- Web Push: the devices told of your notices ---------------------------------------------------


class Matching(RegexValidator):
    """The whole value matches ``regex`` (RegexValidator searches, and ``$`` lets a final line
    feed through); the schema states the pattern."""

    def __call__(self, value):
        if not self.regex.fullmatch(str(value)):
            raise ValidationError(self.message, code=self.code)


class EndpointMatching(Matching):
    def __call__(self, value):
        loopback = re.fullmatch(push.LOOPBACK_PATTERN, str(value))
        if not (settings.HADAL_PUSH_ALLOW_LOOPBACK and loopback):
            super().__call__(value)


class PushKeysIn(serializers.Serializer):
    p256dh = serializers.CharField(
        trim_whitespace=False,
        validators=[
            Matching(
                push.P256DH_PATTERN,
                "must be a P-256 public key: 65 bytes (uncompressed) in URL-safe base64",
            )
        ],
        help_text="the browser's public key (PushSubscription.getKey('p256dh'))",
    )
    auth = serializers.CharField(
        trim_whitespace=False,
        validators=[Matching(push.AUTH_PATTERN, "must be 16 bytes in URL-safe base64")],
        help_text="the browser's secret (PushSubscription.getKey('auth'))",
    )


class PushDeviceIn(serializers.Serializer):
    endpoint = serializers.CharField(
        trim_whitespace=False,
        max_length=push.ENDPOINT_LENGTH,
        validators=[
            EndpointMatching(
                push.ENDPOINT_PATTERN, "must be a push service's https:// address on a host name"
            )
        ],
        help_text="the push service's address for this browser (PushSubscription.endpoint)",
    )
    keys = PushKeysIn()
    label = Text(
        max_length=100,
        allow_blank=True,
        required=False,
        default="",
        help_text="your name for the device, such as Firefox on Android",
    )


class PushDeviceOut(serializers.Serializer):
    id = serializers.IntegerField()
    label = serializers.CharField()
    created = serializers.DateTimeField(source="created_at")
    last_sent = serializers.DateTimeField(
        source="last_sent_at", allow_null=True, help_text="the last push it took"
    )


class PushSentOut(serializers.Serializer):
    sent = serializers.IntegerField(help_text="devices the push service took it for")
    removed = serializers.IntegerField(
        help_text="devices the push service no longer knows (404, 410): removed"
    )
    failed = serializers.IntegerField(
        help_text="devices it failed for this time (removed after 5 failures in a row)"
    )


class PushKeyOut(serializers.Serializer):
    key = serializers.CharField(
        allow_null=True,
        help_text="the server's VAPID public key, a browser's applicationServerKey (URL-safe "
        "base64 of the uncompressed P-256 point); null when this server pushes nothing",
    )


class PushDevicesApi(APIView):
    """The devices (browsers) told of your notices by Web Push, newest first; POST the
    browser's PushSubscription (its ``toJSON()``) to tell one more. The same endpoint again
    updates its keys and makes it yours: 200 rather than 201."""

    scopes = {"GET": READ, "POST": READ}

    @extend_schema(responses=PushDeviceOut(many=True))
    def get(self, request):
        return Response(PushDeviceOut(push.devices_of(request.user), many=True).data)

    @extend_schema(
        request=PushDeviceIn,
        responses={
            201: PushDeviceOut,
            200: PushDeviceOut,
            400: OpenApiResponse(
                description="not a subscription: an endpoint that is not https:// on a host "
                "name, keys of the wrong length or alphabet, a field missing"
            ),
            422: OpenApiResponse(
                description="the right shape, but p256dh is not a point on P-256, or the "
                "endpoint's port is not a port"
            ),
        },
    )
    def post(self, request):
        body = PushDeviceIn(data=request.data)
        body.is_valid(raise_exception=True)
        data = body.validated_data
        device, created = push.push_device_register(
            user=request.user,
            endpoint=data["endpoint"],
            p256dh=data["keys"]["p256dh"],
            auth=data["keys"]["auth"],
            label=data["label"],
        )
        return Response(
            PushDeviceOut(device).data,
            status=status.HTTP_201_CREATED if created else status.HTTP_200_OK,
        )


class PushDeviceApi(APIView):
    """Stop telling one of your devices. Someone else's, or one already removed, is a 404."""

    scopes = {"DELETE": READ}

    @extend_schema(responses={204: None})
    def delete(self, request, pk):
        push.push_device_remove(user=request.user, device_id=pk)
        return Response(status=status.HTTP_204_NO_CONTENT)


class PushTestApi(APIView):
    """Push a test notice to each of your devices now, to see that they are told. A device
    the push service no longer knows is removed."""

    scopes = {"POST": READ}

    @extend_schema(
        request=None,
        responses={
            200: PushSentOut,
            422: OpenApiResponse(description="this server pushes nothing (no VAPID keys set)"),
        },
    )
    def post(self, request):
        if push.public_key() is None:
            raise Refused("this server pushes nothing: its operator has set no VAPID keys")
        sent = push.push_to(request.user.pk, push.TEST_MESSAGE)
        return Response(PushSentOut(sent).data)


class PushKeyApi(APIView):
    """The key a browser subscribes with (``applicationServerKey``)."""

    scopes = {"GET": READ}

    @extend_schema(responses=PushKeyOut)
    def get(self, request):
        return Response({"key": push.public_key()})


# -- choices ---------------------------------------------------------------------------------
# The serializers describe the shapes for the schema; the values are checked strictly by
# inbox.choices (true is true, not "yes"; 7 is an hour, not "7"), which every way in shares.

MAIL_HELP = "none: no e-mail; now: at once; digest: in the daily list"


def _kinds_object(name: str, field, help_text: str):
    fields = {kind.name: field(kind) for kind in kinds.KINDS}
    return type(name, (serializers.Serializer,), {**fields, "__doc__": help_text})


MailChoices = _kinds_object(
    "MailChoices",
    lambda kind: serializers.ChoiceField(
        choices=kinds.MAIL_CHOICES,
        required=False,
        help_text=f"{kind.label}: {MAIL_HELP} (by default {kind.mail})",
    ),
    "E-mail, per kind of notice.",
)
PushChoices = _kinds_object(
    "PushChoices",
    lambda kind: serializers.BooleanField(
        required=False,
        help_text=f"{kind.label}: told to your devices (by default {str(kind.push).lower()})",
    ),
    "Pushed to your devices or not, per kind of notice.",
)


@extend_schema_field(
    {
        "type": "string",
        "enum": list(choices.zones()),
        "description": "a time zone (IANA), such as Europe/Athens",
    }
)
class ZoneField(serializers.ChoiceField):
    """A time zone: an enum of the zones this system knows, without a line for each."""

    def __init__(self, **kwargs):
        super().__init__(choices=choices.zones(), **kwargs)


class ChoicesIn(serializers.Serializer):
    mail = MailChoices(
        help_text="kind: none, now or digest; a kind left out takes its default "
        "(PUT) or stays as it was (PATCH)"
    )
    push = PushChoices(help_text="kind: true or false; a kind left out as for mail")
    digest_hour = serializers.IntegerField(
        min_value=0, max_value=23, help_text="the hour of the day the daily list goes, 0 to 23"
    )
    timezone = ZoneField(help_text="the time zone of that hour (IANA), such as Europe/Athens")


class ChoicesOut(serializers.Serializer):
    mail = MailChoices(help_text="every kind, chosen or by default")
    push = PushChoices(help_text="every kind, chosen or by default")
    digest_hour = serializers.IntegerField(min_value=0, max_value=23)
    timezone = serializers.CharField()
    address_verified = serializers.BooleanField(
        help_text="whether you have a confirmed address: without one no e-mail goes"
    )


FIELDS = ("mail", "push", "digest_hour", "timezone")


class NoticeChoicesApi(APIView):
    """How each kind of notice reaches you beyond the site: by e-mail (not at all, at once,
    or in the daily list sent at ``digest_hour`` in ``timezone``) and pushed to your devices.
    ``PUT`` sets everything (kinds left out of ``mail`` or ``push`` take their defaults);
    ``PATCH`` changes only what it names. An unknown kind or field, a value not among the
    choices, an hour outside 0-23 or an unknown time zone is a 400, and nothing changes."""

    scopes = {"GET": READ, "PUT": READ, "PATCH": READ}

    @extend_schema(responses=ChoicesOut)
    def get(self, request):
        return Response(self._answer(request.user))

    @extend_schema(
        request=ChoicesIn,
        responses={200: ChoicesOut, 400: OpenApiResponse(description="a value refused")},
    )
    def put(self, request):
        return self._change(request, whole=True)

    @extend_schema(
        request=ChoicesIn(partial=True),
        responses={200: ChoicesOut, 400: OpenApiResponse(description="a value refused")},
    )
    def patch(self, request):
        return self._change(request, whole=False)

    def _change(self, request, *, whole: bool):
        body = request.data
        if not isinstance(body, dict):
            raise InvalidInput('give an object: {"mail", "push", "digest_hour", "timezone"}')
        unknown = sorted(set(body) - set(FIELDS))
        if unknown:
            raise InvalidInput(f"{unknown[0]}: not a field here; the fields: {', '.join(FIELDS)}")
        if whole:
            missing = [name for name in FIELDS if name not in body]
            if missing:
                raise InvalidInput(f"{missing[0]}: required (PUT sets everything; PATCH a part)")
        changes = {name: body[name] for name in FIELDS if name in body}
        if "digest_hour" in changes and changes["digest_hour"] is None:
            raise InvalidInput("digest_hour: give an hour of the day, a whole number from 0 to 23")
        if "timezone" in changes and changes["timezone"] is None:
            raise InvalidInput("timezone: give a time zone, such as Europe/Athens")
        for name in ("mail", "push"):
            if name in changes and changes[name] is None:
                raise InvalidInput(f"{name}: give an object of kinds")
        choices.choices_update(user=request.user, replace=whole, **changes)
        return Response(self._answer(request.user))

    @staticmethod
    def _answer(user) -> dict:
        return {
            **choices.choices_get(user=user),
            "address_verified": verified_address(user) is not None,
        }
