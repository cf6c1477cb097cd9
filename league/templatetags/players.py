"""``{{ name|player_page }}``: the page of the player a tournament names, or "" for a walk-in,
who plays as a guest and has none."""

from django import template
from django.urls import reverse

from league.models import GUEST_MARK

register = template.Library()


@register.filter
def player_page(name: str) -> str:
    if not name or str(name).endswith(GUEST_MARK):
        return ""
    return reverse("player", args=[name])
