"""The rating a player sees: Glicko-2's rating and deviation, aged to today, pure Python.

The ratings keep each player's Glicko-2 state per game type (league.ratings.Glicko2Ladder,
already on the 1500 scale that Elo uses); pages and the API show that rating as it is, and its
deviation (RD) grown by the days since the player's last game with the same c the ladder uses
before each game (league.ratings.GLICKO_AGING), so that what is shown is what the next game
would read. The stored history keeps what the games said; the aging is worked out on showing.

Provisional means the aged deviation is above PROVISIONAL_DEVIATION, never a count of games.
"""

from __future__ import annotations

from league.ratings import DEFAULT_RATING, GLICKO_AGING, GLICKO_RD, glicko_aged

BASE = DEFAULT_RATING  # everyone starts at 1500...
NEWCOMER_DEVIATION = GLICKO_RD  # ...give or take 350; aging never takes anyone past it
# Provisional: a deviation above 100, about ten games' worth of evidence. In the club the
# report simulates (tables of 2-4, strength and noise sd 200), the median RD is 138 after 5
# games, 99 after 10 and 72 after 20 (10th-90th percentile at 10 games: 90-115). lichess uses
# 110 for Glicko-2, about 8 games here. With c = 5 a month away takes 72 to 81; half a year to
# a year away brings a regular (62-72) back above 100.
PROVISIONAL_DEVIATION = 100.0
AGING_PER_DAY = GLICKO_AGING


def deviation(stored: float, days_away: float = 0.0) -> float:
    """The deviation after ``days_away`` days without a game (none counted when negative),
    never above a newcomer's."""
    return glicko_aged(stored, days_away, AGING_PER_DAY, NEWCOMER_DEVIATION)


def provisional(deviation_shown: float) -> bool:
    return deviation_shown > PROVISIONAL_DEVIATION


def conservative(rating_shown: float, deviation_shown: float) -> float:
    """What the leaderboard ranks by: we are fairly sure the player is at least this good."""
    return rating_shown - 2.0 * deviation_shown


def shown(
    rating: float, stored_deviation: float, days_away: float = 0.0
) -> dict[str, float | bool]:
    """Everything a page or the API shows of one Glicko-2 rating."""
    d = deviation(stored_deviation, days_away)
    return {
        "rating": rating,
        "deviation": d,
        "provisional": provisional(d),
        "conservative": conservative(rating, d),
    }
