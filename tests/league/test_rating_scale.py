"""The rating shown (league.rating_scale): the scale against openskill's own predictions, the
deviation's growth while away, provisional by deviation, and the conservative value."""

import math

import pytest
from openskill.models import PlackettLuce

from league import rating_scale as scale
from league.ratings import OpenSkillLadder, expected_score

MODEL = PlackettLuce()
SURE = 0.001  # a sigma small enough that predict_win reads the gap alone


def _p_first(mu_a: float, mu_b: float, sigma: float = SURE) -> float:
    a, b = MODEL.rating(mu=mu_a, sigma=sigma), MODEL.rating(mu=mu_b, sigma=sigma)
    return MODEL.predict_win([[a], [b]])[0]


def _mu_for(rating: float) -> float:
    return scale.MU0 + (rating - scale.BASE) / scale.SCALE


def test_the_constants_are_openskills_defaults():
    assert (MODEL.mu, MODEL.sigma, MODEL.beta) == pytest.approx(
        (scale.MU0, scale.SIGMA0, scale.BETA)
    )


def test_a_newcomer_is_1500_with_a_wide_deviation():
    shown = scale.shown(MODEL.mu, MODEL.sigma)
    assert shown["rating"] == pytest.approx(1500.0)
    assert shown["deviation"] == pytest.approx(392.04, abs=0.01)
    assert shown["provisional"] is True


@pytest.mark.parametrize("gap", [5, 10, 20])
def test_a_small_gap_means_what_the_same_elo_gap_means(gap):
    # The scale is chosen for the same slope at an even match: nearly exact for small gaps.
    predicted = _p_first(_mu_for(1500 + gap), _mu_for(1500))
    assert predicted == pytest.approx(expected_score(1500 + gap, 1500), abs=2e-4)


@pytest.mark.parametrize("gap", [50, 100, 200, 300, 400])
def test_larger_gaps_stay_close_to_elo(gap):
    predicted = _p_first(_mu_for(1600 + gap), _mu_for(1600))
    assert predicted == pytest.approx(expected_score(1600 + gap, 1600), abs=0.02)


def test_the_logistic_reading_of_the_model_would_not_match_predict_win():
    # Why SCALE is not 400 / (ln 10 * sqrt(2) * beta) = 29.5: on that scale a 200-point gap
    # would be predicted far above Elo's 0.76.
    logistic_scale = 400 / (math.log(10) * math.sqrt(2) * scale.BETA)
    mu_gap = 200 / logistic_scale
    assert _p_first(25 + mu_gap, 25) - expected_score(1700, 1500) > 0.1


def test_aging_grows_the_deviation_by_the_days_away():
    settled = 230 / scale.SCALE
    assert scale.deviation(settled) == pytest.approx(230)
    assert scale.deviation(settled, 0) == pytest.approx(230)
    assert scale.deviation(settled, -5) == pytest.approx(230)  # a clock out of step ages nobody
    assert scale.deviation(settled, 30) == pytest.approx(math.sqrt(230**2 + 100 * 30))
    a_year = scale.deviation(settled, 365)  # about 299: at the edge of provisional
    assert a_year == pytest.approx(math.sqrt(230**2 + 36500))
    assert scale.provisional(scale.deviation(settled, 400))  # a year and more: provisional
    assert not scale.provisional(scale.deviation(settled, 30))


def test_aging_never_passes_a_newcomers_deviation():
    assert scale.deviation(7.5, 10_000) == pytest.approx(scale.NEWCOMER_DEVIATION)
    assert scale.deviation(scale.SIGMA0, 50) == pytest.approx(scale.NEWCOMER_DEVIATION)


def _after_games(count: int) -> tuple[float, float]:
    """(mu, sigma) after ``count`` games at tables of four against settled players, finishing
    first, second, third, fourth in turn."""
    ladder = OpenSkillLadder()
    for game in range(count):
        rivals = [f"rival{game}-{seat}" for seat in range(3)]
        for rival in rivals:
            ladder.set_rating(rival, 25.0, 3.0)
        place = game % 4
        ranks = [place + 1] + [rank for rank in (1, 2, 3, 4) if rank != place + 1]
        ladder.rate(["me", *rivals], ranks)
    return ladder.rating("me")


def test_twelve_games_and_a_long_absence_is_provisional():
    mu, sigma = _after_games(12)
    fresh = scale.shown(mu, sigma)
    assert not fresh["provisional"]  # 12 games narrow it below the threshold...
    assert scale.shown(mu, sigma, days_away=400)["provisional"]  # ...a long absence widens it


def test_few_games_with_a_small_deviation_is_not_provisional():
    # e.g. a rating carried over from elsewhere with a small sigma: two games, yet well known
    ladder = OpenSkillLadder()
    ladder.set_rating("me", 30.0, 3.0)
    ladder.rate(["me", "you"], [1, 2])
    ladder.rate(["me", "them"], [2, 1])
    mu, sigma = ladder.rating("me")
    assert not scale.shown(mu, sigma)["provisional"]
    # and two games from the start are provisional
    assert scale.shown(*_after_games(2))["provisional"]


def test_the_conservative_value_is_rating_minus_two_deviations():
    assert scale.conservative(1612, 80) == 1452
    shown = scale.shown(27.0, 4.0)
    assert shown["conservative"] == pytest.approx(shown["rating"] - 2 * shown["deviation"])
