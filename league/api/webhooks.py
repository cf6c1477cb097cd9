"""A club's webhooks through the API, for its organisers: list and add (the secret shown once,
in the answer to the POST), remove, send a test, resume one stopped, read its delivery log.
The services (league.webhooks.services) check who asks and what is asked."""

from __future__ import annotations

from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.scopes import ORGANISE, READ
from core.errors import UnknownName
from league import visibility
from league.api.serializers import ErrorOut
from league.models import League, Webhook
from league.services.clubs import require_organiser
from league.webhooks import services
from league.webhooks.addresses import MAX_URL, URL_PATTERN
from league.webhooks.facts import TYPE_WORDS


class WebhookIn(serializers.Serializer):
    url = serializers.RegexField(
        URL_PATTERN,
        max_length=MAX_URL,
        help_text="where to send: http or https to a public host (a private, loopback or "
        "link-local address is refused with 422)",
    )
    format = serializers.ChoiceField(
        choices=Webhook.Format.values,
        help_text="plain: signed JSON {type, timestamp, data}; discord: {content}; slack: {text}",
    )


class WebhookOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.CharField()
    format = serializers.ChoiceField(choices=Webhook.Format.values)
    state = serializers.ChoiceField(
        choices=["sending", "stopped"],
        help_text="stopped: its oldest waiting message failed for three days; resume it",
    )
    stopped_at = serializers.DateTimeField(allow_null=True)
    waiting = serializers.IntegerField(help_text="messages not yet delivered")
    created_by = serializers.CharField(allow_null=True)
    created_at = serializers.DateTimeField()


class WebhookCreatedOut(WebhookOut):
    secret = serializers.CharField(
        help_text="the signing secret (whsec_...), shown this once: verify each message's "
        "webhook-signature with it"
    )


class DeliveryOut(serializers.Serializer):
    seq = serializers.IntegerField(help_text="its place in this webhook's order, from 1")
    type = serializers.ChoiceField(choices=list(TYPE_WORDS))
    event = serializers.CharField(help_text="the type in words")
    text = serializers.CharField()
    state = serializers.ChoiceField(choices=["delivered", "waiting", "retrying"])
    created_at = serializers.DateTimeField()
    sent_at = serializers.DateTimeField(allow_null=True)
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    last_status = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField()


NOT_ORGANISER = OpenApiResponse(
    ErrorOut, description="not an organiser of the club, or a token without this scope"
)
NO_CLUB = OpenApiResponse(ErrorOut, description="no such club (or one the caller may not see)")
NO_WEBHOOK = OpenApiResponse(ErrorOut, description="no such club, or no such webhook of it")


def webhook_out(hook: Webhook) -> dict:
    return {
        "id": hook.pk,
        "url": hook.url,
        "format": hook.format,
        "state": "stopped" if hook.stopped_at else "sending",
        "stopped_at": hook.stopped_at,
        "waiting": hook.messages.filter(sent_at__isnull=True).count(),
        "created_by": hook.created_by.username if hook.created_by else None,
        "created_at": hook.created_at,
    }


def delivery_out(delivery: services.Delivery) -> dict:
    m = delivery.message
    return {
        "seq": m.seq,
        "type": m.type,
        "event": delivery.event,
        "text": m.text,
        "state": delivery.state,
        "created_at": m.created_at,
        "sent_at": m.sent_at,
        "attempts": m.attempts,
        "next_attempt_at": None if m.sent_at else m.next_attempt_at,
        "last_status": m.last_status,
        "last_error": m.last_error,
    }


def _league(slug: str, user) -> League:
    try:
        return visibility.league_or_404(slug, user)
    except Http404:
        raise UnknownName(f"no league {slug!r}") from None


def _organised(slug: str, user, what: str) -> League:
    league = _league(slug, user)
    require_organiser(league, user, what)
    return league


class WebhooksApi(APIView):
    """A club's webhooks (organisers): GET lists them, POST adds one and shows its secret."""

    scopes = {"GET": READ, "POST": ORGANISE}

    @extend_schema(responses={200: WebhookOut(many=True), 403: NOT_ORGANISER, 404: NO_CLUB})
    def get(self, request, slug):
        league = _organised(slug, request.user, "see its webhooks")
        hooks = league.webhooks.select_related("created_by")
        return Response(WebhookOut([webhook_out(h) for h in hooks], many=True).data)

    @extend_schema(
        request=WebhookIn,
        responses={
            201: WebhookCreatedOut,
            400: OpenApiResponse(
                ErrorOut, description="a URL not of the pattern's shape, or an unknown format"
            ),
            403: NOT_ORGANISER,
            404: NO_CLUB,
            409: OpenApiResponse(ErrorOut, description="the club has 10 webhooks already"),
            422: OpenApiResponse(
                ErrorOut,
                description="a host that is not public (private, loopback, link-local, "
                "multicast, reserved, unspecified) or cannot be found, or a port out of range",
            ),
        },
    )
    def post(self, request, slug):
        league = _league(slug, request.user)
        body = WebhookIn(data=request.data)
        body.is_valid(raise_exception=True)
        hook = services.webhook_add(league=league, by=request.user, **body.validated_data)
        out = {**webhook_out(hook), "secret": hook.secret}
        return Response(WebhookCreatedOut(out).data, status=status.HTTP_201_CREATED)


class WebhookApi(APIView):
    """DELETE: remove a webhook, with what waits for it and its log (organisers)."""

    scopes = {"DELETE": ORGANISE}

    @extend_schema(request=None, responses={200: WebhookOut, 403: NOT_ORGANISER, 404: NO_WEBHOOK})
    def delete(self, request, slug, pk):
        league = _organised(slug, request.user, "remove webhooks")
        out = webhook_out(services.webhook_get(league, pk))
        services.webhook_remove(league=league, webhook_id=pk, by=request.user)
        return Response(WebhookOut({**out, "waiting": 0}).data)


class WebhookTestApi(APIView):
    """POST: queue a test message for the webhook, behind whatever waits (organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(
        request=None,
        responses={
            201: DeliveryOut,
            403: NOT_ORGANISER,
            404: NO_WEBHOOK,
            409: OpenApiResponse(ErrorOut, description="the webhook is stopped: resume it"),
        },
    )
    def post(self, request, slug, pk):
        league = _league(slug, request.user)
        message = services.webhook_test(league=league, webhook_id=pk, by=request.user)
        message.refresh_from_db()
        out = delivery_out(services.Delivery(message))
        return Response(DeliveryOut(out).data, status=status.HTTP_201_CREATED)


class WebhookResumeApi(APIView):
    """POST: a stopped webhook sends again, everything that waits, in order (organisers)."""

    scopes = {"POST": ORGANISE}

    @extend_schema(request=None, responses={200: WebhookOut, 403: NOT_ORGANISER, 404: NO_WEBHOOK})
    def post(self, request, slug, pk):
        league = _league(slug, request.user)
        hook = services.webhook_resume(league=league, webhook_id=pk, by=request.user)
        return Response(WebhookOut(webhook_out(hook)).data)


class WebhookDeliveriesApi(APIView):
    """GET: the webhook's delivery log, newest first (its last 20 messages; organisers)."""

    scopes = {"GET": READ}

    @extend_schema(responses={200: DeliveryOut(many=True), 403: NOT_ORGANISER, 404: NO_WEBHOOK})
    def get(self, request, slug, pk):
        league = _organised(slug, request.user, "see its webhooks")
        hook = services.webhook_get(league, pk)
        out = [delivery_out(d) for d in services.deliveries(hook)]
        return Response(DeliveryOut(out, many=True).data)
