"""The club page's webhooks, for its organisers: each webhook with its delivery log in words,
and the buttons to add one (its secret shown once, in the message that says it was added),
send a test, resume one stopped, and remove one. Everything goes through
league.webhooks.services, as the API does."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from core.errors import InvalidInput, ServiceError
from league import visibility
from league.forms import WebhookForm
from league.models import League, Webhook
from league.webhooks import services

FORMAT_WORDS = {
    Webhook.Format.DISCORD: "Discord",
    Webhook.Format.SLACK: "Slack",
    Webhook.Format.PLAIN: "Signed JSON",
}


def webhooks_panel(league: League) -> dict[str, Any]:
    hooks = []
    for hook in league.webhooks.all():
        hooks.append(
            {
                "hook": hook,
                "format": FORMAT_WORDS[hook.format],
                "log": [_line(d) for d in services.deliveries(hook, limit=10)],
            }
        )
    return {"webhooks": hooks, "webhook_form": WebhookForm()}


def _line(delivery: services.Delivery) -> dict[str, Any]:
    m = delivery.message
    if m.sent_at is not None:
        state = "Delivered"
    elif m.attempts == 0:
        state = "Waiting to be sent"
    else:
        why = m.last_error or f"the receiver answered {m.last_status}"
        state = f"Not delivered yet: {why}"
    return {
        "at": m.created_at,
        "event": delivery.event,
        "text": m.text,
        "state": state,
        "delivered": m.sent_at is not None,
        "attempts": m.attempts,
        "next": None if m.sent_at is not None else max(m.next_attempt_at, timezone.now()),
    }


def _post(request, slug: str, act):
    league = visibility.league_or_404(slug, request.user)
    try:
        said = act(league)
    except ServiceError as exc:
        text = str(exc)
        messages.error(request, text[:1].upper() + text[1:] + ("" if text.endswith(".") else "."))
    else:
        messages.success(request, said)
    return redirect(reverse("league-detail", args=[league.slug]) + "#webhooks")


@login_required
@require_POST
def webhook_new(request, slug: str):
    form = WebhookForm(request.POST)

    def act(league):
        if not form.is_valid():
            raise InvalidInput("give an address of at most 500 characters and how to send it")
        hook = services.webhook_add(league=league, by=request.user, **form.cleaned_data)
        return (
            f"Webhook added. Its signing secret, shown this once: {hook.secret}"
            " (a program checks each message's webhook-signature with it)."
        )

    return _post(request, slug, act)


# What each button does, and what the page says once it has.
ACTIONS = {
    "test": (
        services.webhook_test,
        "A test is on its way: its line in the log says when it arrives.",
    ),
    "resume": (
        services.webhook_resume,
        "The webhook sends again: what waited goes now, in order.",
    ),
    "remove": (services.webhook_remove, "The webhook is removed: nothing more goes to it."),
}


@login_required
@require_POST
def webhook_action(request, slug: str, pk: int, action: str):
    if action not in ACTIONS:
        raise Http404("no such thing to do to a webhook")
    service, done = ACTIONS[action]

    def act(league):
        service(league=league, webhook_id=pk, by=request.user)
        return done

    return _post(request, slug, act)
