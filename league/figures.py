"""Numbers as the pages show them, formatted in Python: what the template filter floatformat
gives (decimal rounding, half up), without its locale look-ups, which cost a league page of
500 standings a third of its time."""

from __future__ import annotations

from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any


def figure(value: float, places: int, *, whole_if_whole: bool = False) -> str:
    """``value`` to ``places`` decimals, as ``floatformat:places`` shows it; with
    ``whole_if_whole``, a whole number without decimals, as ``floatformat:"-places"``."""
    number = Decimal(repr(value))
    if whole_if_whole and number == number.to_integral_value():
        return str(int(number))
    rounded = number.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return str(abs(rounded) if rounded == 0 else rounded)  # "0.0", never "-0.0"


def number_text(value: float | None) -> str:
    """A score or points as a person writes them, alike in a column whatever was stored: 30
    for 30 and 30.0, 12.5 for 12.5, "" for none."""
    if value is None or value == "":
        return ""
    number = Decimal(repr(value))
    if number == number.to_integral_value():
        return str(int(number))
    return format(number.normalize(), "f")


def points_words(value: float) -> str:
    """ "1 point", "1.5 points", "2 points"."""
    return f"{number_text(value)} point{'' if value == 1 else 's'}"


def standing_rows(
    rows: list[dict[str, Any]],
    player_url: Callable[[str], str] | None = None,
    me: str | None = None,
) -> list[dict[str, Any]]:
    """League standings with their points, average place and Elo as the table shows them;
    with ``player_url``, each player's link, and whether the row is ``me``'s."""
    return [
        {
            **row,
            "url": player_url(row["player"]) if player_url else "",
            "me": row["player"] == me,
            "points_shown": figure(row["points"], 1, whole_if_whole=True),
            "average_shown": figure(row["average_place"], 2),
            "elo_shown": figure(row["elo"], 0),
            "rating_shown": figure(row["rating"], 0),
            "deviation_shown": figure(row["deviation"], 0),
        }
        for row in rows
    ]


def tournament_standing_rows(
    rows: list[dict[str, Any]], player_url: Callable[[str], str]
) -> list[dict[str, Any]]:
    """Tournament standings with their points and tie-breaks as the table shows them
    (``floatformat:"-2"``), and each player's link."""
    return [
        {
            **row,
            "url": player_url(row["player"]),
            "points_shown": figure(row["points"], 2, whole_if_whole=True),
            "tiebreaks_shown": [figure(v, 2, whole_if_whole=True) for v in row["tiebreaks"]],
        }
        for row in rows
    ]
