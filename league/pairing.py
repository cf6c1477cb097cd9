"""Tournament pairing, pure Python (no Django): Swiss, round robin and elimination for tables of 2
to 4.

A round is a set of tables plus the players sitting out (byes). Tables hold ``table_size`` seats
and fall back to one seat fewer where the player count needs it, never to fewer than that and
never below 2; ``table_sizes`` decides how many of each and how many byes are left.

Swiss and round-robin rounds minimise repeats: a repeat is a pair of players at one table who
already shared a table in an earlier round, counted once per pair. Among rounds with equally few
repeated pairs, the one whose pairs met fewest times before is preferred, so a pair meets a third
time only where a second meeting for someone else cannot be had instead.

A Swiss round then puts the short tables (those that fell back to fewer seats) to the players
who sat at short tables least, and last keeps tables as close to score groups as it can: it
minimises the score difference, the sum over each table's pairs of the two players' difference
in points. The three are compared in that order, so neither the rotation nor the score groups
ever cost a repeat (``_Costs``). A round with at most 20,000 ways to seat its players (every round
of up to 12) is searched exhaustively for that least cost; a larger one starts from three
seatings (the repeat search below, the standings cut into tables, and the short tables filled
first), improves each by swapping two players between tables while that lowers the cost, and
keeps the cheapest.

Both formats use one repeat search. Players are indexed in standing order and tables are
filled one seat at a time from the top: each new table takes the highest unseated player, each
further seat the next one who adds the least repeat cost, highest standing first. The first
complete round found that way is the greedy one. The search then backtracks (branch and bound on
the cost) until it proves the minimum or spends its budget of candidate checks; small rounds are
searched to the end, so their cost is the true minimum. Among rounds of least cost the first
found is kept. Any repeat left on a large round that ran out of budget is traded away by
swapping two players between tables, nearest tables first. Round robins stop there.
Elimination events follow a bracket drawn once (league.bracket).

Players are any hashable ids; ``first_seats`` and ``byes_had`` map a player to a count (missing
means 0). Results are deterministic given the inputs; an optional seeded ``random.Random`` breaks
ties among equals (who is shuffled is said per function).
"""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from league import bracket

MIN_TABLE = 2
MAX_TABLE = 4

# Candidate checks the backtracking may spend once it holds a complete round. Rounds of up to
# ten players finish well inside it (so their answer is exact); a large round with a forced
# repeat stops after about a tenth of a second and falls back to swaps.
_SEARCH_BUDGET = 150_000

# A Swiss round with at most this many ways to seat its players is searched exhaustively for
# the least cost (every round of up to 12 players at tables of 2 to 4); larger ones are improved
# by swaps, at most _SWAP_PASSES times over, each table against the next _SWAP_WINDOW.
_EXACT_SEATINGS = 20_000
_SWAP_PASSES = 6
_SWAP_WINDOW = 4
_TOLERANCE = 1e-9  # score differences are sums of floats

# After the swaps, a round of up to _LOCAL_TABLES tables of 3 is searched further
# (``_local_search``): any three tables no more than _LOCAL_WINDOW apart in standing seated
# again exactly, at most _LOCAL_BUDGET times.
# A budget of work, not of time, so the same round always gets the same seating.
_LOCAL_WINDOW = 8
# Rounds of up to 8 tables of 3 (24 players); larger ones, and tables of 4 (where seating 12
# players exactly can take seconds), keep the swaps.
_LOCAL_TABLES = 8
_LOCAL_BUDGET = 50


def table_sizes(players: int, table_size: int) -> tuple[list[int], int]:
    """Tables for ``players`` at ``table_size`` seats, falling back to ``table_size - 1`` seats
    where needed (never fewer, and never below 2); the fewest players left over first, then as
    many full tables as possible. Returns (sizes, byes), full tables first. ValueError for a
    table size outside 2..4 or a negative player count."""
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE}, not {table_size}")
    if players < 0:
        raise ValueError(f"a negative number of players: {players}")
    smaller = table_size - 1
    if smaller < MIN_TABLE:
        return [table_size] * (players // table_size), players % table_size
    for byes in range(players + 1):
        seated = players - byes
        for full in range(seated // table_size, -1, -1):
            rest = seated - full * table_size
            if rest % smaller == 0:
                return [table_size] * full + [smaller] * (rest // smaller), byes
    raise AssertionError("unreachable: zero players always fit")


@dataclass(frozen=True)
class Pairing:
    """One round: each table's players in seat order, and the players sitting out."""

    tables: list[list]
    byes: list


def seat_order(table: Sequence, first_seats: Mapping) -> list:
    """The table's players in seat order, balancing every seat position across rounds.

    ``first_seats`` maps a player to how often they sat in each position before: a sequence
    (position 0 first; missing positions count 0), or a plain count of first seats only. The
    order chosen is the one whose players sat least often in the positions it gives them (the
    sum over the table), so over the rounds everyone takes each position about as often;
    among equals, the player who sat first least often sits first and the rest follow in a
    stable order (fewest first seats first, then as given).

    With the Deep Vents starting bid the bid decides who plays first ("the last bidder pays the
    bid and plays first; the others follow clockwise"), so there this order is only the clockwise
    order around the table and says nothing about who starts."""
    counts = {player: _position_counts(first_seats.get(player, 0)) for player in table}
    ordered = sorted(table, key=lambda player: counts[player][0] if counts[player] else 0)
    if len(ordered) > MAX_TABLE:
        return ordered
    best, best_cost = ordered, None
    for order in itertools.permutations(ordered):
        cost = sum(_count_at(counts[player], seat) for seat, player in enumerate(order))
        if best_cost is None or cost < best_cost:
            best, best_cost = list(order), cost
    return best


def seat_counts(past_tables: Iterable[Sequence]) -> dict[Hashable, list[int]]:
    """How often each player sat in each seat position at ``past_tables`` (for ``seat_order``)."""
    counts: dict[Hashable, list[int]] = {}
    for table in past_tables:
        for seat, player in enumerate(table):
            line = counts.setdefault(player, [0] * MAX_TABLE)
            line[seat] += 1
    return counts


def _position_counts(value) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,)
    return tuple(value)


def _count_at(counts: tuple[int, ...], seat: int) -> int:
    return counts[seat] if seat < len(counts) else 0


def repeats(tables: Iterable[Sequence], past_tables: Sequence[Sequence]) -> int:
    """How many pairs at ``tables`` already shared a table in ``past_tables`` (counted once per
    pair per table, however often the pair met before)."""
    met: dict[Hashable, set] = {}
    for table in past_tables:
        for player in table:
            met.setdefault(player, set()).update(table)
    count = 0
    for table in tables:
        for i, player in enumerate(table):
            before = met.get(player, ())
            count += sum(1 for other in table[i + 1 :] if other != player and other in before)
    return count


def swiss_round(
    players: Sequence,
    points: Mapping,
    past_tables: Sequence[Sequence],
    table_size: int,
    *,
    byes_had: Mapping = {},
    first_seats: Mapping = {},
    rng: random.Random | None = None,
    avoid: Sequence[Sequence] = (),
) -> Pairing:
    """One Swiss round. ``players`` are the players still in the event, in standing order where
    points tie (e.g. by tie-breaks); with ``rng``, players on equal points are shuffled instead.

    Standing is points, higher first. The byes ``table_sizes`` asks for go to the lowest-standing
    players among those who have had the fewest byes, so nobody gets a second bye before everyone
    has had one. The others are seated to minimise repeats against ``past_tables`` first (then
    how often the repeated pairs met); then to give the seats at short tables to those who sat
    at short tables in ``past_tables`` least; then to keep tables as close to score groups as
    possible (the least score difference; see the module docstring). Tables come top table
    first, each in ``seat_order``; byes come in standing order. A 1,000-player round takes a few
    tenths of a second (bench_pairing.py). Round 1, with no points yet, is
    ``swiss_first_round``'s. ``avoid`` lists groups of players to keep apart (club mates): two
    of a group count as having met once already, so they share a table only where keeping them
    apart would cost as much in repeats."""
    order = _standing_order(players, points, rng)
    sizes, bye_count = table_sizes(len(order), table_size)
    rank = {player: i for i, player in enumerate(order)}
    by_bye_need = sorted(order, key=lambda p: (byes_had.get(p, 0), -rank[p]))
    sitting_out = set(by_bye_need[:bye_count])
    seated = [player for player in order if player not in sitting_out]
    short_had: dict[Hashable, int] = {}
    for table in past_tables:
        if len(table) < table_size:
            for player in table:
                short_had[player] = short_had.get(player, 0) + 1
    tables = _seat_swiss(seated, sizes, [*past_tables, *avoid], points, short_had, table_size)
    return Pairing(
        tables=[seat_order(table, first_seats) for table in tables],
        byes=[player for player in order if player in sitting_out],
    )


def swiss_first_round(
    seeds: Sequence, table_size: int, *, first_seats: Mapping = {}, avoid: Sequence[Sequence] = ()
) -> Pairing:
    """Round 1 of a Swiss event from the players in seed order (best first). Byes, if
    ``table_sizes`` leaves any, go to the lowest seeds. With T tables the seeds are cut into
    bands of T and each table takes one player from every band, in order: table 1 has seeds 1,
    T + 1, 2T + 1, ...; at tables of 2 that is the top half against the bottom half (1 against
    n/2 + 1), as in the Dutch system. Full tables come first, so the last band leaves the short
    ones out. With ``avoid`` (groups of players to keep apart, e.g. club mates), two players of
    one band change tables wherever that seats fewer of a group together."""
    seeds = list(seeds)
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player appears twice")
    sizes, bye_count = table_sizes(len(seeds), table_size)
    seated = seeds[: len(seeds) - bye_count]
    tables: list[list] = [[] for _ in sizes]
    dealt = 0
    while dealt < len(seated):
        for t, size in enumerate(sizes):
            if dealt < len(seated) and len(tables[t]) < size:
                tables[t].append(seated[dealt])
                dealt += 1
    if avoid:
        index = {player: i for i, player in enumerate(seated)}
        met, _ = _met_costs(len(seated), index, avoid)
        indexed = [[index[player] for player in table] for table in tables]
        _swap_away_repeats(indexed, met, lambda a, b: a // len(sizes) == b // len(sizes))
        tables = [[seated[i] for i in sorted(table)] for table in indexed]
    return Pairing(
        tables=[seat_order(table, first_seats) for table in tables],
        byes=seeds[len(seated) :],
    )


def round_robin(
    players: Sequence,
    table_size: int,
    rounds: int | None = None,
    *,
    rng: random.Random | None = None,
) -> list[Pairing]:
    """A whole round-robin schedule; with ``rng`` the players are shuffled first (the draw).

    Tables of 2: the circle method (one player fixed, the others rotating): n - 1 rounds for even
    n, n rounds with one bye each for odd n (none for fewer than 2 players), and everyone meets
    everyone exactly once; ``rounds`` cuts the cycle short or starts it again (a double round
    robin).

    Tables of 3 or 4: ``rounds`` rounds, by default ceil((n - 1) / (table_size - 1)), the fewest
    in which every pair could have met once. Byes go round the players in turn, so no one sits
    out twice before everyone has once; each round is then seated to minimise repeats against
    the rounds before it.

    Seats follow ``seat_order``, counting first seats from the earlier rounds of the schedule."""
    order = list(players)
    if len(set(order)) != len(order):
        raise ValueError("a player appears twice")
    if rng is not None:
        rng.shuffle(order)
    if rounds is not None and rounds < 0:
        raise ValueError(f"a negative number of rounds: {rounds}")
    if table_size == 2:
        draws = _circle_rounds(order, rounds)
    else:
        table_sizes(len(order), table_size)  # rejects a bad table size before any work
        if rounds is None:
            rounds = math.ceil((len(order) - 1) / (table_size - 1)) if order else 0
        draws = _rotating_rounds(order, table_size, rounds)
    first_seats: dict[Hashable, int] = {}
    schedule = []
    for tables, byes in draws:
        seated = [seat_order(table, first_seats) for table in tables]
        for table in seated:
            first_seats[table[0]] = first_seats.get(table[0], 0) + 1
        schedule.append(Pairing(tables=seated, byes=byes))
    return schedule


def round_robin_round(
    players: Sequence,
    table_size: int,
    past_tables: Sequence[Sequence],
    *,
    byes_had: Mapping = {},
    first_seats: Mapping = {},
) -> Pairing:
    """One round of a round robin at tables of 3 or 4 planned for the field as it is now
    (after a drop or a late entry the schedule drawn at the start no longer fits): tables as
    full as ``table_sizes`` allows, so byes only where the numbers force them, going to the
    players with the fewest byes (the last in ``players``, the draw order, first); the others
    seated with the fewest repeats against ``past_tables`` (the rounds played, whoever has
    left since), as every round of ``round_robin`` is. Seats follow ``seat_order``."""
    order = list(players)
    if len(set(order)) != len(order):
        raise ValueError("a player appears twice")
    sizes, bye_count = table_sizes(len(order), table_size)
    place = {player: i for i, player in enumerate(order)}
    by_bye_need = sorted(order, key=lambda p: (byes_had.get(p, 0), -place[p]))
    out = set(by_bye_need[:bye_count])
    seated = [player for player in order if player not in out]
    tables = _seat_with_fewest_repeats(seated, sizes, past_tables)
    return Pairing(
        tables=[seat_order(table, first_seats) for table in tables],
        byes=[player for player in order if player in out],
    )


def elimination_first_round(
    seeds: Sequence, table_size: int, *, advance: int = 1, first_seats: Mapping = {}
) -> Pairing:
    """Round 1 of an elimination bracket (league.bracket.plan) from the players in seed order
    (best first): byes, if the bracket has any, go to the top seeds, and the others are dealt
    to the tables in snake order (seed 1 to table 1, 2 to table 2, ..., then back), so the
    top seeds start at different tables. A field that fits one table plays the final at once."""
    seeds = list(seeds)
    if len(seeds) < MIN_TABLE:
        if len(set(seeds)) != len(seeds):
            raise ValueError("a player appears twice")
        return Pairing(tables=[], byes=[])
    drawn = bracket.plan(seeds, table_size, advance)
    tables, byes = drawn.round_to_play([]) or ([], [])
    return Pairing(tables=[seat_order(table, first_seats) for table in tables], byes=byes)


def elimination_field(players: int, table_size: int, advance: int) -> list[int]:
    """How many players start each round of an elimination event of ``players`` in which nobody
    drops out, from round 1 to the final (league.bracket plans it). ValueError (saying why)
    for a field no bracket fits."""
    sizes = bracket.round_sizes(players, table_size, advance)
    return [players] + [sum(round_) for round_ in sizes[1:]]


# -- helpers ----------------------------------------------------------------------------------


def _standing_order(players: Sequence, points: Mapping, rng: random.Random | None) -> list:
    if len(set(players)) != len(players):
        raise ValueError("a player appears twice")
    if rng is None:
        return sorted(players, key=lambda p: -points.get(p, 0))  # stable: ties keep given order
    draw = {player: rng.random() for player in players}
    return sorted(players, key=lambda p: (-points.get(p, 0), draw[p]))


def _met_costs(count: int, index: Mapping, tables: Iterable[Sequence]) -> tuple[list[dict], int]:
    """For each player index, everyone they shared a table with (players not in ``index``, e.g.
    withdrawn ones, are left out), mapped to the cost of seating the two together again:
    ``weight`` + the times they met. ``weight`` is one more than all meetings put together, so
    the fewest repeated pairs always come first and, among those, pairs that met least often;
    returns (costs, weight)."""
    met: list[dict[int, int]] = [{} for _ in range(count)]
    meetings = 0
    for table in tables:
        present = [index[p] for p in table if p in index]
        for i in present:
            for j in present:
                if i != j:
                    met[i][j] = met[i].get(j, 0) + 1
                    meetings += 1
    weight = meetings // 2 + 1
    for known in met:
        for other in known:
            known[other] += weight
    return met, weight


def _seat_with_fewest_repeats(
    seated: Sequence, sizes: Sequence[int], past_tables: Sequence[Sequence]
) -> list[list]:
    """``seated`` (in standing order) at tables of ``sizes``, with the fewest repeats found."""
    index = {player: i for i, player in enumerate(seated)}
    met, weight = _met_costs(len(seated), index, past_tables)
    tables = _TableSearch(met, weight, sizes).run()
    _swap_away_repeats(tables, met, None)
    return [[seated[i] for i in sorted(table)] for table in tables]


def _seat_swiss(
    seated: Sequence,
    sizes: Sequence[int],
    past_tables: Sequence[Sequence],
    points: Mapping,
    short_had: Mapping,
    table_size: int,
) -> list[list]:
    """``seated`` (in standing order) at tables of ``sizes``, by the Swiss order of costs: fewest
    repeats, then short tables to those who sat at them least, then the least score difference
    (see ``_Costs``). Exact where the ways to seat them are few, else searched and then
    improved by swaps."""
    index = {player: i for i, player in enumerate(seated)}
    met, weight = _met_costs(len(seated), index, past_tables)
    costs = _Costs(
        met,
        [float(points.get(player, 0)) for player in seated],
        [short_had.get(player, 0) for player in seated],
        table_size,
    )
    best: list[list[int]] | None = None
    for start in _starts(costs, weight, sizes):
        _swap_away_repeats(start, met, None)
        _improve_by_swaps(start, costs)
        if best is None or not _not_better(costs.total(start), costs.total(best)):
            best = start
    assert best is not None
    tables = best
    if _seatings(sizes) <= _EXACT_SEATINGS:
        tables = _exact_seating(costs, sizes, tables)
    elif table_size == 3 and len(sizes) <= _LOCAL_TABLES:
        _local_search(tables, costs, _LOCAL_BUDGET)
    tables = sorted((sorted(table) for table in tables), key=lambda table: table[0])
    return [[seated[i] for i in table] for table in tables]


def _starts(costs: _Costs, weight: int, sizes: Sequence[int]) -> Iterator[list[list[int]]]:
    """Seatings to improve by swaps, each a different local optimum: the repeat search's; the
    standings cut into tables (the score groups); and, with short tables among full ones, the
    short tables seated first from those who sat at them least (the lowest-standing first)."""
    met, n = costs.met, len(costs.points)
    yield _TableSearch(met, weight, sizes).run()
    chunks, at = [], 0
    for size in sorted(sizes, reverse=True):
        chunks.append(list(range(at, at + size)))
        at += size
    yield chunks
    short_sizes = [size for size in sizes if size < costs.full]
    if not short_sizes or len(short_sizes) == len(sizes):
        return
    waiting = sorted(range(n), key=lambda i: (costs.short[i], -i))
    tables = []
    for size in short_sizes:
        table = [waiting.pop(0)]
        while len(table) < size:
            fresh = next((i for i in waiting if not met[i].keys() & set(table)), waiting[0])
            waiting.remove(fresh)
            table.append(fresh)
        tables.append(table)
    rest = sorted(waiting)
    local = {player: k for k, player in enumerate(rest)}
    rest_met = [{local[o]: c for o, c in met[i].items() if o in local} for i in rest]
    full_sizes = [size for size in sizes if size == costs.full]
    for table in _TableSearch(rest_met, weight, full_sizes).run():
        tables.append([rest[k] for k in table])
    yield tables


class _Costs:
    """What a Swiss table costs, compared in this order: the repeat cost of its pairs (see
    ``_met_costs``); at a table short of ``table_size``, how often its players sat at short
    tables before (so the short tables go to those who sat at them least); and the score
    difference, the sum over its pairs of the difference in points. Players are indices."""

    def __init__(self, met: list[dict[int, int]], points: list[float], short: list[int], full):
        self.met = met
        self.points = points
        self.short = short
        self.full = full

    def table(self, table: Sequence[int]) -> tuple[int, int, float]:
        met, points = self.met, self.points
        repeat = 0
        difference = 0.0
        for k, a in enumerate(table):
            known = met[a]
            for b in table[k + 1 :]:
                repeat += known.get(b, 0)
                difference += abs(points[a] - points[b])
        short = sum(self.short[a] for a in table) if len(table) < self.full else 0
        return repeat, short, difference

    def total(self, tables: Sequence[Sequence[int]]) -> tuple[int, int, float]:
        parts = [self.table(table) for table in tables]
        return (
            sum(part[0] for part in parts),
            sum(part[1] for part in parts),
            sum(part[2] for part in parts),
        )

    def swap(
        self, a: int, home: Sequence[int], b: int, away: Sequence[int]
    ) -> tuple[int, int, float]:
        """The change in cost if ``a`` of ``home`` and ``b`` of ``away`` change tables."""
        met_a, met_b, points = self.met[a], self.met[b], self.points
        point_a, point_b = points[a], points[b]
        repeat = 0
        difference = 0.0
        for x in home:
            if x != a:
                repeat += met_b.get(x, 0) - met_a.get(x, 0)
                difference += abs(point_b - points[x]) - abs(point_a - points[x])
        for y in away:
            if y != b:
                repeat += met_a.get(y, 0) - met_b.get(y, 0)
                difference += abs(point_a - points[y]) - abs(point_b - points[y])
        short = 0
        if len(home) < self.full:
            short += self.short[b] - self.short[a]
        if len(away) < self.full:
            short += self.short[a] - self.short[b]
        return repeat, short, difference


def _seatings(sizes: Sequence[int]) -> int:
    """How many ways there are to seat sum(sizes) players at tables of ``sizes``."""
    if sum(sizes) > 16:  # more than _EXACT_SEATINGS at any table size
        return _EXACT_SEATINGS + 1
    ways = math.factorial(sum(sizes))
    for size in sizes:
        ways //= math.factorial(size)
    for size in set(sizes):
        ways //= math.factorial(sizes.count(size))
    return ways


def _exact_seating(costs: _Costs, sizes: Sequence[int], found: list[list[int]]) -> list[list[int]]:
    """The seating of least cost, by depth-first search with the cost so far as the bound, the
    seating ``found`` so far the one to beat. A table is headed by the highest-standing player
    not yet seated, and the companions are tried in standing order, so among better seatings of
    equal cost the first found, the nearest to the standings, is kept."""
    n = len(costs.points)
    free = [True] * n
    remaining = {size: sizes.count(size) for size in set(sizes)}
    choices = sorted(remaining, reverse=True)
    tables: list[list[int]] = []
    best: list = [costs.total(found), found]

    def seat(repeat: int, short: int, difference: float) -> None:
        head = next((i for i in range(n) if free[i]), None)
        if head is None:
            best[0] = (repeat, short, difference)
            best[1] = [list(table) for table in tables]
            return
        free[head] = False
        others = [i for i in range(head + 1, n) if free[i]]
        for size in choices:
            if not remaining[size]:
                continue
            remaining[size] -= 1
            for mates in itertools.combinations(others, size - 1):
                table = (head, *mates)
                r, s, d = costs.table(table)
                cost = (repeat + r, short + s, difference + d)
                if _not_better(cost, best[0]):
                    continue
                for mate in mates:
                    free[mate] = False
                tables.append(list(table))
                seat(*cost)
                tables.pop()
                for mate in mates:
                    free[mate] = True
            remaining[size] += 1
        free[head] = True

    seat(0, 0, 0.0)
    return best[1]


def _not_better(cost: tuple[int, int, float], than: tuple[int, int, float]) -> bool:
    """Whether ``cost`` fails to beat ``than``: score differences within a rounding error tie."""
    if cost[:2] != than[:2]:
        return cost[:2] > than[:2]
    return cost[2] >= than[2] - _TOLERANCE


def _improve_by_swaps(tables: list[list[int]], costs: _Costs) -> None:
    """While swapping two players between two tables lowers the cost (in ``_Costs``' order, so
    never at the price of a repeat), swap. Tables are tried against the next few in standing
    order, where score groups meet; a short table against every table, so the short seats can
    go to whoever sat at short tables least wherever they stand."""
    for _ in range(_SWAP_PASSES):
        improved = False
        tables.sort(key=min)
        for i, home in enumerate(tables):
            short = len(home) < costs.full
            partners = range(len(tables)) if short else range(i + 1, i + 1 + _SWAP_WINDOW)
            for j in partners:
                if j == i or j >= len(tables):
                    continue
                away = tables[j]
                if _best_exchange(home, away, costs):
                    improved = True
        if not improved:
            return


def _local_search(tables: list[list[int]], costs: _Costs, budget: int) -> None:
    """Large-neighbourhood search in ``_Costs``' order, for a round too large to search
    exhaustively. Every three tables at most ``_LOCAL_WINDOW`` apart in standing are seated
    again exactly (``_exact_seating`` over their players, at most 12), which takes in every swap
    and 3-cycle among them and reaches what a swap cannot (a score group split across three
    tables), while a pass lowers the cost. Then, from the best seating so far, a kick (two
    random 3-cycles) and the same again, keeping the best. A generator seeded by the round's
    size and a budget of re-seatings, not of time: the same round is always seated the same
    way."""
    spent = _reseat_triples(tables, costs, budget)
    best, best_cost = [list(t) for t in tables], costs.total(tables)
    rng = random.Random(len(costs.points))
    while spent < budget and len(tables) >= 4 and best_cost != (0, 0, 0.0):
        trial = [list(t) for t in best]
        for _ in range(2):  # a kick: two random 3-cycles, then the search again
            i, j, k = rng.sample(range(len(trial)), 3)
            a, b, c = (rng.randrange(len(trial[t])) for t in (i, j, k))
            trial[i][a], trial[j][b], trial[k][c] = trial[k][c], trial[i][a], trial[j][b]
        spent += _reseat_triples(trial, costs, budget - spent)
        cost = costs.total(trial)
        if not _not_better(cost, best_cost):
            best, best_cost = trial, cost
    tables[:] = best


def _reseat_triples(tables: list[list[int]], costs: _Costs, budget: int) -> int:
    """Every three tables near each other seated again exactly, while that lowers the cost;
    returns the re-seatings spent."""
    spent = 0
    improved = True
    while improved and spent < budget:
        improved = False
        tables.sort(key=min)
        for i, j, k in _triples_near(len(tables)):
            if spent >= budget:
                return spent
            spent += 1
            group = [tables[i], tables[j], tables[k]]
            players = sorted(p for table in group for p in table)
            local = {player: n for n, player in enumerate(players)}
            sub = _Costs(
                [{local[o]: c for o, c in costs.met[p].items() if o in local} for p in players],
                [costs.points[p] for p in players],
                [costs.short[p] for p in players],
                costs.full,
            )
            found = [[local[p] for p in table] for table in group]
            before = sub.total(found)
            seated = _exact_seating(sub, [len(table) for table in group], found)
            if _not_better(sub.total(seated), before):
                continue
            for at, table in zip((i, j, k), seated):
                tables[at] = [players[n] for n in table]
            improved = True
    return spent


def _pairs_near(count: int) -> Iterator[tuple[int, int]]:
    for i in range(count):
        for j in range(i + 1, min(count, i + 1 + _LOCAL_WINDOW)):
            yield i, j


def _triples_near(count: int) -> Iterator[tuple[int, int, int]]:
    """Every three tables within the window."""
    for i, j in _pairs_near(count):
        for k in range(j + 1, min(count, i + 1 + _LOCAL_WINDOW)):
            yield i, j, k


def _best_exchange(home: list[int], away: list[int], costs: _Costs) -> bool:
    """Make the best cost-lowering swap between two tables, if there is one."""
    best: tuple[int, int, float] = (0, 0, -_TOLERANCE)
    chosen = None
    for a in home:
        for b in away:
            change = costs.swap(a, home, b, away)
            if change < best and not _not_better(change, best):
                best, chosen = change, (a, b)
    if chosen is None:
        return False
    a, b = chosen
    home[home.index(a)], away[away.index(b)] = b, a
    return True


class _TableSearch:
    """Depth-first over seats, branch and bound on the cost of repeats (see ``_met_costs``; the
    module docstring tells the order). Players are indices 0..n-1 in standing order; a table's
    players are chosen in increasing index, so every set of tables is met once."""

    def __init__(self, met: list[dict[int, int]], weight: int, sizes: Sequence[int]):
        self.met = met
        self.weight = weight
        self.n = len(met)
        self.remaining = {size: sizes.count(size) for size in set(sizes)}
        self.size_choices = sorted(self.remaining, reverse=True)  # full tables first
        self.seated = [False] * self.n
        self.met_unseated = [len(known) for known in met]  # for the lower bound
        self.tables: list[list[int]] = []
        self.targets: list[int] = []
        self.count_seated = 0
        self.cost = 0
        self.best: list[list[int]] | None = None
        self.best_cost = math.inf
        self.work = 0

    def run(self) -> list[list[int]]:
        if self.n == 0:
            return []
        stack = [self._choices()]
        while stack:
            if not next(stack[-1], False):
                stack.pop()
                continue
            if self.count_seated == self.n:
                assert self.cost < self.best_cost  # every branch is bounded by the best
                self.best = [list(table) for table in self.tables]
                self.best_cost = self.cost
                if self.cost == 0:
                    break
            elif self.best is not None and self.work > _SEARCH_BUDGET:
                break
            else:
                stack.append(self._choices())
        assert self.best is not None  # the first descent always completes
        return self.best

    def _choices(self) -> Iterator[bool]:
        """The choices for the next seat; each is applied while the generator is suspended at
        its yield and undone when it resumes."""
        if self.tables and len(self.tables[-1]) < self.targets[-1]:
            return self._companions()
        return self._new_tables()

    def _sit(self, player: int) -> None:
        self.seated[player] = True
        self.count_seated += 1
        for other in self.met[player]:
            self.met_unseated[other] -= 1

    def _stand(self, player: int) -> None:
        self.seated[player] = False
        self.count_seated -= 1
        for other in self.met[player]:
            self.met_unseated[other] += 1

    def _cost_ahead(self) -> int:
        """A lower bound on the cost the unseated players must still add: each sits with at
        least (smallest table left - 1) of them, and any beyond those it has not met are
        repeats, each shared by two players and costing at least ``weight + 1``."""
        smallest = min(size for size in self.size_choices if self.remaining[size])
        unseated = self.n - self.count_seated
        self.work += self.n
        short = 0
        for player in range(self.n):
            if not self.seated[player]:
                fresh = unseated - 1 - self.met_unseated[player]
                if fresh < smallest - 1:
                    short += smallest - 1 - fresh
        return (short + 1) // 2 * (self.weight + 1)

    def _new_tables(self) -> Iterator[bool]:
        if self.best is not None and self.cost + self._cost_ahead() >= self.best_cost:
            return
        top = self.tables[-1][0] + 1 if self.tables else 0
        while self.seated[top]:  # every player above the last table's head is already seated
            top += 1
        for size in self.size_choices:
            if not self.remaining[size]:
                continue
            self.remaining[size] -= 1
            self._sit(top)
            self.tables.append([top])
            self.targets.append(size)
            yield True
            self.targets.pop()
            self.tables.pop()
            self._stand(top)
            self.remaining[size] += 1

    def _companions(self) -> Iterator[bool]:
        """Unseated players below the table's last, those adding no repeat first (found lazily:
        on a large round the first usually sits a few places down), then by the cost added."""
        table = self.tables[-1]
        met, seated = self.met, self.seated
        start = table[-1] + 1
        later = []
        for candidate in range(start, self.n):
            if seated[candidate]:
                continue
            self.work += 1
            known = met[candidate]
            if not known.keys().isdisjoint(table):
                added = sum(known[member] for member in table if member in known)
                later.append((added, candidate))
                continue
            yield from self._try(table, candidate, 0)
            if self.cost >= self.best_cost:
                return
        later.sort()
        for added, candidate in later:
            if self.cost + added >= self.best_cost:
                return
            yield from self._try(table, candidate, added)

    def _try(self, table: list[int], candidate: int, added: int) -> Iterator[bool]:
        self._sit(candidate)
        self.cost += added
        table.append(candidate)
        yield True
        table.pop()
        self.cost -= added
        self._stand(candidate)


def _conflicts(player: int, table: Sequence[int], met: list[dict[int, int]]) -> int:
    known = met[player]
    return sum(known[other] for other in table if other in known)


def _swap_away_repeats(tables: list[list[int]], met: list[dict[int, int]], allowed) -> None:
    """While swapping two players between two tables lowers the repeat cost, swap (nearest tables
    first, so tables stay close to where they were). ``allowed(a, b)`` may forbid a swap."""
    improved = True
    while improved:
        improved = False
        for home_at, home in enumerate(tables):
            for a in home[::-1]:  # the lower-standing player of a repeat moves first
                stay_a = _conflicts(a, home, met)
                if not stay_a:
                    continue
                for away in _nearest_first(tables, home_at):
                    swapped = _best_swap(a, stay_a, home, away, met, allowed)
                    if swapped is not None:
                        home[home.index(a)], away[away.index(swapped)] = swapped, a
                        improved = True
                        break


def _nearest_first(tables: list[list[int]], at: int) -> Iterator[list[int]]:
    for step in range(1, len(tables)):
        for other in (at - step, at + step):
            if 0 <= other < len(tables):
                yield tables[other]


def _best_swap(
    a: int, stay_a: int, home: list[int], away: list[int], met: list[dict[int, int]], allowed
) -> int | None:
    """A player of ``away`` whose swap with ``a`` lowers the repeat cost, or None."""
    for b in away:
        if allowed is not None and not allowed(a, b):
            continue
        before = stay_a + _conflicts(b, away, met)
        after = (
            _conflicts(a, away, met)
            - met[a].get(b, 0)
            + _conflicts(b, home, met)
            - met[b].get(a, 0)
        )
        if after < before:
            return b
    return None


def _circle_rounds(order: list, rounds: int | None) -> list[tuple[list[list], list]]:
    """The circle method: the first player stays put, the others turn one place a round; the
    k-th from the left meets the k-th from the right. With an odd count an empty place joins the
    circle and whoever faces it sits out."""
    empty = object()
    circle = order + [empty] if len(order) % 2 else list(order)
    cycle = max(len(circle) - 1, 1)
    if rounds is None:
        rounds = cycle if len(order) > 1 else 0
    draws = []
    for r in range(rounds):
        turn = r % cycle
        rest = circle[1:]
        spun = circle[:1] + rest[len(rest) - turn :] + rest[: len(rest) - turn]
        half = len(spun) // 2
        tables, byes = [], []
        for k, (left, right) in enumerate(zip(spun[:half], reversed(spun[half:]))):
            if left is empty or right is empty:
                byes.append(right if left is empty else left)
            else:
                # alternating sides by round and table leaves seat_order ties that even out
                # the first seats to within one (always taking the left side skews them)
                tables.append([left, right] if (r + k) % 2 == 0 else [right, left])
        draws.append((tables, byes))
    return draws


def _rotating_rounds(order: list, table_size: int, rounds: int) -> list[tuple[list[list], list]]:
    """Rounds at tables of 3 or 4: byes in turn round ``order``, then the fewest repeats."""
    sizes, bye_count = table_sizes(len(order), table_size)
    past: list[list] = []
    draws = []
    next_bye = 0
    for _ in range(rounds):
        out = {order[(next_bye + k) % len(order)] for k in range(bye_count)}
        next_bye += bye_count
        tables = _seat_with_fewest_repeats([p for p in order if p not in out], sizes, past)
        past += tables
        draws.append((tables, [p for p in order if p in out]))
    return draws


def fix_tables(pairing: Pairing, fixed: Mapping[Hashable, int]) -> Pairing:
    """``pairing`` with each player of ``fixed`` at the table number they must sit at (1 for
    the first), for a player who cannot move about a venue.

    Table numbers are only places, so the player's whole table takes that number and the
    table there takes theirs: nobody's opponents change. Players are placed in the order of
    ``fixed``; a number beyond the round means its last table; a player sitting out stays
    out. Where a later fixed player's number or own table is already claimed by an earlier
    one, they alone move: they join the table at their number in exchange for a player there
    who is not fixed (the table sizes stay, so the round stays seatable); where every player
    there is fixed, they stay put."""
    tables = [list(t) for t in pairing.tables]
    placed: set[int] = set()  # table positions already claimed by a fixed player
    for player, number in fixed.items():
        at = next((i for i, t in enumerate(tables) if player in t), None)
        if at is None or not tables:
            continue
        want = min(max(number, 1), len(tables)) - 1
        if at == want:
            placed.add(want)
        elif at not in placed and want not in placed:
            tables[at], tables[want] = tables[want], tables[at]
            placed.add(want)
        else:
            movable = [p for p in tables[want] if p not in fixed]
            if movable:
                other = movable[-1]
                tables[at][tables[at].index(player)] = other
                tables[want][tables[want].index(other)] = player
                placed.add(want)
    return Pairing(tables=tables, byes=list(pairing.byes))


def repeated_pairs(tables: Iterable[Sequence], past_tables: Iterable[Sequence]) -> list[tuple]:
    """The pairs at ``tables`` who shared a table before, with how often:
    ``(table number from 1, player, player, times)``, in table order."""
    met: dict[frozenset, int] = {}
    for table in past_tables:
        for pair in itertools.combinations(table, 2):
            key = frozenset(pair)
            met[key] = met.get(key, 0) + 1
    out = []
    for number, table in enumerate(tables, start=1):
        for a, b in itertools.combinations(table, 2):
            times = met.get(frozenset((a, b)), 0)
            if times:
                out.append((number, a, b, times))
    return out
