"""league.figures shows numbers exactly as the template filter floatformat would."""

from __future__ import annotations

import random

import pytest
from django.template.defaultfilters import floatformat

from league.figures import figure, number_text, points_words

# Halves, thirds and quarters of placement points, averages of places, Elo ratings; and the
# values where rounding half up and half to even part.
VALUES = [
    -0.04,
    -0.05,
    -2.25,
    -1.35,
    -12.3456,
    0.0,
    1.0,
    4.0,
    2.25,
    2.35,
    0.125,
    3.3333333333,
    1.6666666667,
    2.5,
    1515.5,
    1484.5,
]
_rng = random.Random(7)
VALUES += [round(_rng.uniform(0, 3000), k) for k in range(6) for _ in range(40)]


@pytest.mark.parametrize("value", VALUES)
def test_figures_match_floatformat(value):
    assert figure(value, 1, whole_if_whole=True) == floatformat(value, "-1")
    assert figure(value, 2, whole_if_whole=True) == floatformat(value, "-2")
    assert figure(value, 2) == floatformat(value, 2)
    assert figure(value, 1) == floatformat(value, 1)
    assert figure(value, 0) == floatformat(value, 0)


@pytest.mark.parametrize(
    "value, text, words",
    [(30.0, "30", "30 points"), (25, "25", "25 points"), (1, "1", "1 point"),
     (1.0, "1", "1 point"), (1.5, "1.5", "1.5 points"), (-2.25, "-2.25", "-2.25 points"),
     (0, "0", "0 points")],
)  # fmt: skip
def test_scores_and_points_are_written_alike_and_in_words(value, text, words):
    assert number_text(value) == text
    assert points_words(value) == words


def test_no_score_is_written_as_nothing():
    assert number_text(None) == "" and number_text("") == ""
