"""league/pairing.py: table sizes against a brute force, Swiss properties over many seeded random
tournaments (each small round's repeat count against an exhaustive search over every way to seat
it), round robins, elimination and seat order. Pure: no database, no Django."""

from __future__ import annotations

import functools
import itertools
import math
import random
from collections import Counter

import pytest

import league.pairing as pairing_module
from league.pairing import (
    Pairing,
    elimination_field,
    elimination_first_round,
    repeats,
    round_robin,
    round_robin_round,
    seat_order,
    swiss_first_round,
    swiss_round,
    table_sizes,
)

POINTS = {2: (1, 0), 3: (5, 3, 1), 4: (5, 3, 2, 1)}
BYE_POINTS = 3


def meetings(past_tables) -> Counter:
    return Counter(
        frozenset(pair) for table in past_tables for pair in itertools.combinations(table, 2)
    )


def repeat_cost(tables, past_tables, met: Counter | None = None) -> tuple[int, int]:
    """(repeated pairs, the times those pairs met before): what a round minimises, in order."""
    met = meetings(past_tables) if met is None else met
    pairs = [frozenset(pair) for table in tables for pair in itertools.combinations(table, 2)]
    return sum(met[pair] > 0 for pair in pairs), sum(met[pair] for pair in pairs)


def fewest_repeats(players, sizes, past_tables) -> tuple[int, int]:
    """The least ``repeat_cost`` over every way to seat ``players`` at tables of ``sizes``: the
    first player's table is tried at every size with every choice of companions."""
    met = meetings(past_tables)

    def best(rest, sizes_left):
        if not rest:
            return (0, 0)
        first, others = rest[0], rest[1:]
        found = (math.inf, math.inf)
        for size in set(sizes_left):
            left = list(sizes_left)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                here = repeat_cost([(first, *mates)], past_tables, met)
                below = best([p for p in others if p not in mates], left)
                found = min(found, (here[0] + below[0], here[1] + below[1]))
        return found

    return best(list(players), list(sizes))


def play_swiss(count: int, table_size: int, rounds: int, seed: int, check) -> None:
    """A Swiss event with random finishing orders; ``check(pairing, state)`` sees every round
    before its results are in."""
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(count)]
    state = {
        "points": dict.fromkeys(players, 0),
        "byes_had": Counter(),
        "first_seats": Counter(),
        "past": [],
    }
    for _ in range(rounds):
        pairing = swiss_round(
            players,
            state["points"],
            state["past"],
            table_size,
            byes_had=state["byes_had"],
            first_seats=state["first_seats"],
            rng=rng,
        )
        check(pairing, state)
        for player in pairing.byes:
            state["byes_had"][player] += 1
            state["points"][player] += BYE_POINTS
        for table in pairing.tables:
            state["first_seats"][table[0]] += 1
            finish = rng.sample(table, len(table))
            for player, points in zip(finish, POINTS[len(table)]):
                state["points"][player] += points
        state["past"] += pairing.tables


def check_round_shape(pairing: Pairing, state, table_size: int) -> None:
    everyone = [p for table in pairing.tables for p in table] + pairing.byes
    assert sorted(everyone) == sorted(state["points"])  # nobody twice, nobody missing
    sizes, byes = table_sizes(len(everyone), table_size)
    assert sorted(map(len, pairing.tables)) == sorted(sizes)
    assert len(pairing.byes) == byes
    byes_had, points = state["byes_had"], state["points"]
    seated = [p for table in pairing.tables for p in table]
    for out in pairing.byes:
        for inside in seated:
            # fewest byes first; among those, the lowest standing
            assert byes_had[out] <= byes_had[inside]
            if byes_had[out] == byes_had[inside]:
                assert points[out] <= points[inside]
    for table in pairing.tables:
        assert state["first_seats"][table[0]] == min(state["first_seats"][p] for p in table)


# -- table sizes ------------------------------------------------------------------------------


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_table_sizes_against_a_brute_force(table_size):
    smaller = table_size - 1 if table_size > 2 else None
    for players in range(0, 51):
        sizes, byes = table_sizes(players, table_size)
        assert sum(sizes) + byes == players
        assert set(sizes) <= {table_size, smaller}
        assert all(size >= 2 for size in sizes)
        assert sizes == sorted(sizes, reverse=True)
        mixes = [
            (full, small)
            for full in range(players // table_size + 1)
            for small in (range(players // smaller + 1) if smaller else [0])
            if full * table_size + small * (smaller or 0) <= players
        ]
        fewest = min(players - full * table_size - small * (smaller or 0) for full, small in mixes)
        assert byes == fewest
        most_full = max(
            full
            for full, small in mixes
            if players - full * table_size - small * (smaller or 0) == fewest
        )
        assert sizes.count(table_size) == most_full


def test_table_sizes_examples():
    assert table_sizes(0, 4) == ([], 0)
    assert table_sizes(9, 2) == ([2, 2, 2, 2], 1)
    assert table_sizes(7, 3) == ([3, 2, 2], 0)
    assert table_sizes(5, 4) == ([4], 1)  # a 3 and 2 byes would leave more out
    assert table_sizes(6, 4) == ([3, 3], 0)
    assert table_sizes(10, 4) == ([4, 3, 3], 0)
    assert table_sizes(2, 4) == ([], 2)  # never below table_size - 1


@pytest.mark.parametrize("players, table_size", [(8, 1), (8, 5), (-1, 4)])
def test_table_sizes_rejects(players, table_size):
    with pytest.raises(ValueError):
        table_sizes(players, table_size)


# -- repeats and seat order -------------------------------------------------------------------


def test_repeats_counts_each_pair_once_per_table():
    past = [["a", "b", "c"], ["a", "b"], ["d", "e"]]
    assert repeats([["a", "b", "d"], ["c", "e"]], past) == 1  # a-b, however often they met
    assert repeats([["a", "b", "c", "d"]], past) == 3  # a-b, a-c, b-c
    assert repeats([["a", "d"], ["b", "e"]], past) == 0
    assert repeats([["a", "b"], ["b", "a"]], past) == 2  # two tables, two repeats


def test_seat_order_least_first_seated_first_and_stable():
    assert seat_order(["a", "b", "c", "d"], {"a": 2, "b": 1, "c": 0, "d": 1}) == [
        "c",
        "b",
        "d",
        "a",
    ]
    assert seat_order(["x", "y", "z"], {}) == ["x", "y", "z"]
    assert seat_order(["x", "y", "z"], {"x": 1}) == ["y", "z", "x"]


# -- Swiss ------------------------------------------------------------------------------------


def test_swiss_first_round_takes_standing_groups_in_order():
    players = [f"p{i}" for i in range(8)]
    points = {p: 10 - i for i, p in enumerate(players)}
    pairing = swiss_round(players[::-1], points, [], 4)  # the given order loses to points
    assert pairing.tables == [players[:4], players[4:]]
    assert pairing.byes == []


def test_swiss_steps_round_a_repeat_with_the_nearest_player():
    points = {"a": 4, "b": 3, "c": 2, "d": 1}
    pairing = swiss_round(list(points), points, [["a", "b"]], 2)
    assert pairing.tables == [["a", "c"], ["b", "d"]]


def test_swiss_prefers_second_meetings_to_third_ones():
    # Everyone has met; a and b twice. Any pairing repeats two pairs, so the one keeping a and b
    # apart wins, although a-b is the pairing by standing.
    past = [["a", "b"], ["a", "b"], ["c", "d"], ["a", "c"], ["b", "d"], ["a", "d"], ["b", "c"]]
    points = {"a": 4, "b": 3, "c": 2, "d": 1}
    assert swiss_round(list(points), points, past, 2).tables == [["a", "c"], ["b", "d"]]


def test_swiss_bye_goes_to_the_lowest_standing_without_one():
    points = {"a": 5, "b": 4, "c": 3, "d": 2, "e": 1}
    assert swiss_round(list(points), points, [], 2).byes == ["e"]
    assert swiss_round(list(points), points, [], 2, byes_had={"e": 1}).byes == ["d"]
    assert swiss_round(list(points), points, [], 2, byes_had=dict.fromkeys("bcde", 1)).byes == ["a"]


def test_swiss_seats_by_first_seats():
    points = {"a": 2, "b": 1}
    assert swiss_round(["a", "b"], points, [], 2, first_seats={"a": 1}).tables == [["b", "a"]]


def test_swiss_is_deterministic_and_rng_only_shuffles_equal_points():
    players = [f"p{i}" for i in range(12)]
    points = {p: (3 if i < 4 else 0) for i, p in enumerate(players)}
    same = [swiss_round(players, points, [], 4, rng=random.Random(9)) for _ in range(2)]
    assert same[0] == same[1]
    for seed in range(10):
        top = swiss_round(players, points, [], 4, rng=random.Random(seed)).tables[0]
        assert sorted(top) == sorted(players[:4])
    assert swiss_round(players, points, [], 4).tables[1] == players[4:8]


def test_swiss_rejects_a_player_listed_twice():
    with pytest.raises(ValueError):
        swiss_round(["a", "b", "a"], {}, [], 2)


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_swiss_small_events_reach_the_fewest_repeats(table_size):
    """Every round of many random events of 2 to 8 players against the exhaustive optimum."""
    rounds_checked = 0

    def check(pairing, state):
        nonlocal rounds_checked
        check_round_shape(pairing, state, table_size)
        seated = [p for table in pairing.tables for p in table]
        best = fewest_repeats(seated, [len(t) for t in pairing.tables], state["past"])
        assert repeat_cost(pairing.tables, state["past"]) == best
        assert repeats(pairing.tables, state["past"]) == best[0]
        rounds_checked += 1

    rng = random.Random(table_size)
    for count in range(2, 9):
        for _ in range(6):
            play_swiss(count, table_size, rng.randint(5, 9), rng.randrange(10**6), check)
    assert rounds_checked > 200


def test_swiss_larger_events_keep_the_shape():
    rng = random.Random(2024)
    for _ in range(30):
        table_size = rng.randint(2, 4)
        play_swiss(
            rng.randint(9, 40),
            table_size,
            rng.randint(5, 9),
            rng.randrange(10**6),
            lambda pairing, state, size=table_size: check_round_shape(pairing, state, size),
        )


def test_swiss_byes_are_fair_over_an_event():
    # 7 players at tables of 2: a bye a round, and nobody sits out twice in the first 7 rounds
    outs = []
    play_swiss(7, 2, 7, 5, lambda pairing, state: outs.extend(pairing.byes))
    assert sorted(outs) == sorted(f"p{i}" for i in range(7))


@pytest.mark.parametrize("table_size", [2, 4])
def test_swiss_round_two_of_sixteen_has_no_repeat(table_size):
    # After one round a repeat-free second round exists: at tables of 2 any 14 of the 15 others
    # qualify; at tables of 4 take one player from each of the four first-round tables.
    for seed in range(20):

        def check(pairing, state):
            assert repeats(pairing.tables, state["past"]) == 0

        play_swiss(16, table_size, 2, seed, check)


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_swiss_two_hundred_players_never_repeat(table_size):
    # A table is a set of players no two of whom have met. By the Hajnal-Szemeredi theorem a
    # graph of maximum degree D splits into any k >= D + 1 independent sets of equal size (give
    # or take one), so while everyone has met fewer than 200 / 4 = 50 players (6 rounds at tables
    # of 4 meet at most 18) a repeat-free round exists; the search has to find it.
    def check(pairing, state):
        assert repeats(pairing.tables, state["past"]) == 0

    play_swiss(200, table_size, 6, 77, check)


# -- round robin ------------------------------------------------------------------------------


@pytest.mark.parametrize("count", range(2, 14))
def test_circle_method_meets_everyone_exactly_once(count):
    players = [f"p{i}" for i in range(count)]
    schedule = round_robin(players, 2)
    assert len(schedule) == (count - 1 if count % 2 == 0 else count)
    meetings = Counter()
    for pairing in schedule:
        assert sorted([p for t in pairing.tables for p in t] + pairing.byes) == sorted(players)
        assert len(pairing.byes) == count % 2
        for table in pairing.tables:
            meetings[frozenset(table)] += 1
    assert set(meetings) == {frozenset(pair) for pair in itertools.combinations(players, 2)}
    assert set(meetings.values()) == {1}
    byes = Counter(p for pairing in schedule for p in pairing.byes)
    assert all(byes[p] == count % 2 for p in players)
    first = Counter(table[0] for pairing in schedule for table in pairing.tables)
    assert max(first[p] for p in players) - min(first[p] for p in players) <= 1


def test_circle_method_rounds_cut_or_repeat_the_cycle():
    players = list("abcd")
    full = round_robin(players, 2)
    assert round_robin(players, 2, rounds=2) == full[:2]
    double = round_robin(players, 2, rounds=6)
    assert [sorted(map(sorted, p.tables)) for p in double[3:]] == [
        sorted(map(sorted, p.tables)) for p in full
    ]
    assert round_robin(["solo"], 2) == []


@pytest.mark.parametrize("table_size", [3, 4])
@pytest.mark.parametrize("count", range(3, 10))
def test_round_robin_rounds_reach_the_fewest_repeats(count, table_size):
    players = [f"p{i}" for i in range(count)]
    schedule = round_robin(players, table_size)
    assert len(schedule) == math.ceil((count - 1) / (table_size - 1))
    past = []
    sizes, bye_count = table_sizes(count, table_size)
    for pairing in schedule:
        assert sorted([p for t in pairing.tables for p in t] + pairing.byes) == sorted(players)
        assert sorted(map(len, pairing.tables)) == sorted(sizes)
        seated = [p for table in pairing.tables for p in table]
        assert repeat_cost(pairing.tables, past) == fewest_repeats(seated, sizes, past)
        past += pairing.tables
    byes = Counter(p for pairing in schedule for p in pairing.byes)
    assert max(byes[p] for p in players) - min(byes[p] for p in players) <= 1


def test_round_robin_of_nine_at_tables_of_three_meets_everyone_once():
    schedule = round_robin(list(range(9)), 3)
    met = Counter(
        frozenset(pair)
        for pairing in schedule
        for table in pairing.tables
        for pair in itertools.combinations(table, 2)
    )
    assert len(schedule) == 4 and len(met) == 36 and set(met.values()) == {1}


def test_round_robin_shares_out_byes():
    schedule = round_robin(list("abcde"), 4, rounds=5)  # 5 at tables of 4: one bye a round
    assert sorted(p for pairing in schedule for p in pairing.byes) == list("abcde")


def test_round_robin_draw_with_rng_is_deterministic():
    assert round_robin(list("abcdef"), 3, rng=random.Random(3)) == round_robin(
        list("abcdef"), 3, rng=random.Random(3)
    )


@pytest.mark.parametrize("table_size", [2, 3, 4])
def test_swiss_fewest_repeats_after_random_histories(table_size):
    """Histories no Swiss would make (each pair met once or twice with a random chance, dense
    ones included) against the exhaustive optimum, at up to 10 players."""
    rng = random.Random(100 + table_size)
    for _ in range(60):
        players = list(range(rng.randint(4, 10)))
        density = rng.random()
        past = [
            list(pair)
            for pair in itertools.combinations(players, 2)
            if rng.random() < density
            for _ in range(rng.randint(1, 2))
        ]
        pairing = swiss_round(players, {}, past, table_size)
        seated = [p for table in pairing.tables for p in table]
        assert repeat_cost(pairing.tables, past) == fewest_repeats(
            seated, [len(t) for t in pairing.tables], past
        )


def test_swiss_swaps_away_what_the_search_has_no_budget_for(monkeypatch):
    # The bottom four already shared a table. With no budget to backtrack, the top-down pass
    # seats them together again; swaps with the nearest tables then split them up.
    monkeypatch.setattr(pairing_module, "_SEARCH_BUDGET", 0)
    players = [f"p{i:03}" for i in range(400)]
    points = {p: 400 - i for i, p in enumerate(players)}
    past = [players[-4:]]
    pairing = swiss_round(players, points, past, 4)
    assert repeats(pairing.tables, past) == 0
    chunks = [players[i : i + 4] for i in range(0, 400, 4)]
    assert pairing.tables[:-4] == chunks[:-4]  # the swaps stay near the bottom


def test_every_elimination_field_has_a_bracket_whose_rounds_shrink():
    """Property: for every field of 3 to 40 (and 2 at tables of 2 or 3), every table size and
    every number going through, a bracket is drawn (league/bracket.py plays it out), and each
    round leaves fewer players than the one before."""
    for table_size in (2, 3, 4):
        for advance in range(1, table_size):
            for count in range(max(2, table_size - 1), 41):
                field = elimination_field(count, table_size, advance)
                assert field[0] == count and all(b < a for a, b in zip(field, field[1:]))


def test_an_elimination_field_that_cannot_seat_a_table_is_refused():
    with pytest.raises(ValueError, match="at least 3"):
        elimination_field(2, 4, 1)
    assert elimination_field(8, 3, 2) == [8, 5, 3]


# -- seeding round 1 --------------------------------------------------------------------------


def test_swiss_round_one_pits_the_top_half_against_the_bottom_half():
    seeds = [f"s{i}" for i in range(1, 10)]
    pairing = swiss_first_round(seeds, 2)
    assert pairing.tables == [["s1", "s5"], ["s2", "s6"], ["s3", "s7"], ["s4", "s8"]]
    assert pairing.byes == ["s9"]  # the lowest seed sits out


def test_swiss_round_one_at_tables_of_three_takes_one_seed_from_each_band():
    seeds = list(range(1, 8))  # 7 players: a table of 3 and two of 2
    assert swiss_first_round(seeds, 3).tables == [[1, 4, 7], [2, 5], [3, 6]]
    twelve = swiss_first_round(list(range(1, 13)), 4).tables
    assert twelve == [[1, 4, 7, 10], [2, 5, 8, 11], [3, 6, 9, 12]]


def test_elimination_round_one_snakes_the_seeds():
    seeds = list(range(1, 9))
    assert elimination_first_round(seeds, 4).tables == [[1, 4, 5, 8], [2, 3, 6, 7]]
    assert elimination_first_round(seeds, 2).tables == [[1, 8], [2, 7], [3, 6], [4, 5]]
    nine = elimination_first_round(list(range(1, 10)), 3).tables
    assert [table[0] for table in nine] == [1, 2, 3]  # the top seeds at different tables
    five = elimination_first_round(list(range(1, 6)), 4)
    assert five.byes == [1] and five.tables == [[2, 3, 4, 5]]


# -- short tables and score groups ------------------------------------------------------------


@pytest.mark.parametrize(
    "count, table_size", [(7, 3), (10, 3), (10, 4), (11, 4), (22, 3), (23, 4), (25, 4)]
)
def test_swiss_short_tables_go_round(count, table_size):
    """Over a six-round event nobody sits at short tables more than once above their fair share,
    rounded up; the bottom of the standings no longer sits there round after round. (Fewer
    repeats come first: where most pairs have met, e.g. 5 players at tables of 3, the short
    seats follow the repeats.)"""
    for seed in range(4):
        short = Counter()

        def count_short(pairing, state, short=short):
            for table in pairing.tables:
                if len(table) < table_size:
                    short.update(table)

        play_swiss(count, table_size, 6, seed, count_short)
        fair = sum(short.values()) / count
        assert max(short.values()) <= math.ceil(fair) + 1, (short, fair)


def score_difference(tables, points) -> float:
    return sum(
        abs(points[a] - points[b]) for table in tables for a, b in itertools.combinations(table, 2)
    )


def short_cost(tables, past_tables, table_size) -> int:
    before = Counter(p for table in past_tables if len(table) < table_size for p in table)
    return sum(before[p] for table in tables if len(table) < table_size for p in table)


def best_pairs(players, past_tables, points) -> tuple[int, int, float]:
    """The least (repeated pairs, times they met, score difference) over every way to pair an
    even number of ``players``: a min-cost perfect matching by dynamic programming over the
    subsets still to pair (the first of them takes each possible partner)."""
    met = meetings(past_tables)
    players = list(players)

    @functools.cache
    def best(left: frozenset) -> tuple[int, int, float]:
        if not left:
            return (0, 0, 0.0)
        first = min(left, key=players.index)
        rest = left - {first}
        found = (math.inf, math.inf, math.inf)
        for other in rest:
            times = met[frozenset((first, other))]
            below = best(rest - {other})
            found = min(
                found,
                (
                    below[0] + (times > 0),
                    below[1] + times,
                    below[2] + abs(points[first] - points[other]),
                ),
            )
        return found

    return best(frozenset(players))


def best_tables(players, sizes, past_tables, points, table_size) -> tuple[int, int, int, float]:
    """The least (repeated pairs, times met, short-table history, score difference) over every
    way to seat ``players`` at tables of ``sizes``, by brute force."""
    met = meetings(past_tables)
    before = Counter(p for table in past_tables if len(table) < table_size for p in table)

    def cost(table):
        pairs = [frozenset(pair) for pair in itertools.combinations(table, 2)]
        short = sum(before[p] for p in table) if len(table) < table_size else 0
        return (
            sum(met[pair] > 0 for pair in pairs),
            sum(met[pair] for pair in pairs),
            short,
            sum(abs(points[a] - points[b]) for a, b in itertools.combinations(table, 2)),
        )

    def best(rest, sizes_left):
        if not rest:
            return (0, 0, 0, 0.0)
        first, others = rest[0], rest[1:]
        found = (math.inf,) * 4
        for size in set(sizes_left):
            left = list(sizes_left)
            left.remove(size)
            for mates in itertools.combinations(others, size - 1):
                here = cost((first, *mates))
                below = best([p for p in others if p not in mates], left)
                found = min(found, tuple(a + b for a, b in zip(here, below)))
        return found

    return best(list(players), list(sizes))


def gap_to_the_optimum(counts, table_size, optimum, rounds=6, seeds=range(6)) -> float:
    """Over Swiss events of ``counts`` players, every round's score difference against
    ``optimum(pairing, state)``'s, with the repeats (and at tables of 3 and 4 the short tables)
    equal to the optimum's; returns total difference / total optimal difference - 1."""
    totals = [0.0, 0.0]

    def check(pairing, state):
        best = optimum(pairing, state)
        ours = repeat_cost(pairing.tables, state["past"])
        if table_size > 2:
            ours += (short_cost(pairing.tables, state["past"], table_size),)
        assert ours == best[:-1], "repeats (and short tables) as few as can be"
        totals[0] += score_difference(pairing.tables, state["points"])
        totals[1] += best[-1]

    for count in counts:
        for seed in seeds:
            play_swiss(count, table_size, rounds, seed, check)
    return totals[0] / totals[1] - 1


def pairs_optimum(pairing, state):
    seated = [p for table in pairing.tables for p in table]
    return best_pairs(seated, state["past"], state["points"])


def test_swiss_at_tables_of_two_is_within_five_percent_of_a_min_cost_matching(monkeypatch):
    assert gap_to_the_optimum(range(4, 13), 2, pairs_optimum) < 1e-9  # searched exhaustively
    monkeypatch.setattr(pairing_module, "_EXACT_SEATINGS", 0)  # the large-round path
    assert gap_to_the_optimum([12, 13, 14, 16], 2, pairs_optimum, seeds=range(3)) <= 0.05


@pytest.mark.parametrize("table_size", [3, 4])
def test_swiss_at_tables_of_three_and_four_is_within_five_percent_of_brute_force(table_size):
    def optimum(pairing, state):
        seated = [p for table in pairing.tables for p in table]
        sizes = [len(table) for table in pairing.tables]
        return best_tables(seated, sizes, state["past"], state["points"], table_size)

    assert gap_to_the_optimum(range(table_size, 11), table_size, optimum, seeds=range(3)) <= 0.05


@pytest.mark.parametrize("table_size, players", [(2, 10), (3, 9), (4, 8), (4, 12)])
def test_seat_order_balances_every_seat_position_over_many_rounds(table_size, players):
    """Over 24 rounds of tables drawn at random, each player takes every seat position about
    equally often: the counts of a player's positions differ by at most 2 (seating by first
    seats alone leaves 4 to 8 between the most and least taken position)."""
    for seed in range(5):
        rng = random.Random(seed)
        everyone = list(range(players))
        past: list[list[int]] = []
        for _ in range(24):
            rng.shuffle(everyone)
            for at in range(0, players, table_size):
                table = everyone[at : at + table_size]
                seated = pairing_module.seat_order(table, pairing_module.seat_counts(past))
                assert sorted(seated) == sorted(table)
                past.append(seated)
        counts = pairing_module.seat_counts(past)
        for player in everyone:
            line = counts[player][:table_size]
            assert sum(line) == 24
            assert max(line) - min(line) <= 2, (seed, player, line)


def test_seat_order_with_the_same_table_every_round_is_a_latin_square():
    past: list[list[str]] = []
    for _ in range(8):
        past.append(pairing_module.seat_order(list("abcd"), pairing_module.seat_counts(past)))
    counts = pairing_module.seat_counts(past)
    assert all(counts[p] == [2, 2, 2, 2] for p in "abcd")


def test_round_one_keeps_club_mates_apart_by_swapping_within_a_band():
    seeds = ["a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4"]
    clubs = [["a1", "a2", "a3", "a4"], ["b1", "b2", "b3", "b4"]]
    plain = swiss_first_round(seeds, 2)
    assert pairing_module.repeats(plain.tables, clubs) == 4  # top half against bottom half
    kept_apart = swiss_first_round(seeds, 2, avoid=clubs)
    assert pairing_module.repeats(kept_apart.tables, clubs) == 0
    top = set(seeds[:4])
    assert all(len(top & set(table)) == 1 for table in kept_apart.tables)  # bands still hold


def test_a_swiss_round_keeps_club_mates_apart_as_it_avoids_repeats():
    players = ["a1", "a2", "b1", "b2"]
    points = {"a1": 1, "a2": 1, "b1": 0, "b2": 0}
    clubs = [["a1", "a2"], ["b1", "b2"]]
    assert swiss_round(players, points, [], 2).tables == [["a1", "a2"], ["b1", "b2"]]
    apart = swiss_round(players, points, [], 2, avoid=clubs)
    assert pairing_module.repeats(apart.tables, clubs) == 0
    # a1 met b1 and a2 met b2: neither a repeat nor a club mate is needed
    met = [["a1", "b1"], ["a2", "b2"]]
    both = swiss_round(players, points, met, 2, avoid=clubs)
    assert sorted(map(sorted, both.tables)) == [["a1", "b2"], ["a2", "b1"]]


# -- round robin after a drop (issue 38) --------------------------------------------------------


def test_round_robin_round_fills_the_tables_for_the_field_that_is_left():
    """Seven at tables of 3 play a table of 3 and two of 2; after one drops, six fit two tables
    of 3 with no bye, meeting as few of round 1's opponents as can be."""
    played = [["a", "b", "g"], ["c", "d"], ["e", "f"]]
    left = list("abcdef")  # g dropped
    planned = round_robin_round(left, 3, played)
    assert sorted(len(t) for t in planned.tables) == [3, 3] and planned.byes == []
    assert repeats(planned.tables, played) == 0


def test_round_robin_round_gives_byes_only_where_the_numbers_force_them():
    played = [["a", "b", "c", "d"], ["e", "f", "g", "h"]]
    planned = round_robin_round(list("abcdefg"), 4, played, byes_had={"a": 1})
    assert sorted(len(t) for t in planned.tables) == [3, 4] and planned.byes == []
    five = round_robin_round(list("abcde"), 4, [], byes_had={"a": 1, "b": 1, "c": 1})
    assert [len(t) for t in five.tables] == [4] and len(five.byes) == 1
    assert five.byes[0] in "de"  # the fewest byes first


@pytest.mark.parametrize("count, table_size", [(7, 3), (8, 3), (9, 4), (10, 4), (10, 3)])
def test_round_robin_rescheduled_after_a_drop_repeats_no_more_than_the_minimum(count, table_size):
    """After round 1, one player drops: every later round seats the rest at tables as full as
    the numbers allow, and repeats only where no seating of that round avoids them."""
    players = list(range(count))
    played = round_robin(players, table_size)[0].tables
    past = [list(t) for t in played]
    left = players[1:]
    byes_had: Counter = Counter()
    for _ in range(3):
        planned = round_robin_round(left, table_size, past, byes_had=byes_had)
        sizes, bye_count = table_sizes(len(left), table_size)
        assert sorted(len(t) for t in planned.tables) == sorted(sizes)
        assert len(planned.byes) == bye_count
        seated = [p for p in left if p not in planned.byes]
        assert repeat_cost(planned.tables, past) == fewest_repeats(seated, sizes, past)
        past += planned.tables
        byes_had.update(planned.byes)


# -- large Swiss rounds at tables of 3-4 (issue 38) ----------------------------------------------


def planted_round(seed: int, count: int, table_size: int):
    """A round of ``count`` players with a seating planted in it that has no repeat and no
    mixing: its tables are taken one to three at a time as score groups (equal points), and
    two to four earlier rounds of full tables never seat two of its table mates together."""
    rng = random.Random(seed)
    sizes, byes = table_sizes(count, table_size)
    players = list(range(count - byes))
    rng.shuffle(players)
    planted, at = [], 0
    for size in sizes:
        planted.append(players[at : at + size])
        at += size
    points, value, group = {}, 10.0, 0
    while group < len(planted):
        k = rng.randint(1, 3)
        for table in planted[group : group + k]:
            points.update(dict.fromkeys(table, value))
        value -= rng.choice([1, 2, 3])
        group += k
    mates = {p: set(table) for table in planted for p in table}
    past = []
    for _ in range(rng.randint(2, 4)):
        pool = rng.sample(players, len(players))
        while len(pool) >= table_size:
            table = [pool.pop()]
            for other in list(pool):
                if len(table) < table_size and not any(other in mates[m] for m in table):
                    table.append(other)
                    pool.remove(other)
            if len(table) == table_size:
                past.append(table)
    return players, points, past


def test_large_rounds_find_a_seating_without_mixing_or_repeats_where_there_is_one():
    """Rounds of 13 to 24 players at tables of 3, each with a seating of no repeat and no score
    difference planted in it: the search finds one in 96 of these 100 (the swaps alone,
    before issue 38, in 83). Never a repeat more than the planted seating."""
    missed = []
    for seed in range(0, 200, 2):
        count = 13 + seed % 12
        players, points, past = planted_round(seed, count, 3)
        tables = swiss_round(players, points, past, 3, rng=random.Random(seed)).tables
        assert repeats(tables, past) == 0
        if any(len({points[p] for p in table}) > 1 for table in tables):
            missed.append(seed)
    assert len(missed) <= 4, missed
