"""league/standings.py: placement points with ties at tables of 2, 3 and 4, and every tie-break
worked by hand on small events. Pure: no database, no Django."""

from __future__ import annotations

import pytest

from league.standings import (
    DEFAULT_PLACEMENT_POINTS,
    DEFAULT_TIEBREAKS,
    TIEBREAKS,
    GameResult,
    Standing,
    fallback_placement,
    placement_points,
    scaled_points,
    standings,
)


def game(players: str, ranks, scores=None) -> GameResult:
    """A game between one-letter players, seats in the order written."""
    return GameResult(
        players=tuple(players),
        ranks=tuple(ranks),
        scores=tuple(scores) if scores is not None else (None,) * len(players),
    )


def order(table: list[Standing]) -> str:
    return "".join(line.player for line in table)


def line(table: list[Standing], player) -> Standing:
    return next(entry for entry in table if entry.player == player)


# -- placement points -------------------------------------------------------------------------


def test_defaults():
    assert DEFAULT_PLACEMENT_POINTS == {2: (1, 0), 3: (5, 3, 1), 4: (5, 3, 2, 1)}
    assert DEFAULT_TIEBREAKS == ("buchholz", "score", "share", "wins", "head_to_head")
    assert TIEBREAKS == (*DEFAULT_TIEBREAKS, "median_buchholz", "opponents_share")


@pytest.mark.parametrize(
    "ranks, expected",
    [
        # two players: 1/0, a draw shares (1 + 0) / 2
        ((1, 2), [1, 0]),
        ((2, 1), [0, 1]),
        ((1, 1), [0.5, 0.5]),
        # three players: 5/3/1
        ((1, 2, 3), [5, 3, 1]),
        ((3, 1, 2), [1, 5, 3]),
        ((1, 1, 3), [4, 4, 1]),  # (5 + 3) / 2
        ((1, 2, 2), [5, 2, 2]),  # (3 + 1) / 2
        ((1, 1, 1), [3, 3, 3]),  # (5 + 3 + 1) / 3
        # four players: 5/3/2/1
        ((1, 2, 3, 4), [5, 3, 2, 1]),
        ((1, 1, 3, 4), [4, 4, 2, 1]),  # the example: (5 + 3) / 2, then 2
        ((2, 1, 2, 4), [2.5, 5, 2.5, 1]),  # (3 + 2) / 2
        ((1, 2, 2, 2), [5, 2, 2, 2]),  # (3 + 2 + 1) / 3
        ((1, 1, 1, 1), [2.75] * 4),  # 11 / 4
        ((1, 1, 3, 3), [4, 4, 1.5, 1.5]),
    ],
)
def test_placement_points_with_ties(ranks, expected):
    assert placement_points(ranks, DEFAULT_PLACEMENT_POINTS[len(ranks)]) == expected


def test_placement_points_read_only_the_order_of_ranks():
    assert placement_points((1, 1, 2), (5, 3, 1)) == [4, 4, 1]  # as 1, 1, 3
    assert placement_points((7, 9), (1, 0)) == [1, 0]


@pytest.mark.parametrize("ranks, points", [((1, 2), (5, 3, 1)), ((0, 1), (1, 0))])
def test_placement_points_rejects(ranks, points):
    with pytest.raises(ValueError):
        placement_points(ranks, points)


# -- one event, every column by hand ----------------------------------------------------------

# A B C at a table of 3, D E at a table of 2, A C D E at a table of 4, B has a bye (2 points):
#   G1 (A, B, C) ranks 1 2 3, scores 30 20 10  -> A 5, B 3, C 1
#   G2 (D, E)    ranks 1 2,   scores 15 5      -> D 1, E 0
#   G3 (A C D E) ranks 2 1 3 4, scores 20 25 10 forfeit -> C 5, A 3, D 2, E 1
# points:   A 5+3 = 8, B 3+2 = 5, C 1+5 = 6, D 1+2 = 3, E 0+1 = 1
# buchholz: A (B 5 + C 6) + (C 6 + D 3 + E 1) = 21      B (A 8 + C 6) = 14
#           C (A 8 + B 5) + (A 8 + D 3 + E 1) = 25      D (E 1) + (A 8 + C 6 + E 1) = 16
#           E (D 3) + (A 8 + C 6 + D 3) = 20
# score:    A 50, B 20, C 35, D 25, E 5 (the forfeit counts 0)
# share:    A 30/60 + 20/55, B 20/60, C 10/60 + 25/55, D 15/20 + 10/55, E 5/20 + 0/55
# wins:     A 1, B 0, C 1, D 1, E 0
EVENT = [
    game("ABC", (1, 2, 3), (30, 20, 10)),
    game("DE", (1, 2), (15, 5)),
    game("ACDE", (2, 1, 3, 4), (20, 25, 10, None)),
]


def test_one_event_by_hand_under_version_1():
    table = standings(
        "ABCDE",
        EVENT,
        byes=["B"],
        bye_points=2,
        tiebreaks=("buchholz", "score", "share", "wins"),
        tiebreak_version=1,
    )
    assert order(table) == "ACBDE"
    expected = {
        "A": (8, 21, 50, 30 / 60 + 20 / 55, 1, 2, 0),
        "B": (5, 14, 20, 20 / 60, 0, 1, 1),
        "C": (6, 25, 35, 10 / 60 + 25 / 55, 1, 2, 0),
        "D": (3, 16, 25, 15 / 20 + 10 / 55, 1, 2, 0),
        "E": (1, 20, 5, 5 / 20, 0, 2, 0),
    }
    for entry in table:
        points, buchholz, score, share, wins, games, byes = expected[entry.player]
        assert entry.points == points
        assert entry.tiebreaks == pytest.approx((buchholz, score, share, wins))
        assert (entry.wins, entry.games, entry.byes) == (wins, games, byes)
    assert line(table, "A").tiebreaks[2] == pytest.approx(0.8636364, abs=1e-7)
    assert line(table, "D").tiebreaks[2] == pytest.approx(0.9318182, abs=1e-7)


# -- tie-breaks, one at a time ----------------------------------------------------------------

# P beats R 10-9, Q beats S 30-0, R beats T 5-4, R beats U 7-1.
# points: R 2, P 1, Q 1, S T U 0. P and Q tie on points:
#   buchholz P = R's 2 > Q = S's 0;  score P 10 < Q 30;  share P 10/19 < Q 30/30
# S T U tie on 0: buchholz S 1 (Q), T 2 (R), U 2 (R); scores S 0, T 4, U 1;
#   shares S 0/30, T 4/9, U 1/8
TWO_SEATS = [
    game("PR", (1, 2), (10, 9)),
    game("QS", (1, 2), (30, 0)),
    game("RT", (1, 2), (5, 4)),
    game("RU", (1, 2), (7, 1)),
]


@pytest.mark.parametrize(
    "tiebreaks, expected",
    [
        (DEFAULT_TIEBREAKS, "RPQTUS"),
        (("buchholz",), "RPQTUS"),
        (("score", "buchholz"), "RQPTUS"),
        (("share",), "RQPTUS"),
        (("wins",), "RQPSTU"),  # P and Q won once each; S T U never: the given order stands
        ((), "RQPSTU"),
    ],
)
def test_tiebreaks_in_the_configured_order(tiebreaks, expected):
    table = standings("QPRSTU", TWO_SEATS, tiebreaks=tiebreaks)
    assert order(table) == expected
    assert len(table[0].tiebreaks) == len(tiebreaks)


def test_tiebreak_values_follow_the_configured_order():
    table = standings("QPRSTU", TWO_SEATS, tiebreaks=("score", "buchholz"))
    assert line(table, "P").tiebreaks == (10, 2)
    assert line(table, "Q").tiebreaks == (30, 0)
    assert line(table, "T").tiebreaks == (4, 2)


def test_wins_count_first_places_and_shared_firsts():
    # X: 1st then 3rd = 5 + 1; Y: 2nd twice = 3 + 3; both 6, X has the win
    results = [game("XYZ", (1, 2, 3)), game("WYX", (1, 2, 3)), game("KLM", (1, 1, 3))]
    table = standings("YXZWKLM", results, tiebreaks=("wins",))
    assert order(table)[:2] == "XY"
    assert [line(table, p).wins for p in "XYKLM"] == [1, 0, 1, 1, 0]
    assert line(table, "K").points == 4 and line(table, "M").points == 1


def test_a_three_way_tie_broken_head_to_head():
    # A beats B and C, B beats C; C beats X and Y, B beats Z: A, B and C have 2 points each, the
    # same Buchholz (A: 2+2, B: 2+2+0, C: 2+2+0+0), no scores and two wins each, so only
    # head to head parts them: A 2 (both games against the others), B 1, C 0.
    results = [
        game("AB", (1, 2)),
        game("AC", (1, 2)),
        game("BC", (1, 2)),
        game("CX", (1, 2)),
        game("CY", (1, 2)),
        game("BZ", (1, 2)),
    ]
    table = standings("CBAXYZ", results, tiebreak_version=1)  # averaged, Buchholz parts them
    assert order(table) == "ABCXYZ"
    assert [line(table, p).tiebreaks for p in "ABC"] == [
        (4, 0, 0, 2, 2),
        (4, 0, 0, 2, 1),
        (4, 0, 0, 2, 0),
    ]
    without = standings("CBAXYZ", results, tiebreaks=DEFAULT_TIEBREAKS[:-1], tiebreak_version=1)
    assert order(without) == "CBAXYZ"


def test_head_to_head_at_larger_tables_counts_within_each_tied_group():
    # G1 (A B C) ranks 1 3 2 -> A 5, C 3, B 1
    # G2 (B D E) ranks 1 2 3 -> B 5, D 3, E 1
    # G3 (A D F) ranks 3 1 2 -> D 5, F 3, A 1
    # points: D 8, A 6, B 6, C 3, F 3, E 1. Tied: {A, B} and {C, F}.
    # A and B met in G1 only: A earned 5 there, B 1. C and F never met: 0 each. D shared G3
    # with A, but D is tied with nobody, so that game is no head to head: D 0.
    results = [game("ABC", (1, 3, 2)), game("BDE", (1, 2, 3)), game("ADF", (3, 1, 2))]
    table = standings("BAFCDE", results, tiebreaks=("head_to_head",))
    assert order(table) == "DABFCE"
    assert {entry.player: entry.tiebreaks[0] for entry in table} == {
        "A": 5,
        "B": 1,
        "C": 0,
        "D": 0,
        "E": 0,
        "F": 0,
    }


def test_head_to_head_groups_by_the_tiebreaks_before_it():
    # As above, but Buchholz first: A ((B 6 + C 3) / 2 + (D 8 + F 3) / 2) / 2 = 5 and B
    # ((A 6 + C 3) / 2 + (D 8 + E 1) / 2) / 2 = 4.5 are no longer tied, so head to head is
    # computed for nobody.
    results = [game("ABC", (1, 3, 2)), game("BDE", (1, 2, 3)), game("ADF", (3, 1, 2))]
    table = standings("BAFCDE", results, tiebreaks=("buchholz", "head_to_head"))
    assert line(table, "A").tiebreaks == (5, 0)
    assert line(table, "B").tiebreaks == (4.5, 0)


# -- byes, players without games, custom points -----------------------------------------------


def test_byes_add_points_and_nothing_else():
    table = standings(["a", "b", "c"], [game("bc", (1, 2))], byes=["a", "a"], bye_points=1.5)
    assert [(e.player, e.points, e.games, e.byes, e.wins) for e in table] == [
        ("a", 3.0, 0, 2, 0),
        ("b", 1.0, 1, 0, 1),
        ("c", 0.0, 1, 0, 0),
    ]
    assert line(table, "b").tiebreaks[0] == 0  # Buchholz: c, with 0 points
    assert line(table, "a").tiebreaks == (0, 0, 0, 0, 0)


def test_players_without_games_are_listed():
    table = standings(["x", "y"], [])
    assert [(e.player, e.points, e.games) for e in table] == [("x", 0.0, 0), ("y", 0.0, 0)]


def test_custom_placement_points():
    table = standings("ab", [game("ab", (1, 1)), game("ab", (2, 1))], placement={2: (3, 0)})
    assert [(e.player, e.points) for e in table] == [("b", 4.5), ("a", 1.5)]


def test_points_summed_in_another_order_still_tie():
    # X earns 0.1, 0.2, 0.3 and Y 0.3, 0.2, 0.1: 0.6000000000000001 against 0.6 in floats
    points = {3: (0.3, 0.2, 0.1)}
    results = [
        game("XYF", (3, 1, 2)),
        game("XFG", (2, 1, 3)),
        game("YFG", (2, 1, 3)),
        game("XFG", (1, 2, 3)),
        game("YFG", (3, 1, 2)),
    ]
    table = standings("YXFG", results, placement=points, tiebreaks=())
    assert line(table, "X").points != line(table, "Y").points
    assert order(table)[1:] == "YXG"  # tied, so the given order: Y before X


# -- errors -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tiebreaks", [("buchholz", "sonneborn_berger"), ("Wins",), ("score", "score")]
)
def test_unknown_or_repeated_tiebreaks_raise(tiebreaks):
    with pytest.raises(ValueError):
        standings("ab", [game("ab", (1, 2))], tiebreaks=tiebreaks)


def test_bad_input_raises():
    with pytest.raises(ValueError):
        standings("ab", [game("ac", (1, 2))])  # c is not a player
    with pytest.raises(ValueError):
        standings("ab", [], byes=["z"])
    with pytest.raises(ValueError):
        standings("abcde", [game("abcde", (1, 2, 3, 4, 5))])  # no points for a table of 5
    with pytest.raises(ValueError):
        standings("aab", [])
    with pytest.raises(ValueError):
        GameResult(players=("a", "b"), ranks=(1,), scores=(None, None))
    with pytest.raises(ValueError):
        GameResult(players=("a", "a"), ranks=(1, 2), scores=(None, None))


# -- short tables on the full table's scale ---------------------------------------------------


def test_a_short_table_scores_by_relative_place_on_the_full_scale():
    assert scaled_points([5, 3, 1], 2) == [5, 1]
    assert scaled_points([5, 3, 2, 1], 3) == [5, 2.5, 1]
    assert scaled_points([5, 3, 2, 1], 2) == [5, 1]
    assert scaled_points([5, 3, 2, 1], 4) == [5, 3, 2, 1]
    with pytest.raises(ValueError):
        scaled_points([5, 3, 1], 4)


def test_seven_players_at_tables_of_three_score_alike():
    # One table of 3 and two of 2: every winner gets 5, every last 1 (once 5 and 1, 1 and 0).
    placement = fallback_placement(DEFAULT_PLACEMENT_POINTS, 3)
    assert placement == {2: [5, 1], 3: [5, 3, 1], 4: [5, 3, 2, 1]}
    table = standings(
        list("abcdefg"),
        [game("abc", [1, 2, 3]), game("de", [1, 2]), game("fg", [1, 2])],
        placement=placement,
    )
    assert [(entry.player, entry.points) for entry in table if entry.wins] == [
        ("a", 5),
        ("d", 5),
        ("f", 5),
    ]
    assert fallback_placement(DEFAULT_PLACEMENT_POINTS, 3, given=[2])[2] == [1, 0]


# -- median Buchholz and opponents' share ------------------------------------------------------

FIVE_GAMES = [game("AB", (1, 2)), game("AC", (1, 2)), game("AD", (1, 2)), game("BC", (1, 2)),
              game("DC", (1, 2))]  # fmt: skip


def test_median_buchholz_of_version_1_drops_the_best_and_worst_game_from_three_games_on():
    # points: A 3, B 1, C 0, D 1
    table = standings(
        "ABCD", FIVE_GAMES, tiebreaks=["buchholz", "median_buchholz"], tiebreak_version=1
    )
    values = {entry.player: entry.tiebreaks for entry in table}
    assert values["A"] == (2, 1)  # opponents 1, 0, 1: the 0 and one 1 dropped
    assert values["C"] == (5, 1)  # opponents 3, 1, 1
    assert values["B"] == (3, 3)  # two games: nothing dropped
    assert values["D"] == (3, 3)


def test_opponents_share_averages_each_opponents_placement_share_floored():
    table = standings("ABCD", FIVE_GAMES, tiebreaks=["opponents_share"])
    share = {entry.player: entry.tiebreaks[0] for entry in table}
    # shares: A 3/3, B 1/2, C 0/3 floored to 1/3, D 1/2
    assert share["A"] == pytest.approx((0.5 + 1 / 3 + 0.5) / 3)
    assert share["B"] == pytest.approx((1 + 1 / 3) / 2)
    assert share["C"] == pytest.approx((1 + 0.5 + 0.5) / 3)
    unfloored = standings("ABCD", FIVE_GAMES, tiebreaks=["opponents_share"], share_floor=0)
    assert line(unfloored, "A").tiebreaks[0] == pytest.approx(1 / 3)


def test_opponents_share_at_tables_of_three_counts_the_most_each_table_could_give():
    results = [game("ABC", (1, 2, 3)), game("ABD", (2, 1, 3))]
    # A: 5 + 3 of 10; B: 3 + 5 of 10; C: 1 of 5; D: 1 of 5, floored at 1/4
    table = standings("ABCD", results, tiebreaks=["opponents_share"], share_floor=0.25)
    share = {entry.player: entry.tiebreaks[0] for entry in table}
    assert share["A"] == pytest.approx((0.8 + 0.25 + 0.8 + 0.25) / 4)
    assert share["C"] == pytest.approx((0.8 + 0.8) / 2)


# -- tie-break formulas of version 2 (issue 38) ----------------------------------------------


def test_a_negative_score_never_takes_the_best_share():
    # Deep Vents: an eliminated seat at -20. Under version 1 its 20 / (20 - 20 + ...) share was
    # inverted; now scores shift up by the lowest negative one: 0, 10, 30, 40 of 80.
    results = [game("ABCD", (4, 3, 2, 1), (-20, -10, 10, 20))]
    table = standings("ABCD", results, tiebreaks=["share"])
    share = {entry.player: entry.tiebreaks[0] for entry in table}
    assert share == pytest.approx({"A": 0, "B": 10 / 80, "C": 30 / 80, "D": 40 / 80})
    assert share["A"] < share["B"] < share["C"] < share["D"]


def test_share_of_version_1_is_kept_for_old_events():
    results = [game("AB", (2, 1), (-20, 5)), game("CD", (1, 2), (6, 4))]
    old = standings("ABCD", results, tiebreaks=["share"], tiebreak_version=1)
    assert line(old, "A").tiebreaks[0] == pytest.approx(-20 / -15)  # the inversion, kept
    assert line(old, "C").tiebreaks[0] == pytest.approx(0.6)


@pytest.mark.parametrize("scores", [(7, 7, 7), (0, 0, 0), (-3, -3, -3), (None, None, None)])
def test_a_table_of_equal_scores_gives_equal_shares(scores):
    table = standings("ABC", [game("ABC", (1, 1, 1), scores)], tiebreaks=["share"])
    assert [entry.tiebreaks[0] for entry in table] == pytest.approx([1 / 3] * 3)


def test_positive_scores_share_as_before():
    results = [game("ABC", (1, 2, 3), (30, 20, 10))]
    new = standings("ABC", results, tiebreaks=["share"])
    old = standings("ABC", results, tiebreaks=["share"], tiebreak_version=1)
    assert [e.tiebreaks for e in new] == [e.tiebreaks for e in old]


def test_buchholz_averages_the_opponents_per_game_so_short_tables_cost_nothing():
    # A sat at a table of 4, B at a table of 2; both won. Each one's opponents took, on average,
    # the same points in these games and the others below.
    results = [
        game("ACDE", (1, 2, 3, 4)),
        game("BF", (1, 2)),
        game("CF", (2, 1)),
        game("DE", (1, 2)),
    ]
    placement = {2: (5, 1), 3: (5, 3, 1), 4: (5, 3, 2, 1)}
    old = standings("ABCDEF", results, placement=placement, tiebreak_version=1,
                    tiebreaks=["buchholz"])  # fmt: skip
    new = standings("ABCDEF", results, placement=placement, tiebreaks=["buchholz"])
    # points: C 3 + 1 = 4, D 2 + 5 = 7, E 1 + 1 = 2, F 1 + 5 = 6
    assert line(old, "A").tiebreaks == (13,)  # 4 + 7 + 2, three opponents
    assert line(old, "B").tiebreaks == (6,)  # one opponent
    assert line(new, "A").tiebreaks == pytest.approx((13 / 3,))
    assert line(new, "B").tiebreaks == (6,)
    # A and B tie on 5 points: B's opponent did better on average; summed, A was ahead
    assert order(new).index("B") < order(new).index("A")
    assert order(old).index("A") < order(old).index("B")


def test_buchholz_is_the_mean_over_games_of_the_opponents_mean():
    # A: a game at a table of 4 and one at a table of 2; E: two games at tables of 2.
    results = [game("ABCD", (1, 2, 3, 4)), game("AE", (1, 2)), game("BE", (1, 2))]
    placement = {2: (5, 1), 4: (5, 3, 2, 1)}
    table = standings("ABCDE", results, placement=placement, tiebreaks=["buchholz"])
    # points: A 10, B 8, C 2, D 1, E 2
    assert line(table, "A").tiebreaks[0] == pytest.approx(((8 + 2 + 1) / 3 + 2) / 2)
    assert line(table, "E").tiebreaks[0] == pytest.approx((10 + 8) / 2)


def test_median_buchholz_drops_the_best_and_worst_game_from_three_games_on():
    table = standings("ABCD", FIVE_GAMES, tiebreaks=["median_buchholz"])
    values = {entry.player: entry.tiebreaks[0] for entry in table}
    assert values["A"] == 1  # opponents 1, 0, 1: the middle game
    assert values["C"] == 1  # opponents 3, 1, 1
    assert values["B"] == pytest.approx(1.5)  # two games: their mean
