"""Elimination brackets (league/bracket.py): drawn once, byes in round 1 only to the top seeds,
a fixed path, walkovers for players who drop out, and always a champion."""

from __future__ import annotations

import random

import pytest

from league.bracket import Bracket, plan, round_sizes
from league.pairing import elimination_field


def play(bracket: Bracket, played, dropped=None, *, rng=None) -> list[list[str]] | None:
    """Play the next round: each table's order is its seating (the better seed wins) or drawn
    by ``rng``; returns the round's tables, or None once the bracket is decided."""
    nxt = bracket.round_to_play(played, dropped or {})
    if nxt is None:
        return None
    tables, _ = nxt
    orders = [list(t) for t in tables]
    if rng is not None:
        for order in orders:
            rng.shuffle(order)
    played.append(orders)
    return orders


def test_five_at_tables_of_two_gives_three_byes_to_the_top_seeds():
    bracket = plan(["s1", "s2", "s3", "s4", "s5"], 2, 1)
    assert bracket.byes == ["s1", "s2", "s3"]
    assert bracket.round_to_play([]) == ([["s4", "s5"]], ["s1", "s2", "s3"])
    played: list = [[["s5", "s4"]]]  # the fifth seed wins
    assert bracket.round_to_play(played) == ([["s1", "s5"], ["s2", "s3"]], [])


def test_a_power_of_two_at_tables_of_two_is_the_seeded_bracket():
    seeds = [f"s{i}" for i in range(1, 9)]
    bracket = plan(seeds, 2, 1)
    played: list = []
    assert play(bracket, played) == [["s1", "s8"], ["s2", "s7"], ["s3", "s6"], ["s4", "s5"]]
    assert play(bracket, played) == [["s1", "s4"], ["s2", "s3"]]
    assert play(bracket, played) == [["s1", "s2"]]
    assert play(bracket, played) is None
    assert bracket.champion(played) == "s1"


@pytest.mark.parametrize("count", range(2, 40))
def test_top_seeds_meet_late_whatever_the_field(count):
    """With the better seed winning every table, seeds 1 and 2 meet only in the final and the
    top four only from the semi-finals; no player has a bye after round 1."""
    seeds = [f"s{i}" for i in range(1, count + 1)]
    bracket = plan(seeds, 2, 1)
    played: list = []
    rounds = []
    while (tables := play(bracket, played)) is not None:
        rounds.append(tables)
        _, byes = bracket.round_to_play(played[:-1])
        if len(rounds) > 1:
            assert byes == []
    assert rounds[-1] == [["s1", "s2"]]
    if count >= 4:
        assert sorted(map(sorted, rounds[-2])) == [["s1", "s4"], ["s2", "s3"]]
    assert len(bracket.byes) == 2 ** (count - 1).bit_length() - count


def test_six_at_tables_of_three_one_going_through():
    bracket = plan(["a", "b", "c", "d", "e", "f"], 3, 1)
    assert bracket.round_to_play([]) == ([["a", "d", "e"], ["b", "c", "f"]], [])
    played = [[["e", "a", "d"], ["c", "f", "b"]]]
    assert bracket.round_to_play(played) == ([["e", "c"]], [])
    played.append([["c", "e"]])
    assert bracket.round_to_play(played) is None
    assert bracket.champion(played) == "c"
    assert bracket.placings(played) == [
        (1, 1, "c"),
        (2, 2, "e"),
        (3, 4, "a"),
        (3, 4, "f"),
        (5, 6, "b"),
        (5, 6, "d"),
    ]


def test_short_tables_only_where_the_numbers_force_them():
    assert round_sizes(9, 3, 1) == [[3, 3, 3], [3]]
    assert round_sizes(8, 4, 2) == [[4, 4], [4]]
    assert round_sizes(7, 4, 1) == [[4, 3], [2]]
    assert round_sizes(5, 4, 1) == [[4], [2]]  # one bye: no table of one in round 1
    assert elimination_field(9, 3, 2) == [9, 5, 3]  # 3+2+2+2, then 3+2, then the final
    with pytest.raises(ValueError, match="cannot fill a table"):
        round_sizes(2, 4, 1)


def test_a_player_who_drops_leaves_a_walkover_and_the_knocked_out_stay_out():
    """s1 beats s8 and drops: s4/s5's winner goes through to the final by walkover, and s8
    never comes back."""
    bracket = plan([f"s{i}" for i in range(1, 9)], 2, 1)
    played: list = []
    play(bracket, played)  # s1, s2, s3, s4 win
    tables, through = bracket.round_to_play(played, {"s1": 1})
    assert tables == [["s2", "s3"]] and through == ["s4"]
    played.append([["s3", "s2"]])
    assert bracket.round_to_play(played, {"s1": 1}) == ([["s4", "s3"]], [])
    states = bracket.resolve(played, {"s1": 1})
    assert states[1][0].status == "walkover" and states[1][0].players == [None, "s4"]


def test_drops_leaving_one_player_make_them_champion():
    bracket = plan([f"s{i}" for i in range(1, 7)], 3, 1)
    played: list = []
    play(bracket, played)  # s1 and s2 win their tables
    dropped = {"s2": 1}
    assert bracket.round_to_play(played, dropped) is None
    assert bracket.champion(played, dropped) == "s1"
    assert bracket.placings(played, dropped)[0] == (1, 1, "s1")


@pytest.mark.parametrize(
    ("table_size", "advance"), [(2, 1), (3, 1), (3, 2), (4, 1), (4, 2), (4, 3)]
)
def test_random_events_with_drops_in_every_round_always_crown_one_champion(table_size, advance):
    rng = random.Random(table_size * 10 + advance)
    for _ in range(60):
        count = rng.randint(table_size + 1, 26)
        try:
            bracket = plan([f"p{i}" for i in range(count)], table_size, advance)
        except ValueError:
            continue
        played: list = []
        dropped: dict[str, int] = {}
        out: set[str] = set()
        while (nxt := bracket.round_to_play(played, dropped)) is not None:
            tables, through = nxt
            seated = [p for t in tables for p in t] + through
            assert not out & set(seated), "a knocked-out player came back"
            assert not set(dropped) & set(seated), "a dropped player was seated"
            orders = [rng.sample(t, len(t)) for t in tables]
            played.append(orders)
            out = {
                player
                for row in bracket.resolve(played, dropped)
                for table in row
                if table.status == "played"
                for player in table.order
                if player not in table.through
            }
            still = [p for p in seated if p not in out]
            for player in rng.sample(still, min(len(still) - 1, rng.randint(0, 2))):
                dropped[player] = len(played)
        champion = bracket.champion(played, dropped)
        assert champion is not None and champion not in dropped
        places = bracket.placings(played, dropped)
        assert places[0] == (1, 1, champion)
        assert sorted(p for _, _, p in places) == sorted(bracket.seeds)


def test_the_plan_survives_as_json():
    bracket = plan([f"s{i}" for i in range(1, 12)], 4, 2)
    assert Bracket.from_json(bracket.to_json()) == bracket
