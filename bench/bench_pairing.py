"""Tournament maths at scale, no Django: one Swiss round of 1,000 players, and the standings of
a 1,000-player, 9-round event.

Synthetic, seeded events: every player has a hidden strength (normal, sd 10 points of game
score); a game score is 50 + strength + normal noise (sd 10), rounded, and a table is ranked by
score (equal scores tie, standard ranks 1, 1, 3). Points by placement are the defaults.
  (a) Pairing: the rounds before are paired by league.pairing.swiss_round and played out; the
      next round is then paired from the same state, repeated, at tables of 4, 3 and 2.
      Floor: sorting the players by points, the one step no Swiss pairing can skip.
  (b) Standings: the whole event (paired the same way, tables of 4) through
      league.standings.standings with every tie-break. Floor: adding up each player's
      placement points and sorting by them, the least any standings table does.
  (c) Pairing quality on small events (rounds 2 to 6 of --small-events events per size): the
      score difference at the tables (the sum over each table's pairs of the difference in
      points) against the least possible with as few repeats (and at tables of 3 and 4 the same
      short-table rotation): a min-cost perfect matching by dynamic programming at tables of 2
      (12 to 16 players), a brute force over every seating at tables of 3 and 4 (6 to 10
      players). Each size as swiss_round runs it (exhaustive up to 12 players, swaps above),
      and with the swaps only, as every round of more than 12 players is seated (forced here by
      setting its exhaustive limit to 0). The gap is total difference / optimal total - 1.
  (d) Rounds of 13 to 24 players at tables of 3 and 4 (issue 38; rounds 2 to 6 of
      --small-events events per size): the score difference of the search as run (the swaps,
      then the large-neighbourhood search with its budget of 50 re-seatings), of the swaps
      alone (before issue 38), and of a long search (the same with 10 times the budget) as the
      reference, with repeats and short-table rotation compared first; and ms per round.
Times are ms per call, best / median of the repeats; ratios are of the best times.

    .venv/bin/python bench/bench_pairing.py [--players 1000] [--before 4] [--rounds 9]
                                            [--repeats 5] [--seed 5] [--small-events 4]
"""

from __future__ import annotations

import argparse
import functools
import itertools
import math
import random
import statistics
import time
from collections import Counter

import _common

import league.pairing as pairing_module
from league.pairing import repeats, swiss_round
from league.standings import DEFAULT_PLACEMENT_POINTS, GameResult, placement_points, standings

STRENGTH_SD = 10.0
NOISE_SD = 10.0
FLOOR_REPEATS = 50  # the floors take microseconds; more repeats steady them


def play(table: list[int], strengths: list[float], rng: random.Random) -> GameResult:
    scores = tuple(round(50 + strengths[p] + rng.gauss(0.0, NOISE_SD)) for p in table)
    ranks = tuple(1 + sum(other > mine for other in scores) for mine in scores)
    return GameResult(players=tuple(table), ranks=ranks, scores=scores)


class Event:
    """A Swiss event in progress: what the next pairing needs, and every game so far."""

    def __init__(self, players: int, table_size: int, seed: int):
        self.rng = random.Random(seed)
        self.strengths = [self.rng.gauss(0.0, STRENGTH_SD) for _ in range(players)]
        self.players = list(range(players))
        self.table_size = table_size
        self.points = dict.fromkeys(self.players, 0.0)
        self.byes_had: dict[int, int] = {}
        self.first_seats: dict[int, int] = {}
        self.past: list[list[int]] = []
        self.results: list[GameResult] = []
        self.byes: list[int] = []

    def pair(self):
        return swiss_round(
            self.players,
            self.points,
            self.past,
            self.table_size,
            byes_had=self.byes_had,
            first_seats=self.first_seats,
            rng=random.Random(len(self.past)),
        )

    def play_round(self) -> None:
        pairing = self.pair()
        for player in pairing.byes:
            self.byes_had[player] = self.byes_had.get(player, 0) + 1
            self.byes.append(player)
        for table in pairing.tables:
            self.first_seats[table[0]] = self.first_seats.get(table[0], 0) + 1
            result = play(table, self.strengths, self.rng)
            earned = placement_points(result.ranks, DEFAULT_PLACEMENT_POINTS[len(table)])
            for player, points in zip(table, earned):
                self.points[player] += points
            self.results.append(result)
        self.past += pairing.tables


def timed(call, repeats: int) -> tuple[float, float]:
    """Best and median ms per call."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append((time.perf_counter() - start) * 1000)
    return min(times), statistics.median(times)


def points_floor(results: list[GameResult], players: list[int]) -> list[int]:
    totals = dict.fromkeys(players, 0.0)
    for result in results:
        for player, points in zip(
            result.players,
            placement_points(result.ranks, DEFAULT_PLACEMENT_POINTS[len(result.players)]),
        ):
            totals[player] += points
    return sorted(players, key=totals.__getitem__, reverse=True)


def _round_cost(tables, event: Event) -> tuple:
    """(repeated pairs, times they met, short-table history, score difference) of a round."""
    met = Counter(
        frozenset(pair) for table in event.past for pair in itertools.combinations(table, 2)
    )
    short = Counter(p for table in event.past if len(table) < event.table_size for p in table)
    cost = [0, 0, 0, 0.0]
    for table in tables:
        for a, b in itertools.combinations(table, 2):
            cost[0] += met[frozenset((a, b))] > 0
            cost[1] += met[frozenset((a, b))]
            cost[3] += abs(event.points[a] - event.points[b])
        if len(table) < event.table_size:
            cost[2] += sum(short[p] for p in table)
    return tuple(cost)


def _optimum(seated: list[int], sizes: list[int], event: Event) -> tuple:
    """The least ``_round_cost`` over every seating of ``seated`` at tables of ``sizes``: the
    first player still standing takes each possible table, memoised on who is left."""

    @functools.cache
    def best(left: frozenset, sizes_left: tuple) -> tuple:
        if not left:
            return (0, 0, 0, 0.0)
        first = min(left)
        rest = sorted(left - {first})
        found: tuple = (math.inf,) * 4
        for size in set(sizes_left):
            others = list(sizes_left)
            others.remove(size)
            for mates in itertools.combinations(rest, size - 1):
                here = _round_cost([(first, *mates)], event)
                below = best(left - {first, *mates}, tuple(sorted(others)))
                found = min(found, tuple(a + b for a, b in zip(here, below)))
        return found

    return best(frozenset(seated), tuple(sorted(sizes)))


def quality(table_size: int, counts: range, events: int, exact: bool) -> tuple[float, int, int]:
    """(gap, rounds with more repeats or worse rotation than the optimum, rounds compared)."""
    limit = pairing_module._EXACT_SEATINGS
    pairing_module._EXACT_SEATINGS = limit if exact else 0
    ours = optimal = 0.0
    worse = compared = 0
    try:
        for count in counts:
            for seed in range(events):
                event = Event(count, table_size, seed)
                event.play_round()
                for _ in range(5):
                    pairing = event.pair()
                    seated = [p for table in pairing.tables for p in table]
                    mine = _round_cost(pairing.tables, event)
                    best = _optimum(seated, [len(t) for t in pairing.tables], event)
                    worse += mine[:3] != best[:3]
                    ours += mine[3]
                    optimal += best[3]
                    compared += 1
                    event.play_round()
    finally:
        pairing_module._EXACT_SEATINGS = limit
    return ours / optimal - 1, worse, compared


def large_rounds(table_size: int, events: int) -> dict[str, list]:
    """Per way of searching: (cost, ms) of each round of 13 to 24 players, the same rounds."""
    ways = {"swaps alone": (0, 0), "as run": (None, None), "long search": (None, 10)}
    tables_limit, budget = pairing_module._LOCAL_TABLES, pairing_module._LOCAL_BUDGET
    found: dict[str, list] = {way: [] for way in ways}
    try:
        for count in range(13, 25):
            for seed in range(events):
                event = Event(count, table_size, seed)
                event.play_round()
                for _ in range(5):
                    for way, (limit, times) in ways.items():
                        pairing_module._LOCAL_TABLES = tables_limit if limit is None else limit
                        pairing_module._LOCAL_BUDGET = budget * (times or 1)
                        start = time.perf_counter()
                        pairing = event.pair()
                        ms = (time.perf_counter() - start) * 1000
                        found[way].append((_round_cost(pairing.tables, event), ms))
                    pairing_module._LOCAL_TABLES, pairing_module._LOCAL_BUDGET = (
                        tables_limit,
                        budget,
                    )
                    event.play_round()
    finally:
        pairing_module._LOCAL_TABLES, pairing_module._LOCAL_BUDGET = tables_limit, budget
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument(
        "--before", type=int, default=4, help="rounds played before the timed pairing (default 4)"
    )
    parser.add_argument(
        "--rounds", type=int, default=9, help="rounds of the standings event (default 9)"
    )
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument(
        "--small-events", type=int, default=4, help="events per size in (c) (default 4)"
    )
    parser.add_argument("--large-only", action="store_true", help="only (d)")
    args = parser.parse_args()

    _common.header("Tournaments: Swiss pairing and standings, no Django")
    if not args.large_only:
        small_and_large(args)
    large_rounds_report(args)


def small_and_large(args) -> None:
    print(
        f"{args.players:,} players (seed {args.seed}); {args.repeats} repeats, best / median"
        f" ms; floors best of {FLOOR_REPEATS}"
    )

    print(f"(a) pairing round {args.before + 1} after {args.before} played:")
    print(
        f"{'tables of':<10} {'ms best':>8} {'median':>8} {'repeats':>8} {'byes':>5}"
        f" {'sort ms':>8} {'ratio':>7}"
    )
    for table_size in (4, 3, 2):
        event = Event(args.players, table_size, args.seed)
        for _ in range(args.before):
            event.play_round()
        best, median = timed(event.pair, args.repeats)
        pairing = event.pair()
        sort_best, _ = timed(
            lambda e=event: sorted(e.players, key=e.points.__getitem__, reverse=True), FLOOR_REPEATS
        )
        print(
            f"{table_size:<10} {best:>8.1f} {median:>8.1f}"
            f" {repeats(pairing.tables, event.past):>8} {len(pairing.byes):>5}"
            f" {sort_best:>8.3f} {best / sort_best:>6.0f}x"
        )

    event = Event(args.players, 4, args.seed)
    start = time.perf_counter()
    for _ in range(args.rounds):
        event.play_round()
    made = time.perf_counter() - start
    print(
        f"(b) standings of {args.rounds} rounds at tables of 4: {len(event.results):,} games,"
        f" {len(event.byes)} byes (event paired and played in {made:.2f} s)"
    )
    best, median = timed(
        lambda: standings(event.players, event.results, byes=event.byes), args.repeats
    )
    floor_best, _ = timed(lambda: points_floor(event.results, event.players), FLOOR_REPEATS)
    table = standings(event.players, event.results, byes=event.byes)
    totals = len({entry.points for entry in table})
    still = sum(
        (a.points, a.tiebreaks) == (b.points, b.tiebreaks) for a, b in zip(table, table[1:])
    )
    print(f"{'standings':<22} {'ms best':>8} {'median':>8}")
    print(f"{'all five tie-breaks':<22} {best:>8.1f} {median:>8.1f}")
    print(f"{'points and sort (floor)':<22} {floor_best:>8.1f}")
    print(f"ratio: standings take {best / floor_best:.1f}x the floor")
    print(
        f"{totals} different point totals among {len(table):,} players; {still} neighbouring"
        f" pairs still tied after every tie-break"
    )

    print("(c) score difference against the optimum with repeats equal, rounds 2-6:")
    print(f"{'tables of':<10} {'players':>8} {'path':>12} {'gap':>7} {'worse repeats':>14}")
    for table_size, counts in ((2, range(12, 17)), (3, range(6, 11)), (4, range(6, 11))):
        for exact in (True, False):
            gap, worse, compared = quality(table_size, counts, args.small_events, exact)
            print(
                f"{table_size:<10} {f'{counts.start}-{counts.stop - 1}':>8}"
                f" {'as run' if exact else 'swaps only':>12} {gap:>6.1%}"
                f" {f'{worse} of {compared}':>14}"
            )


def large_rounds_report(args) -> None:
    print("(d) rounds of 13-24 players, rounds 2-6: against a long search (10x the budget)")
    print(
        f"{'tables of':<10} {'search':>12} {'gap':>7} {'worse first keys':>17} {'ms/round':>9}"
        f" {'max ms':>7}"
    )
    for table_size in (3, 4):
        found = large_rounds(table_size, args.small_events)
        reference = found["long search"]
        for way in ("swaps alone", "as run", "long search"):
            rounds = found[way]
            total = sum(cost[3] for cost, _ in rounds)
            best = sum(cost[3] for cost, _ in reference)
            worse = sum(cost[:3] > ref[:3] for (cost, _), (ref, _) in zip(rounds, reference))
            times = [ms for _, ms in rounds]
            print(
                f"{table_size:<10} {way:>12} {total / best - 1:>6.1%}"
                f" {f'{worse} of {len(rounds)}':>17} {statistics.mean(times):>9.1f}"
                f" {max(times):>7.1f}"
            )


if __name__ == "__main__":
    main()
