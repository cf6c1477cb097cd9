"""``{% push_devices %}``: the signed-in member's devices told of notices (Web Push), with
"Remove", "Tell this device" and "Send a test" (templates/inbox/_devices.html). Whole in itself:
any page of the member's settings can show it with ``{% load push_devices %}``."""

from __future__ import annotations

from django import template

from inbox import delivery, kinds, push
from inbox.models import Choices

register = template.Library()


@register.inclusion_tag("inbox/_devices.html", takes_context=True)
def push_devices(context) -> dict:
    request = context["request"]
    user = request.user
    choices = Choices.objects.filter(user=user).first()
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "push_on": push.public_key() is not None,
        "devices": push.devices_of(user),
        "told_of": [k.label for k in kinds.KINDS if delivery.push_choice(choices, k.name)],
    }
