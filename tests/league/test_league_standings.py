"""league/standings.py's league table: placement points on the tournament scale with shared
ties, wins, average place and a league-internal Elo, worked by hand. Pure: no database."""

from __future__ import annotations

import pytest

from league.ratings import EloLadder
from league.standings import GameResult, league_standings, table_points


def game(players: str, ranks) -> GameResult:
    return GameResult(players=tuple(players), ranks=tuple(ranks), scores=(None,) * len(players))


def by_player(table):
    return {line.player: line for line in table}


def test_the_tournament_scale_at_two_three_and_four_players():
    table = by_player(
        league_standings([game("ab", [1, 2]), game("abc", [1, 2, 3]), game("abcd", [1, 2, 3, 4])])
    )
    assert table["a"].points == 1 + 5 + 5
    assert table["b"].points == 0 + 3 + 3
    assert table["c"].points == 1 + 2
    assert table["d"].points == 1


def test_tied_players_share_the_average_of_their_places_points():
    table = by_player(league_standings([game("abcd", [1, 1, 3, 4])]))
    assert table["a"].points == table["b"].points == (5 + 3) / 2
    assert table["c"].points == 2 and table["d"].points == 1
    assert table["a"].wins == table["b"].wins == 1 and table["c"].wins == 0
    assert table["a"].average_place == 1 and table["c"].average_place == 3


def test_a_crew_larger_than_the_scale_scores_nothing_below_fourth():
    assert table_points(6, {2: (1, 0), 4: (5, 3, 2, 1)}) == (5, 3, 2, 1, 0, 0)
    table = by_player(league_standings([game("abcde", [1, 2, 3, 4, 5])]))
    assert [table[p].points for p in "abcde"] == [5, 3, 2, 1, 0]


def test_games_wins_and_average_place_over_several_games():
    table = by_player(league_standings([game("ab", [1, 2]), game("abc", [3, 1, 2])]))
    assert (table["a"].games, table["a"].wins, table["a"].average_place) == (2, 1, 2.0)
    assert (table["c"].games, table["c"].wins, table["c"].average_place) == (1, 0, 2.0)


def test_the_order_is_points_then_wins_then_average_place():
    # a and b both have 5 points; a has the win.
    results = [game("abc", [1, 2, 3]), game("bd", [1, 2]), game("bd", [1, 2])]
    assert [s.player for s in league_standings(results)][:2] == ["b", "a"]
    # c and d: 3 points each, no win; c's average place (2) is better than d's (3.5).
    results = [game("dwxy", [3, 1, 2, 4]), game("wcxy", [1, 2, 3, 4]), game("wxyd", [1, 2, 3, 4])]
    order = [s.player for s in league_standings(results, counted={"c", "d"})]
    assert order == ["c", "d"]
    assert [s.points for s in league_standings(results, counted={"c", "d"})] == [3, 3]


def test_elo_is_the_league_ladder_over_these_games_in_order():
    results = [game("ab", [1, 2]), game("abc", [2, 1, 3]), game("bc", [1, 1])]
    ladder = EloLadder()
    for result in results:
        ladder.rate(result.players, result.ranks)
    table = by_player(league_standings(results))
    for player in "abc":
        assert table[player].elo == pytest.approx(ladder.rating(player))
    assert table["a"].elo != 1500


def test_guests_take_their_places_but_are_neither_listed_nor_rated():
    table = by_player(league_standings([game("gab", [1, 2, 3])], counted={"a", "b"}))
    assert set(table) == {"a", "b"}
    assert table["a"].points == 3 and table["a"].wins == 0 and table["a"].average_place == 2
    # Elo compares the members only: a beat b.
    assert table["a"].elo == pytest.approx(1516) and table["b"].elo == pytest.approx(1484)


def test_a_game_with_one_member_moves_no_elo():
    table = by_player(league_standings([game("ga", [2, 1])], counted={"a"}))
    assert table["a"].points == 1 and table["a"].elo == 1500


def test_no_games_no_lines():
    assert league_standings([]) == []
