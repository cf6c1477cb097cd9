"""league/charts.py: the rating chart's pages of a hundred games and its date labels. Pure."""

from __future__ import annotations

import datetime as dt

from league.charts import WINDOW, rating_chart

DAY = dt.date(2026, 1, 1)


def history(count: int):
    return [(DAY + dt.timedelta(days=i), 1500.0 + i + 1, i + 1) for i in range(count)]


def test_the_latest_hundred_first_then_the_hundred_before():
    latest = rating_chart(history(250), 1500.0)
    assert (latest.first, latest.last, latest.pages, len(latest.points)) == (151, 250, 3, WINDOW)
    oldest = rating_chart(history(250), 1500.0, page=3)
    assert (oldest.first, oldest.last, len(oldest.points)) == (1, 50, 50)
    # The line starts from the rating before the first game shown.
    assert oldest.polyline.split()[0].startswith(f"{latest.left:.1f},")
    assert rating_chart(history(250), 1500.0, page=9).page == 3
    assert rating_chart(history(250), 1500.0, page=0).page == 1


def test_dates_label_the_axis_first_and_last_included_once_each():
    chart = rating_chart(history(10), 1500.0)
    days = [day for _, day in chart.date_ticks]
    assert days[0] == DAY and days[-1] == DAY + dt.timedelta(days=9) and len(days) == 4
    same_day = [(DAY, 1510.0, 1), (DAY, 1520.0, 2)]
    assert [day for _, day in rating_chart(same_day, 1500.0).date_ticks] == [DAY]


def test_a_flat_line_keeps_some_height():
    chart = rating_chart([(DAY, 1500.0, 1)], 1500.0)
    assert chart.high - chart.low == 20


def test_a_points_labels_are_what_the_template_filters_would_show():
    from django.template.defaultfilters import date, floatformat

    from league.charts import day_shown

    start = dt.date(2025, 1, 1)
    for day in (start + dt.timedelta(days=n) for n in range(0, 400, 9)):
        assert day_shown(day) == date(day, "j M Y")
    history = [(start + dt.timedelta(days=n), 1500 + 7.25 * (-1) ** n * n, n) for n in range(30)]
    for p in rating_chart(history, 1500).points:
        assert (p.x_shown, p.y_shown, p.value_shown) == (
            floatformat(p.x, 1),
            floatformat(p.y, 1),
            floatformat(p.value, 0),  # a rating: a whole number
        )
