"""Elimination brackets, pure Python (no Django): planned once, then filled from results.

A bracket is drawn when its first round is paired, from the seeds (best first), and never
re-dealt: ``plan`` fixes every table of every round. A round-1 table holds seeds; a later table
holds places, each either a seed with a bye (byes come only in round 1, to the top seeds) or
"place p of table t of round r". Each table sends its top ``advance`` through, but never all of
a table that fell back to a seat fewer (its last always goes out); the final sends its winner.

The plan has the fewest byes any bracket of the field can have in which no later round has a
bye; then the fewest short tables after round 1; then the fewest short tables. Later rounds
are dealt from the places entering them in snake order, the places ranked by the best seed
that can fill them: byes in seed order, then every winner of the round before in table order,
then every runner-up, ... (tables are numbered from the best seed down), so at tables of 2 this
is the usual seeded bracket (seeds 1 and 2 can meet only in the final, 1 to 4 only in the
semi-finals) and at tables of 3 or 4 the top seeds likewise start apart and meet late. Two
places from the same table are kept apart where swapping places of the same rank does it.

Filling it (``Bracket.resolve``): a player who drops leaves an empty place; a table plays
with the players present, and a table with no more players present than places going through
(one player, at tables of 2) is not played: those present go through by walkover, best seed
first. So a player knocked out never comes back, and the last player standing wins.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

MIN_TABLE = 2  # seats at a table, as league.pairing (which plans brackets with this module)
MAX_TABLE = 4


@dataclass(frozen=True)
class Place:
    """A place at a table: seed ``seed`` (0-based) in round 1 or after a bye, or else the
    ``place``-th (0-based) going through from table ``table`` of round ``round`` (0-based)."""

    seed: int | None = None
    round: int = 0
    table: int = 0
    place: int = 0

    def to_json(self) -> list[int]:
        if self.seed is not None:
            return [self.seed]
        return [self.round, self.table, self.place]

    @classmethod
    def from_json(cls, value: Sequence[int]) -> Place:
        if len(value) == 1:
            return cls(seed=value[0])
        return cls(round=value[0], table=value[1], place=value[2])


@dataclass
class TableState:
    """One table of a filled bracket. ``players``: who holds each place (None: empty, or not
    known yet while ``decided`` is false); ``status``: "waiting" (a table before it has not
    finished), "to play", "played" or "walkover"; ``through``: who goes on, best first
    (the champion alone, for the final); ``order``: the finishing order of a played table."""

    round: int
    table: int
    places: list[Place]
    players: list[str | None]
    decided: bool
    status: str = "waiting"
    order: list[str] = field(default_factory=list)
    through: list[str | None] = field(default_factory=list)


@dataclass(frozen=True)
class Bracket:
    """The plan: ``seeds`` best first; ``rounds[r][t]`` the places of table t of round r."""

    seeds: tuple[str, ...]
    table_size: int
    advance: int
    rounds: tuple[tuple[tuple[Place, ...], ...], ...]

    # -- the plan -----------------------------------------------------------------------------

    @property
    def byes(self) -> list[str]:
        """The seeds who skip round 1."""
        seated = {p.seed for table in self.rounds[0] for p in table}
        return [s for i, s in enumerate(self.seeds) if i not in seated]

    def going_through(self, round_: int, table: int) -> int:
        """How many places table ``table`` of round ``round_`` sends on (the final: one)."""
        if round_ == len(self.rounds) - 1:
            return 1
        return going_through(len(self.rounds[round_][table]), self.advance)

    def to_json(self) -> dict[str, Any]:
        return {
            "seeds": list(self.seeds),
            "table_size": self.table_size,
            "advance": self.advance,
            "rounds": [[[p.to_json() for p in t] for t in r] for r in self.rounds],
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Bracket:
        return cls(
            seeds=tuple(data["seeds"]),
            table_size=data["table_size"],
            advance=data["advance"],
            rounds=tuple(
                tuple(tuple(Place.from_json(p) for p in t) for t in r) for r in data["rounds"]
            ),
        )

    # -- filling it ---------------------------------------------------------------------------

    def resolve(
        self, played: Sequence[Sequence[Sequence[str]]], dropped: Mapping[str, int] = {}
    ) -> list[list[TableState]]:
        """Every table's state. ``played[k]``: the finishing orders (best first, ties broken)
        of the tables of the k-th round played, in any order (a round of walkovers alone is
        never played); ``dropped``: the players who dropped out, each mapped to how many rounds
        had been played when they did (so they are absent from the round played next, and from
        everything after). ValueError for a result that fits no table."""
        states: list[list[TableState]] = []
        consumed = 0
        for r, tables in enumerate(self.rounds):
            row = [self._table(states, r, t, places) for t, places in enumerate(tables)]
            absent = {p for p, count in dropped.items() if count <= consumed}
            for state in row:
                if state.decided:
                    self._walkover(state, absent)
            if any(s.status == "to play" for s in row) and consumed < len(played):
                self._settle(row, played[consumed])
                consumed += 1
            states.append(row)
        if consumed < len(played):
            raise ValueError(f"{len(played) - consumed} rounds of results fit no round")
        return states

    def _table(self, states, r: int, t: int, places: Sequence[Place]) -> TableState:
        players: list[str | None] = []
        decided = True
        for place in places:
            if place.seed is not None:
                players.append(self.seeds[place.seed])
                continue
            feeder = states[place.round][place.table]
            if feeder.status in ("waiting", "to play"):
                decided = False
                players.append(None)
            else:
                players.append(feeder.through[place.place])
        return TableState(round=r, table=t, places=list(places), players=players, decided=decided)

    def _walkover(self, state: TableState, absent: set[str]) -> None:
        """A table whose players are known: empty the places of those who dropped out; send
        those present through by walkover if there are no more of them than places going
        through (best seed first), else it is to be played."""
        state.players = [p if p not in absent else None for p in state.players]
        present = [p for p in state.players if p is not None]
        going = self.going_through(state.round, state.table)
        if len(present) <= going or len(present) < MIN_TABLE:
            state.status = "walkover"
            state.through = (present + [None] * going)[:going]
        else:
            state.status = "to play"

    def _settle(self, row: list[TableState], orders: Sequence[Sequence[str]]) -> None:
        """Settle the tables of a round from the finishing orders of its tables (a table
        without one, in a round still being played, stays to play)."""
        by_player = {p: order for order in orders for p in order}
        for state in row:
            if state.status != "to play":
                continue
            present = [p for p in state.players if p is not None]
            order = by_player.get(present[0])
            if order is None:
                continue
            if sorted(order) != sorted(present):
                raise ValueError(
                    f"round {state.round + 1}: no result for the table of {', '.join(present)}"
                )
            state.status = "played"
            state.order = list(order)
            state.through = list(order[: self.going_through(state.round, state.table)])

    def next_round(
        self, played: Sequence[Sequence[Sequence[str]]], dropped: Mapping[str, int] = {}
    ) -> list[TableState] | None:
        """The tables of the next round to play, with the walkovers beside them; None once the
        bracket is decided (the champion is known, or nobody is left)."""
        for row in self.resolve(played, dropped):
            if any(s.status == "to play" for s in row):
                return row
        return None

    def round_to_play(
        self, played: Sequence[Sequence[Sequence[str]]], dropped: Mapping[str, int] = {}
    ) -> tuple[list[list[str]], list[str]] | None:
        """The next round to play: its tables' players in place order, and who goes through it
        without playing (a bye in round 1, or a walkover). None once the bracket is decided."""
        row = self.next_round(played, dropped)
        if row is None:
            return None
        through = [p for s in row if s.status == "walkover" for p in s.through if p]
        return (
            [[p for p in s.players if p] for s in row if s.status == "to play"],
            (self.byes if row[0].round == 0 else []) + through,
        )

    def champion(
        self, played: Sequence[Sequence[Sequence[str]]], dropped: Mapping[str, int] = {}
    ) -> str | None:
        """The winner of the final, or the last player standing; None while undecided (or if
        everyone dropped out)."""
        final = self.resolve(played, dropped)[-1][0]
        if final.status in ("played", "walkover"):
            return final.through[0]
        return None

    def placings(
        self, played: Sequence[Sequence[Sequence[str]]], dropped: Mapping[str, int] = {}
    ) -> list[tuple[int, int, str]]:
        """Final placings, best first: (first place, last place, player); players who went out
        together share a range ("3rd-4th"). The champion first; then by the round a player
        went out in, latest first; within a round by their place at their table (a player who
        went out without playing, by dropping out, last). For a decided bracket."""
        states = self.resolve(played, dropped)
        out: dict[str, tuple[int, int]] = {}
        for row in states:
            for s in row:
                for player in s.players:
                    if player is not None:
                        out[player] = (-s.round, MAX_TABLE + 1)
                for place, player in enumerate(s.order):
                    out[player] = (-s.round, place)
        champion = self.champion(played, dropped)
        if champion is not None:
            out[champion] = (-len(self.rounds), 0)
        groups: dict[tuple[int, int], list[str]] = {}
        for player in self.seeds:  # seed order within a group
            groups.setdefault(out.get(player, (1, 0)), []).append(player)
        placings: list[tuple[int, int, str]] = []
        for key in sorted(groups):
            first = len(placings) + 1
            last = first + len(groups[key]) - 1
            placings.extend((first, last, player) for player in groups[key])
        return placings


def going_through(size: int, advance: int) -> int:
    """How many of a table of ``size`` go through: the top ``advance``, but never everyone at a
    table that fell back to a smaller size."""
    return min(advance, max(size - 1, 1))


def plan(seeds: Sequence[str], table_size: int, advance: int) -> Bracket:
    """The bracket for ``seeds`` (best first) at tables of ``table_size`` with ``advance`` of
    each going through. ValueError (saying why) for a field no bracket fits."""
    seeds = tuple(seeds)
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player appears twice")
    sizes = round_sizes(len(seeds), table_size, advance)
    byes = len(seeds) - sum(sizes[0])
    rounds: list[tuple[tuple[Place, ...], ...]] = []
    entering = [Place(seed=i) for i in range(byes, len(seeds))]
    for r, table_sizes in enumerate(sizes):
        tables = _deal(entering, table_sizes)
        rounds.append(tuple(tuple(t) for t in tables))
        if r + 1 < len(sizes):
            entering = [Place(seed=i) for i in range(byes)] if r == 0 else []
            for place in range(max(going_through(s, advance) for s in table_sizes)):
                for t, size in enumerate(table_sizes):
                    if place < going_through(size, advance):
                        entering.append(Place(round=r, table=t, place=place))
    return Bracket(seeds=seeds, table_size=table_size, advance=advance, rounds=tuple(rounds))


def round_sizes(players: int, table_size: int, advance: int) -> list[list[int]]:
    """The table sizes of each round of the bracket for ``players`` (round 1 first; the byes
    are the players round 1 does not seat). ValueError (saying why) if no bracket fits."""
    if not MIN_TABLE <= table_size <= MAX_TABLE:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE}, not {table_size}")
    if not 1 <= advance < table_size:
        raise ValueError(f"between 1 and {table_size - 1} players advance, not {advance}")
    smallest = table_size - 1 if table_size > MIN_TABLE else MIN_TABLE
    if players < smallest:
        raise ValueError(
            f"{players} players cannot fill a table: tables of {table_size} seat at least"
            f" {smallest}"
        )
    if players <= table_size:
        return [[players]]
    for byes in range(players - smallest + 1):
        best: tuple[tuple[int, int], list[tuple[int, ...]]] | None = None
        for full, short in _compositions(players - byes, table_size):
            through = byes + _through(full, short, table_size, advance)
            later = _later_rounds(through, table_size, advance)
            if later is not None and (best is None or (later[0], short) < best[0]):
                round_1 = (table_size,) * full + (table_size - 1,) * short
                best = ((later[0], short), [round_1, *later[1]])
        if best is not None:
            return [list(sizes) for sizes in best[1]]
    raise ValueError(
        f"no bracket fits {players} players at tables of {table_size} with {advance} going through"
    )


@cache
def _later_rounds(
    players: int, table_size: int, advance: int
) -> tuple[int, tuple[tuple[int, ...], ...]] | None:
    """Rounds for ``players`` with no byes: (short tables, table sizes by round), the fewest
    short tables; None if none fit. The final seats whoever is left, up to a full table."""
    if players < MIN_TABLE:
        return None
    if players <= table_size:
        return 0, ((players,),)
    best: tuple[int, tuple[tuple[int, ...], ...]] | None = None
    for full, short in _compositions(players, table_size):
        if full + short < 2:
            continue
        later = _later_rounds(_through(full, short, table_size, advance), table_size, advance)
        if later is not None and (best is None or short + later[0] < best[0]):
            sizes = (table_size,) * full + (table_size - 1,) * short
            best = (short + later[0], (sizes, *later[1]))
    return best


def _compositions(players: int, table_size: int) -> list[tuple[int, int]]:
    """Ways to seat exactly ``players`` at tables of ``table_size`` or one seat fewer (not below
    2), as (full tables, short tables), fewest short tables first."""
    smaller = table_size - 1
    if smaller < MIN_TABLE:
        return [(players // table_size, 0)] if players % table_size == 0 and players else []
    found = []
    for short in range(players // smaller + 1):
        rest = players - short * smaller
        if rest % table_size == 0 and rest + short > 0:
            found.append((rest // table_size, short))
    return found


def _through(full: int, short: int, table_size: int, advance: int) -> int:
    return full * going_through(table_size, advance) + short * going_through(
        table_size - 1, advance
    )


def _deal(entering: Sequence[Place], sizes: Sequence[int]) -> list[list[Place]]:
    """Deal the places entering a round, best first, to its tables in snake order; then keep
    two places from one table apart where swapping places of the same rank does it."""
    tables: list[list[Place]] = [[] for _ in sizes]
    forward = list(range(len(sizes)))
    dealt = 0
    while dealt < len(entering):
        for t in forward:
            if dealt < len(entering) and len(tables[t]) < sizes[t]:
                tables[t].append(entering[dealt])
                dealt += 1
        forward.reverse()
    _part_table_mates(tables)
    return tables


def _part_table_mates(tables: list[list[Place]]) -> None:
    def clashes(table: list[Place]) -> int:
        feeders = [(p.round, p.table) for p in table if p.seed is None]
        return len(feeders) - len(set(feeders))

    for a, home in enumerate(tables):
        for i, place in enumerate(home):
            if place.seed is not None or clashes(home) == 0:
                continue
            for away in tables[a + 1 :] + tables[:a]:
                for j, other in enumerate(away):
                    if other.seed is not None or other.place != place.place:
                        continue
                    before = clashes(home) + clashes(away)
                    home[i], away[j] = other, place
                    if clashes(home) + clashes(away) < before:
                        break
                    home[i], away[j] = place, other
                else:
                    continue
                break
