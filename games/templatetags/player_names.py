"""Players as pages name them: ``{{ username|player }}`` is "Greedy bot" for bot-greedy."""

from __future__ import annotations

from django import template

from games.player_names import player_words

register = template.Library()


@register.filter
def player(username: str) -> str:
    return player_words(username) if isinstance(username, str) else username
