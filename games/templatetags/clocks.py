"""Template filters for clocks: a time control in people's words, a time left as a clock."""

from django import template

from games.play import clocks

register = template.Library()


@register.filter
def clock_words(control) -> str:
    return clocks.describe(control)


@register.filter
def clock_time(seconds) -> str:
    return "" if seconds is None else clocks.readable(seconds)


@register.filter
def clock_control_words(game) -> str:
    """A game's time control in people's words."""
    return clocks.describe(clocks.time_control_of(game))
