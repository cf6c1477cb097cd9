"""Places as people say them: 1st, 2nd, 3rd."""

from django import template

register = template.Library()


@register.filter
def ordinal(n) -> str:
    try:
        n = int(n)
    except (TypeError, ValueError):
        return ""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
