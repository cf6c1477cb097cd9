"""``{{ value|points }}``: a number of points in words, "1 point" or "1.5 points"
(league.figures.points_words)."""

from django import template

from league.figures import points_words

register = template.Library()


@register.filter
def points(value: float) -> str:
    return points_words(value)
