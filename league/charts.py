"""A rating history as an inline SVG chart, pure Python (no Django): the geometry only, which
the player page's template draws. Games run left to right, dates label the axis, and each
point carries its date and value for the hover title."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from league.figures import figure

WIDTH, HEIGHT = 640, 200
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 14, 30  # room for the value and date labels
WINDOW = 100  # games per chart page: the latest hundred first
_TICKS = 4  # date labels on the axis, at most


_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def day_shown(day: dt.date) -> str:
    """A date as the chart labels it, "7 Mar 2026" (the template filter date:"j M Y" in the
    site's English, without its look-ups)."""
    return f"{day.day} {_MONTHS[day.month - 1]} {day.year}"


@dataclass(frozen=True)
class ChartPoint:
    x: float
    y: float
    when: dt.date
    value: float
    game_id: int

    # As the chart draws them: its coordinates to one decimal (floatformat:1), the rating a
    # whole number, as everywhere a rating is shown, and the day.
    @property
    def x_shown(self) -> str:
        return figure(self.x, 1)

    @property
    def y_shown(self) -> str:
        return figure(self.y, 1)

    @property
    def value_shown(self) -> str:
        return figure(self.value, 0)

    @property
    def when_shown(self) -> str:
        return day_shown(self.when)


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    left: int
    right: int  # x of the right edge of the plot
    top: int
    bottom: int  # y of the axis
    points: tuple[ChartPoint, ...]
    polyline: str
    high: float
    low: float
    date_ticks: tuple[tuple[float, dt.date], ...]
    page: int
    pages: int
    first: int  # 1-based number of the first game shown, counting from the player's first
    last: int
    band: str = ""  # SVG polygon points: the rating plus and minus its deviation, when given


def pages_of(games: int) -> int:
    return max(1, -(-games // WINDOW))


def rating_chart(
    history: Sequence[tuple[dt.date, float, int]],
    start: float,
    page: int = 1,
    deviations: Sequence[float] | None = None,
    start_deviation: float = 0.0,
) -> Chart:
    """``history``: (date, rating after, game id) per game, oldest first; ``start``: the
    rating before the first. Page 1 is the latest ``WINDOW`` games, page 2 the hundred before,
    and so on; a page out of range is the nearest one."""
    pages = pages_of(len(history))
    page = min(max(1, page), pages)
    end = len(history) - (page - 1) * WINDOW
    begin = max(0, end - WINDOW)
    shown = history[begin:end]
    before = history[begin - 1][1] if begin > 0 else start
    values = [before] + [value for _, value, _ in shown]
    spreads: list[float] = []
    if deviations is not None:
        # the band: how sure we were after each game, the first point as the game before left it
        spreads = [deviations[begin - 1] if begin > 0 else start_deviation]
        spreads += list(deviations[begin:end])
    low = min(v - d for v, d in zip(values, spreads)) if spreads else min(values)
    high = max(v + d for v, d in zip(values, spreads)) if spreads else max(values)
    if high - low < 20:  # keep a flat line readable
        low, high = low - 10, high + 10
    right, bottom = WIDTH - RIGHT, HEIGHT - BOTTOM
    step = (right - LEFT) / max(1, len(shown))

    def y(value: float) -> float:
        return TOP + (high - value) / (high - low) * (bottom - TOP)

    points = tuple(
        ChartPoint(LEFT + (i + 1) * step, y(value), when, value, game_id)
        for i, (when, value, game_id) in enumerate(shown)
    )
    line = [(float(LEFT), y(before))] + [(p.x, p.y) for p in points]
    xs = [x for x, _ in line]
    band = (
        [(x, y(v + d)) for x, v, d in zip(xs, values, spreads)]
        + [(x, y(v - d)) for x, v, d in reversed(list(zip(xs, values, spreads)))]
        if spreads
        else []
    )
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        left=LEFT,
        right=right,
        top=TOP,
        bottom=bottom,
        points=points,
        polyline=" ".join(f"{x:.1f},{yy:.1f}" for x, yy in line),
        band=" ".join(f"{x:.1f},{yy:.1f}" for x, yy in band),
        high=high,
        low=low,
        date_ticks=_date_ticks(points),
        page=page,
        pages=pages,
        first=begin + 1,
        last=end,
    )


def _date_ticks(points: Sequence[ChartPoint]) -> tuple[tuple[float, dt.date], ...]:
    """Up to four evenly spread points, first and last included, one label per date."""
    if not points:
        return ()
    count = min(_TICKS, len(points))
    if count == 1:
        picks = [0]
    else:
        picks = sorted({round(i * (len(points) - 1) / (count - 1)) for i in range(count)})
    ticks: list[tuple[float, dt.date]] = []
    for i in picks:
        if not ticks or ticks[-1][1] != points[i].when:
            ticks.append((points[i].x, points[i].when))
    return tuple(ticks)
