"""The rating a player sees: OpenSkill's (mu, sigma) on an Elo-like scale, pure Python.

The ratings keep OpenSkill's Plackett-Luce mu and sigma per player and game; pages and the API
show them as ``rating = 1500 + SCALE * (mu - 25)`` with a deviation ``SCALE * sigma``, so that a
gap between two established players reads as an Elo gap does.

Why SCALE is about 47 and not the 29.5 a logistic reading of Plackett-Luce gives: what the
project predicts with (league.ratings, the figures of issue 40) is openskill's ``predict_win``,
which for two players is the normal curve Phi((mu_a - mu_b) / sqrt(2 beta^2 + sigma_a^2 +
sigma_b^2)), not a logistic one. Elo's is 1 / (1 + 10^(-d / 400)). The two curves cannot agree
everywhere; SCALE makes them agree for small gaps (the same slope at an even match), and then
they stay within 0.02 of each other up to a 400-point gap (tests/league/test_rating_scale.py).

The deviation grows while a player is away (we are less sure of someone who has not played for
a year), but only when shown: the stored history keeps what the games said.
"""

from __future__ import annotations

import math

MU0 = 25.0  # openskill's default mu and sigma (PlackettLuce())
SIGMA0 = 25.0 / 3.0
BETA = 25.0 / 6.0

BASE = 1500.0
# Same slope at an even match: d(Phi(x / (sqrt(2) beta)))/dx = d(Elo)/dd * SCALE at 0.
SCALE = 1600.0 / (math.log(10.0) * math.sqrt(2.0 * math.pi) * math.sqrt(2.0) * BETA)

# A newcomer's deviation (about 392): aging never takes anyone past it.
NEWCOMER_DEVIATION = SCALE * SIGMA0
# Provisional: still more than three quarters of a stranger's uncertainty. Plackett-Luce
# narrows slowly: at tables of three or four against settled players that is about the first 10
# games, against other newcomers 15 to 20; a long absence brings it back. Decided by the
# deviation, never by a count of games.
PROVISIONAL_DEVIATION = 300.0
# Rating points per square root of a day away: a year adds 10^2 * 365 to the variance, taking
# an established 230 (some 30 games) to about 300, provisional again.
AGING_PER_DAY = 10.0


def rating(mu: float) -> float:
    return BASE + SCALE * (mu - MU0)


def deviation(sigma: float, days_away: float = 0.0) -> float:
    """The deviation on the scale after ``days_away`` days without a game (none counted when
    negative), never above a newcomer's."""
    games_say = SCALE * sigma
    if days_away <= 0:
        return games_say
    aged = math.sqrt(games_say * games_say + AGING_PER_DAY * AGING_PER_DAY * days_away)
    return min(aged, max(games_say, NEWCOMER_DEVIATION))


def provisional(deviation_shown: float) -> bool:
    return deviation_shown > PROVISIONAL_DEVIATION


def conservative(rating_shown: float, deviation_shown: float) -> float:
    """What the leaderboard ranks by: we are fairly sure the player is at least this good."""
    return rating_shown - 2.0 * deviation_shown


def shown(mu: float, sigma: float, days_away: float = 0.0) -> dict[str, float | bool]:
    """Everything a page or the API shows of one rating."""
    r, d = rating(mu), deviation(sigma, days_away)
    return {
        "rating": r,
        "deviation": d,
        "provisional": provisional(d),
        "conservative": conservative(r, d),
    }
