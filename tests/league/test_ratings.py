"""league/ratings.py: the multiplayer Elo formula against the issue's numbers and hand-worked
tables with ties, the ladders, openskill side by side, and the prediction report. Pure: no
database, no Django."""

from __future__ import annotations

import math
import random
from statistics import NormalDist

import pytest
from openskill.models import PlackettLuce

from league.ratings import (
    CANDIDATES,
    DEFAULT_K,
    DEFAULT_RATING,
    GLICKO_SCALE,
    PROVISIONAL_GAMES,
    SHIPPED,
    EloLadder,
    Glicko2Ladder,
    OpenSkillLadder,
    PredictionScore,
    ScheduledEloLadder,
    elo_deltas,
    expected_score,
    glicko2_update,
    glicko_aged,
    prediction_report,
    score_table,
)

# Two expectations used by the hand-worked cases below (checked in test_expected_score):
#   100 points apart: 1 / (1 + 10^(-100/400)) = 1 / (1 + 0.5623413) = 0.6400650
#   200 points apart: 1 / (1 + 10^(-200/400)) = 1 / (1 + 0.3162278) = 0.7597469
E100 = 0.6400650
E200 = 0.7597469


def random_games(count: int, seed: int) -> list[tuple[list[str], list[int]]]:
    rng = random.Random(seed)
    pool = [f"p{i}" for i in range(30)]
    games = []
    for _ in range(count):
        players = rng.sample(pool, rng.randint(2, 4))
        games.append((players, [rng.randint(1, len(players)) for _ in players]))
    return games


# -- the formula ------------------------------------------------------------------------------


def test_defaults():
    assert DEFAULT_RATING == 1500.0
    assert DEFAULT_K == 32.0
    assert PROVISIONAL_GAMES == 10


def test_expected_score():
    assert expected_score(1500, 1500) == 0.5
    assert expected_score(1600, 1500) == pytest.approx(E100, abs=1e-7)
    assert expected_score(1500, 1600) == pytest.approx(1 - E100, abs=1e-7)
    assert expected_score(1600, 1400) == pytest.approx(E200, abs=1e-7)
    assert expected_score(1900, 1500) == pytest.approx(10 / 11)  # 1 / (1 + 10^-1)
    assert expected_score(0, 1e9) == 0.0  # far apart: no overflow
    assert expected_score(1e9, 0) == 1.0


def test_two_players_at_1500_one_wins():
    assert elo_deltas([1500, 1500], [1, 2]) == [16.0, -16.0]
    ladder = EloLadder()
    assert ladder.rate(["ann", "bob"], [1, 2]) == [(1500.0, 1516.0), (1500.0, 1484.0)]
    assert ladder.ratings == {"ann": 1516.0, "bob": 1484.0}


def test_four_players_at_1500_ranked_1_to_4():
    # Seat 2: K/3 x ((0 - 0.5) + (1 - 0.5) + (1 - 0.5)) = 32/3 x 0.5 = 5.333...
    assert elo_deltas([1500] * 4, [1, 2, 3, 4]) == pytest.approx(
        [16, 16 / 3, -16 / 3, -16], rel=1e-12
    )
    assert elo_deltas([1500] * 4, [1, 2, 3, 4])[1] == pytest.approx(5.333333333)


def test_three_at_1500_two_share_first():
    # Each winner: K/2 x ((0.5 - 0.5) + (1 - 0.5)) = 16 x 0.5 = +8
    # The loser:   K/2 x ((0 - 0.5) + (0 - 0.5))   = 16 x -1  = -16
    assert elo_deltas([1500, 1500, 1500], [1, 1, 3]) == pytest.approx([8, 8, -16])


def test_three_at_1500_two_share_second():
    # The winner:  K/2 x ((1 - 0.5) + (1 - 0.5))   = +16
    # Each other:  K/2 x ((0 - 0.5) + (0.5 - 0.5)) = -8
    assert elo_deltas([1500, 1500, 1500], [1, 2, 2]) == pytest.approx([16, -8, -8])


def test_everyone_tied_changes_nothing_at_equal_ratings():
    assert elo_deltas([1500, 1500, 1500], [1, 1, 1]) == pytest.approx([0, 0, 0])


def test_unequal_ratings_underdog_wins_and_two_tie():
    # A 1600, B 1500, C 1400; C wins, A and B share second (ranks 2, 2, 1).
    # A: vs B actual 0.5, expected E100 = 0.6400650 -> -0.1400650
    #    vs C actual 0,   expected E200 = 0.7597469 -> -0.7597469
    #    16 x -0.8998119 = -14.3969904
    # B: vs A actual 0.5, expected 1 - E100 = 0.3599350 -> +0.1400650
    #    vs C actual 0,   expected E100 = 0.6400650     -> -0.6400650
    #    16 x -0.5 = -8 (exactly: the two E100 terms cancel)
    # C: vs A actual 1, expected 1 - E200 = 0.2402531 -> +0.7597469
    #    vs B actual 1, expected 1 - E100 = 0.3599350 -> +0.6400650
    #    16 x 1.3998119 = +22.3969904
    deltas = elo_deltas([1600, 1500, 1400], [2, 2, 1])
    assert deltas == pytest.approx([-14.3969904, -8.0, 22.3969904], abs=1e-6)
    assert deltas[0] == pytest.approx(16 * ((0.5 - E100) + (0 - E200)), abs=1e-5)


def test_unequal_ratings_favourite_loses_to_a_shared_first():
    # 1500, 1500 share first; the 1700 comes last.  The 1700's expectation against a 1500 is
    # 1 / (1 + 10^(-200/400)) = E200 = 0.7597469.
    # Each winner: 16 x ((0.5 - 0.5) + (1 - (1 - E200))) = 16 x 0.7597469 = +12.1559508
    # The 1700:    16 x ((0 - E200) + (0 - E200))       = 16 x -1.5194939 = -24.3119015
    deltas = elo_deltas([1500, 1500, 1700], [1, 1, 3])
    assert deltas == pytest.approx([12.1559508, 12.1559508, -24.3119015], abs=1e-6)


def test_gaps_in_ranks_only_order_matters():
    assert elo_deltas([1500, 1510, 1490], [1, 3, 3]) == elo_deltas([1500, 1510, 1490], [1, 2, 2])


def test_changes_are_zero_sum():
    rng = random.Random(7)
    for _ in range(200):
        n = rng.randint(2, 6)
        ratings = [rng.uniform(1000, 2200) for _ in range(n)]
        ranks = [rng.randint(1, n) for _ in range(n)]
        assert sum(elo_deltas(ratings, ranks)) == pytest.approx(0, abs=1e-9)


def test_k_is_a_parameter():
    assert elo_deltas([1500, 1500], [1, 2], k=16) == [8.0, -8.0]
    assert elo_deltas([1500] * 4, [1, 2, 3, 4], k=48) == pytest.approx([24, 8, -8, -24])
    ladder = EloLadder(k=10)
    assert ladder.rate(["a", "b"], [2, 1]) == [(1500.0, 1495.0), (1500.0, 1505.0)]


def test_initial_rating_is_a_parameter():
    ladder = EloLadder(initial=1200)
    assert ladder.rating("newcomer") == 1200.0
    assert ladder.rate(["a", "b"], [1, 2]) == [(1200.0, 1216.0), (1200.0, 1184.0)]


@pytest.mark.parametrize(
    "ratings, ranks",
    [
        ([1500], [1]),  # fewer than two players
        ([], []),
        ([1500, 1500], [1]),  # lengths differ
        ([1500, 1500], [1, 2, 3]),
        ([1500, 1500], [0, 1]),  # ranks start at 1
        ([1500, 1500, 1500], [1, -2, 3]),
    ],
)
def test_elo_deltas_rejects_bad_input(ratings, ranks):
    with pytest.raises(ValueError):
        elo_deltas(ratings, ranks)


# -- the Elo ladder ---------------------------------------------------------------------------


def test_ladder_stores_unrounded_ratings():
    ladder = EloLadder()
    result = ladder.rate(["a", "b", "c", "d"], [1, 2, 3, 4])
    second = ladder.ratings["b"]
    assert second == pytest.approx(1500 + 16 / 3, rel=1e-15)
    assert second != round(second, 2) and second != round(second)
    assert result[1] == (1500.0, second)
    # The next game starts from the unrounded figure: b (1505.333...) beats a fresh player.
    after = ladder.rate(["b", "e"], [1, 2])
    assert after[0][0] == second
    assert after[0][1] == second + 32 * (1 - expected_score(second, 1500))


def test_ladder_counts_games_and_knows_unknown_players():
    ladder = EloLadder()
    assert ladder.rating("nobody") == DEFAULT_RATING
    assert "nobody" not in ladder.ratings
    ladder.rate(["a", "b"], [1, 2])
    ladder.rate(["a", "c", "d"], [3, 1, 2])
    assert ladder.games == {"a": 2, "b": 1, "c": 1, "d": 1}


def test_ladder_uses_ratings_from_before_the_game_whatever_the_seat_order():
    one, two = EloLadder(), EloLadder()
    for ladder in (one, two):
        ladder.ratings.update({"a": 1620.0, "b": 1480.0, "c": 1533.0})
    first = one.rate(["a", "b", "c"], [2, 1, 2])
    second = two.rate(["c", "a", "b"], [2, 2, 1])
    assert one.ratings == pytest.approx(two.ratings, rel=1e-12)
    assert [after for _, after in first] == pytest.approx(
        [second[1][1], second[2][1], second[0][1]], rel=1e-12
    )
    assert first[0][1] == pytest.approx(1620 + elo_deltas([1620, 1480, 1533], [2, 1, 2])[0])


def test_same_games_same_order_give_identical_floats():
    games = random_games(500, seed=3)
    first, second = EloLadder(), EloLadder()
    for players, ranks in games:
        first.rate(players, ranks)
    for players, ranks in games:
        second.rate(players, ranks)
    assert first.ratings == second.ratings  # exact, not approx
    assert first.games == second.games
    # ...while Elo does depend on the order: the same games reversed end elsewhere.
    reversed_ladder = EloLadder()
    for players, ranks in reversed(games):
        reversed_ladder.rate(players, ranks)
    assert reversed_ladder.ratings != first.ratings


@pytest.mark.parametrize(
    "players, ranks",
    [
        (["a", "a"], [1, 2]),  # a player twice
        (["a", "b", "a"], [1, 2, 3]),
        (["a"], [1]),
        (["a", "b"], [1]),
        (["a", "b"], [1, 0]),
    ],
)
def test_ladders_reject_bad_games_and_change_nothing(players, ranks):
    elo, openskill = EloLadder(), OpenSkillLadder()
    for ladder in (elo, openskill):
        with pytest.raises(ValueError):
            ladder.rate(players, ranks)
        assert ladder.games == {}
    assert elo.ratings == {}
    assert openskill.rating("a") == OpenSkillLadder().rating("a")


def test_win_probabilities_two_players_equal_expected_score():
    ladder = EloLadder()
    ladder.ratings.update({"a": 1587.5, "b": 1443.25})
    pa, pb = ladder.win_probabilities(["a", "b"])
    assert pa == pytest.approx(expected_score(1587.5, 1443.25), rel=1e-12)
    assert pb == pytest.approx(expected_score(1443.25, 1587.5), rel=1e-12)
    assert pa + pb == pytest.approx(1.0, rel=1e-15)


def test_win_probabilities_several_players():
    ladder = EloLadder()
    assert ladder.win_probabilities(["a", "b", "c", "d"]) == pytest.approx([0.25] * 4)
    # 1500, 1500, 1900: weights 10^(R/400) in the ratio 1 : 1 : 10 -> 1/12, 1/12, 10/12
    ladder.ratings["c"] = 1900.0
    assert ladder.win_probabilities(["a", "b", "c"]) == pytest.approx([1 / 12, 1 / 12, 10 / 12])
    ladder.ratings.update({"a": 1320.0, "b": 1710.0, "d": 1555.5})
    probabilities = ladder.win_probabilities(["a", "b", "c", "d"])
    assert sum(probabilities) == pytest.approx(1.0, rel=1e-12)
    assert probabilities.index(max(probabilities)) == 2  # c, the highest rated


def test_win_probabilities_survive_huge_ratings():
    ladder = EloLadder()
    ladder.ratings.update({"a": 500_000.0, "b": 1500.0})
    assert ladder.win_probabilities(["a", "b"]) == pytest.approx([1.0, 0.0])


# -- OpenSkill --------------------------------------------------------------------------------


def test_openskill_newcomer_has_the_model_prior():
    ladder = OpenSkillLadder()
    prior = PlackettLuce().rating()
    assert ladder.rating("x") == (prior.mu, prior.sigma) == pytest.approx((25.0, 25 / 3))
    assert ladder.ordinal("x") == pytest.approx(0.0)  # 25 - 3 x 25/3


def test_openskill_winner_up_loser_down():
    ladder = OpenSkillLadder()
    (a_before, a_after), (b_before, b_after) = ladder.rate(["a", "b"], [1, 2])
    assert a_after[0] > a_before[0] and b_after[0] < b_before[0]
    assert ladder.ordinal("a") > 0.0 > ladder.ordinal("b")
    assert a_after[1] < a_before[1] and b_after[1] < b_before[1]  # both more certain
    assert ladder.rating("a") == a_after and ladder.rating("b") == b_after
    assert ladder.games == {"a": 1, "b": 1}


def test_openskill_matches_the_model_called_directly():
    model = PlackettLuce()
    teams = [[model.rating()], [model.rating()], [model.rating()]]
    expected = model.rate(teams, ranks=[2, 1, 3])
    ladder = OpenSkillLadder()
    result = ladder.rate(["a", "b", "c"], [2, 1, 3])
    assert [after for _, after in result] == [(t[0].mu, t[0].sigma) for t in expected]


def test_openskill_set_rating_carries_on_from_stored_figures():
    straight = OpenSkillLadder()
    straight.rate(["a", "b"], [1, 2])
    straight.rate(["a", "b", "c"], [3, 1, 2])
    resumed = OpenSkillLadder()
    resumed.rate(["a", "b"], [1, 2])
    carried = OpenSkillLadder()
    for player in ("a", "b"):
        carried.set_rating(player, *resumed.rating(player))
    assert carried.rating("a") == resumed.rating("a")
    carried.rate(["a", "b", "c"], [3, 1, 2])
    for player in ("a", "b", "c"):
        assert carried.rating(player) == straight.rating(player)  # exact


def test_openskill_ties():
    ladder = OpenSkillLadder()
    ladder.rate(["a", "b"], [1, 1])  # a draw between equals moves nobody's mu
    assert ladder.rating("a")[0] == pytest.approx(25.0)
    assert ladder.rating("a") == pytest.approx(ladder.rating("b"))
    three = OpenSkillLadder()
    three.rate(["a", "b", "c"], [1, 1, 3])
    assert three.rating("a") == pytest.approx(three.rating("b"))  # tied seats move alike
    assert three.ordinal("a") > 0.0 > three.ordinal("c")
    assert three.rating("a")[0] > 25.0 > three.rating("c")[0]


def test_openskill_win_probabilities():
    ladder = OpenSkillLadder()
    assert ladder.win_probabilities(["a", "b"]) == pytest.approx([0.5, 0.5])
    ladder.rate(["a", "b", "c"], [1, 2, 3])
    probabilities = ladder.win_probabilities(["a", "b", "c"])
    assert sum(probabilities) == pytest.approx(1.0)
    assert probabilities[0] > probabilities[1] > probabilities[2]


# -- the prediction report --------------------------------------------------------------------


class FirstOfTheTied(random.Random):
    """Picks the first of the players tied for favourite, so a hand-worked case knows the pick."""

    def choice(self, seq):
        return seq[0]


HAND_GAMES = [
    (["a", "b"], [1, 2]),  # 1500 v 1500: 0.5 each, favourite a (FirstOfTheTied), a wins
    (["a", "b"], [2, 1]),  # a 1516 v b 1484: a favoured, b wins
    (["solo"], [1]),  # skipped: neither predicted nor rated
    (["c", "d"], [1, 1]),  # fresh pair: 0.5 each, favourite c shares first
]


def test_prediction_report_elo_by_hand():
    # Game 1: P(a) = 0.5, a won: correct; loss -ln 0.5 = 0.6931472.  a -> 1516, b -> 1484.
    # Game 2: P(a) = 1 / (1 + 10^(-32/400)) = 1 / (1 + 0.8317638) = 0.5459219, so P(b) =
    #         0.4540781; the favourite a lost: wrong; loss -ln 0.4540781 = 0.7894861.
    # Game 3 (c, d): P = 0.5 each, the two tie for first: correct; loss -ln(0.5 + 0.5) = 0.
    # Accuracy 2/3; log-loss (0.6931472 + 0.7894861 + 0) / 3 = 0.4942111.
    ladder = EloLadder()
    score = prediction_report(HAND_GAMES, ladder, FirstOfTheTied())
    assert isinstance(score, PredictionScore)
    assert score.games == 3
    assert score.accuracy == pytest.approx(2 / 3)
    assert score.log_loss == pytest.approx(0.4942111, abs=1e-7)
    # ...and it updated as it went: 1516 - 32 x 0.5459219 = 1498.5305
    assert ladder.rating("a") == pytest.approx(1498.5305, abs=1e-4)
    assert "solo" not in ladder.games


def test_prediction_report_openskill():
    # The same shape: game 1 even, game 2 a favoured but b wins, game 3 a tie for first.
    # Game 2's P(b) is openskill's two-team formula, Phi((mu_b - mu_a) / sqrt(2 beta^2 + ...)).
    ladder = OpenSkillLadder()
    (_, (mu_a, sigma_a)), (_, (mu_b, sigma_b)) = OpenSkillLadder().rate(["a", "b"], [1, 2])
    beta = 25 / 6
    p_b = NormalDist().cdf((mu_b - mu_a) / math.sqrt(2 * beta**2 + sigma_a**2 + sigma_b**2))
    score = prediction_report(HAND_GAMES, ladder, FirstOfTheTied())
    assert score.games == 3
    assert score.accuracy == pytest.approx(2 / 3)
    assert score.log_loss == pytest.approx((math.log(2) - math.log(p_b)) / 3, rel=1e-9)


def test_prediction_report_clamps_probabilities():
    # a is 8,000 points above b: P(b) = 10^-20, clamped to 1e-15; loss 15 ln 10 = 34.5387764.
    ladder = EloLadder()
    ladder.ratings["a"] = 9500.0
    score = prediction_report([(["a", "b"], [2, 1])], ladder)
    assert (score.games, score.accuracy) == (1, 0.0)
    assert score.log_loss == pytest.approx(34.5387764)
    assert (score.chance, score.lift) == (0.5, 0.0)
    assert math.isnan(score.log_loss_se)  # one game has no spread


def test_prediction_report_shared_first_place():
    # a and b (1500) tie for favourite above c (1400), and share first: either pick is right.
    # The loss adds the winners' shares: P(c) = 10^(-100/400) / (2 + 10^(-100/400)).
    ladder = EloLadder()
    ladder.ratings["c"] = 1400.0
    shared = prediction_report([(["b", "a", "c"], [1, 1, 3])], ladder)
    assert shared.accuracy == 1.0
    p_c = 10 ** (-100 / 400) / (2 + 10 ** (-100 / 400))
    assert shared.log_loss == pytest.approx(-math.log(1 - p_c))
    assert shared.chance == pytest.approx(2 / 3)
    assert shared.lift == pytest.approx(1.5)


def test_prediction_report_breaks_ties_for_favourite_at_random_not_by_seat():
    # Fresh players at every table: every favourite is a tie of the whole table. The winner
    # always sits first, so a seat-order pick would score 1.0; a random pick scores about the
    # chance rate, mean 1/n: 1/3 here, over 3,000 tables (sd of the share 0.0086).
    games = [([f"w{i}", f"x{i}", f"y{i}"], [1, 2, 3]) for i in range(3000)]
    score = prediction_report(games, EloLadder(), random.Random(5))
    assert score.chance == pytest.approx(1 / 3)
    assert score.accuracy == pytest.approx(1 / 3, abs=0.03)
    assert score.lift == pytest.approx(1.0, abs=0.09)
    assert score.log_loss == pytest.approx(math.log(3))
    assert score.log_loss_se == pytest.approx(0.0, abs=1e-12)  # every game lost ln 3
    # Seeded: the same generator, the same picks; without one, random.Random(0).
    again = prediction_report(games, EloLadder(), random.Random(5))
    assert again.accuracy == score.accuracy
    assert prediction_report(games, EloLadder()) == prediction_report(
        games, EloLadder(), random.Random(0)
    )


def test_prediction_report_standard_error_by_hand():
    # HAND_GAMES' losses, worked out above: 0.6931472, 0.7894861 and 0 (mean 0.4942111);
    # the sample sd is sqrt(sum (x - mean)^2 / 2), the standard error that over sqrt 3.
    score = prediction_report(HAND_GAMES, EloLadder())
    losses = [0.6931472, 0.7894861, 0.0]
    mean = sum(losses) / 3
    sd = math.sqrt(sum((x - mean) ** 2 for x in losses) / 2)
    assert score.log_loss_se == pytest.approx(sd / math.sqrt(3), abs=1e-6)


def test_prediction_report_with_nothing_to_score():
    score = prediction_report([(["x"], [1]), ([], [])], EloLadder())
    assert score.games == 0
    assert math.isnan(score.accuracy) and math.isnan(score.log_loss)


# -- the other candidates -------------------------------------------------------------------------


def test_scheduled_elo_k_falls_with_games_played():
    ladder = ScheduledEloLadder(schedule=((2, 60.0), (3, 40.0)), last_k=20.0)
    # Game 1 and 2 at K 60 for both; a wins both. Game 1: +-30. Game 2, 1530 v 1470:
    # E = 1 / (1 + 10^(-60/400)) = 1 / 1.7079458 = 0.5854987, a gains 60 x 0.4145013 = 24.870079.
    assert ladder.rate(["a", "b"], [1, 2]) == [(1500.0, 1530.0), (1500.0, 1470.0)]
    (_, a2), (_, b2) = ladder.rate(["a", "b"], [1, 2])
    assert a2 == pytest.approx(1530 + 24.870079, abs=1e-6)
    assert ladder.k_for("a") == 40.0
    # A newcomer c (K 60) against a (K 40 in its third game): the changes differ in size.
    (a_old, a_new), (c_old, c_new) = ladder.rate(["a", "c"], [2, 1])
    expected = expected_score(a_old, 1500.0)
    assert a_new - a_old == pytest.approx(40 * (0 - expected))
    assert c_new - c_old == pytest.approx(60 * (1 - (1 - expected)))
    assert ladder.k_for("a") == 20.0 and ladder.k_for("c") == 60.0
    with pytest.raises(ValueError, match="rise"):
        ScheduledEloLadder(schedule=((30, 40.0), (10, 60.0)))


def test_glicko2_update_matches_glickmans_worked_example():
    # "Example of the Glicko-2 system" (Glickman, 2013): a 1500 player, RD 200, volatility
    # 0.06, tau 0.5, beats a 1400 (RD 30), loses to a 1550 (RD 100) and a 1700 (RD 300):
    # 1464.06, RD 151.52, volatility 0.05999.
    rating, deviation, volatility = glicko2_update(
        1500, 200, 0.06, [(1400, 30, 1.0), (1550, 100, 0.0), (1700, 300, 0.0)], tau=0.5
    )
    assert rating == pytest.approx(1464.06, abs=0.01)
    assert deviation == pytest.approx(151.52, abs=0.01)
    assert volatility == pytest.approx(0.05999, abs=1e-5)
    # A period without games only widens the deviation: sqrt(phi^2 + sigma^2) on its scale.
    assert glicko2_update(1500, 200, 0.06, []) == pytest.approx(
        (1500, GLICKO_SCALE * math.sqrt((200 / GLICKO_SCALE) ** 2 + 0.06**2), 0.06)
    )


def test_glicko2_ladder_decomposes_a_table_into_pairs():
    ladder = Glicko2Ladder()
    ladder.ratings["b"] = (1600.0, 80.0, 0.06)
    (before, after), _, _ = ladder.rate(["a", "b", "c"], [1, 3, 2])
    # a beat b and c, all read from before the game.
    assert before == (1500.0, 350.0, 0.06)
    assert after == glicko2_update(1500, 350, 0.06, [(1600, 80, 1.0), (1500, 350, 1.0)])
    assert ladder.games == {"a": 1, "b": 1, "c": 1}


def test_glicko2_deviation_ages_with_each_players_own_days_away():
    ladder = Glicko2Ladder(aging=5.0)
    ladder.set_rating("a", (1600.0, 80.0, 0.06), played=10.0)
    ladder.set_rating("b", (1500.0, 80.0, 0.06), played=109.0)
    (a_before, a_after), (b_before, _), (c_before, _) = ladder.rate(
        ["a", "b", "c"], [1, 2, 3], when=110.0
    )
    # Glicko's step before a period: sqrt(RD^2 + c^2 t), a 100 days for a, 1 for b
    assert a_before == (1600.0, math.sqrt(80**2 + 25 * 100), 0.06)
    assert b_before == (1500.0, math.sqrt(80**2 + 25 * 1), 0.06)
    assert c_before == (1500.0, 350.0, 0.06)  # a newcomer: nothing to age
    assert a_after == glicko2_update(
        1600, a_before[1], 0.06, [(1500, b_before[1], 1.0), (1500, 350, 1.0)]
    )
    assert ladder.played == {"a": 110.0, "b": 110.0, "c": 110.0}
    # without ``when`` nothing ages, as the prediction report runs it
    quiet = Glicko2Ladder()
    quiet.set_rating("a", (1600.0, 80.0, 0.06), played=10.0)
    assert quiet.rate(["a", "b"], [1, 2])[0][0] == (1600.0, 80.0, 0.06)


def test_glicko_aging_stops_at_a_newcomers_deviation():
    assert glicko_aged(80.0, 0.0, 5.0) == 80.0
    assert glicko_aged(80.0, -3.0, 5.0) == 80.0
    assert glicko_aged(80.0, 365.0, 5.0) == pytest.approx(math.sqrt(6400 + 25 * 365))
    assert glicko_aged(80.0, 100_000.0, 5.0) == 350.0
    assert glicko_aged(360.0, 10.0, 5.0) == 360.0  # already past it: left as it is


def test_glicko2_two_player_prediction_is_glickos_expectation():
    ladder = Glicko2Ladder()
    ladder.ratings["a"] = (1700.0, 60.0, 0.06)
    ladder.ratings["b"] = (1550.0, 120.0, 0.06)
    mu_gap = 150 / GLICKO_SCALE
    phi = math.hypot(60, 120) / GLICKO_SCALE
    g = 1 / math.sqrt(1 + 3 * phi**2 / math.pi**2)
    p_a, p_b = ladder.win_probabilities(["a", "b"])
    assert p_a == pytest.approx(1 / (1 + math.exp(-g * mu_gap)), rel=1e-12)
    assert p_a + p_b == pytest.approx(1.0)


@pytest.mark.parametrize("name", list(CANDIDATES))
def test_every_candidate_predicts_a_distribution_and_learns(name):
    assert SHIPPED in CANDIDATES
    ladder = CANDIDATES[name]()
    for players, ranks in random_games(200, 3):
        probabilities = ladder.win_probabilities(players)
        assert sum(probabilities) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in probabilities)
        ladder.rate(players, ranks)
    # A player who always wins is, at the end, the favourite against one who always loses.
    for _ in range(15):
        ladder.rate(["strong", "weak"], [1, 2])
    strong, weak = ladder.win_probabilities(["strong", "weak"])
    assert strong > 0.7 > weak


def test_score_table_puts_log_loss_first_and_stars_the_best():
    lines = score_table({"one": (0.9, 0.01, 0.5, 1.4), "two": (0.8, 0.02, 0.49, 1.38)})
    assert lines[0].split() == ["candidate", "log-loss", "±", "se", "accuracy", "lift"]
    assert lines[1].split() == ["one", "0.9000", "0.0100", "0.500", "1.40"]
    assert lines[2].split() == ["*", "two", "0.8000", "0.0200", "0.490", "1.38"]
