"""The rating shown (league.rating_scale): Glicko-2's rating and deviation, the deviation's
growth while away, provisional by deviation, and the conservative value."""

import math

import pytest

from league import rating_scale as scale
from league.ratings import Glicko2Ladder


def test_a_newcomer_is_1500_with_a_wide_deviation():
    shown = scale.shown(*Glicko2Ladder().rating("anyone")[:2])
    assert shown == {
        "rating": 1500.0,
        "deviation": 350.0,
        "provisional": True,
        "conservative": 800.0,
    }


def test_the_rating_is_glickos_own():
    assert scale.shown(1612.5, 80.0)["rating"] == 1612.5
    assert scale.shown(1612.5, 80.0)["deviation"] == 80.0


def test_aging_grows_the_deviation_by_the_days_away():
    assert scale.deviation(72.0) == 72.0
    assert scale.deviation(72.0, 0) == 72.0
    assert scale.deviation(72.0, -5) == 72.0  # a clock out of step ages nobody
    assert scale.deviation(72.0, 30) == pytest.approx(math.sqrt(72**2 + 25 * 30))  # about 81
    a_year = scale.deviation(72.0, 365)
    assert a_year == pytest.approx(math.sqrt(72**2 + 25 * 365))  # about 118
    assert scale.provisional(a_year)  # a year away: provisional again
    assert not scale.provisional(scale.deviation(72.0, 30))  # a month: not


def test_aging_never_passes_a_newcomers_deviation():
    assert scale.deviation(60.0, 100_000) == pytest.approx(scale.NEWCOMER_DEVIATION)
    assert scale.deviation(340.0, 1000) == pytest.approx(scale.NEWCOMER_DEVIATION)


def _after_games(count: int) -> tuple[float, float]:
    """(rating, deviation) after ``count`` games at tables of three against settled players
    (deviation 60), finishing first, second, third in turn: the deviation is 113 after 5
    games, 96 after 7, 75 after 12."""
    ladder = Glicko2Ladder()
    for game in range(count):
        rivals = [f"rival{game}-{seat}" for seat in range(2)]
        for rival in rivals:
            ladder.set_rating(rival, (1500.0, 60.0, 0.06))
        place = game % 3
        ranks = [place + 1] + [rank for rank in (1, 2, 3) if rank != place + 1]
        ladder.rate(["me", *rivals], ranks)
    rating, deviation, _ = ladder.rating("me")
    return rating, deviation


def test_provisional_means_fewer_than_about_ten_games_of_evidence():
    assert scale.shown(*_after_games(5))["provisional"]
    assert not scale.shown(*_after_games(10))["provisional"]


def test_twelve_games_and_a_long_absence_is_provisional():
    rating, deviation = _after_games(12)
    assert not scale.shown(rating, deviation)["provisional"]  # 12 games narrow it...
    assert scale.shown(rating, deviation, days_away=400)["provisional"]  # ...a year widens it


def test_few_games_with_a_small_deviation_is_not_provisional():
    # e.g. a rating carried over with a small deviation: two games, yet well known
    ladder = Glicko2Ladder()
    ladder.set_rating("me", (1600.0, 60.0, 0.06))
    ladder.rate(["me", "you"], [1, 2])
    ladder.rate(["me", "them"], [2, 1])
    assert not scale.shown(*ladder.rating("me")[:2])["provisional"]
    # and two games from the start are provisional
    assert scale.shown(*_after_games(2))["provisional"]


def test_the_conservative_value_is_rating_minus_two_deviations():
    assert scale.conservative(1612, 80) == 1452
    shown = scale.shown(1580.0, 90.0, days_away=40)
    assert shown["conservative"] == pytest.approx(shown["rating"] - 2 * shown["deviation"])
