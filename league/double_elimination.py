"""Double elimination at tables of 2, pure Python (no Django): the bracket, its byes,
walkovers, the grand final and the final placings, recomputed from the seeds and the results.

The bracket is fixed by the seeds alone. Its size is the next power of two, N = 2^R; the
winners' bracket has R rounds seeded the standard way (1 meets N, 2 meets N - 1, the top
seeds kept apart until the late rounds), and a seed beyond the field is an empty place, so
the byes fall in round 1 and only to the top seeds. A player who loses in the winners'
bracket drops into the losers' bracket, which has 2(R - 1) rounds: its odd rounds pair the
players already in it, its even rounds bring in the losers of the next winners' round
(``drop_order`` says in which order, so that a player does not meet again at once someone
they met in the winners' bracket, where the bracket's size allows). A second loss puts a
player out. The winners' champion meets the losers' champion in the grand final; with
``reset`` (the usual rule) a win by the losers' champion, the winners' champion's first loss,
calls a second final that decides it.

A match's place empty of a player (a seed beyond the field, or nobody coming from an earlier
empty match) gives the other player a bye; a place of a player who dropped gives a
walkover. Either way the one present goes through at once and no game is played; a result
already played stands whoever drops afterwards. So as long as one player is still in, the
bracket ends with a champion.

Placings follow when a player went out: the later, the better, those out in the same round
sharing a place (1st, 2nd, 3rd, 4th, 5th-6th, 7th-8th, ... in a full bracket of 8).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

WINNERS = "winners"
LOSERS = "losers"
FINAL = "final"

# What a match is, as the bracket stands.
WAITING = "waiting"  # a place is not decided yet
READY = "ready"  # two players present: a game to play
PLAYED = "played"
WALKOVER = "walkover"  # the opponent dropped
BYE = "bye"  # the other place is empty
EMPTY = "empty"  # nobody in either place

_SIDE_ORDER = {WINNERS: 0, LOSERS: 1, FINAL: 2}


@dataclass(frozen=True)
class Match:
    """One match of the bracket. ``players`` are the two places (None: nobody, or not yet
    known while ``state`` is waiting); ``winner`` goes on, ``loser`` drops to the losers'
    bracket from the winners' (else is out); ``out`` are the players whose event ends here."""

    id: str  # "W1-1", "L2-1", "GF1", "GF2"
    side: str
    round: int
    number: int
    players: tuple[str | None, str | None]
    state: str
    winner: str | None = None
    loser: str | None = None
    out: tuple[str, ...] = ()

    @property
    def decided(self) -> bool:
        return self.state not in (WAITING, READY)


@dataclass(frozen=True)
class Bracket:
    size: int
    matches: tuple[Match, ...]
    champion: str | None

    def ready(self, round_number: int | None = None) -> list[Match]:
        """The matches with a game to play now, winners' side first. For ``round_number`` (of
        the event), those of that bracket round or earlier, as a printed bracket plays them
        (winners' round r in round r, losers' round k in round k + 1): two players who both
        had byes meet in round 2, not round 1. If drops have left only later matches ready,
        the earliest of them."""
        ready = [m for m in self.matches if m.state == READY]
        if round_number is None or not ready:
            return ready
        until = max(round_number, min(_timing(m, self.size) for m in ready))
        return [m for m in ready if _timing(m, self.size) <= until]

    def match(self, match_id: str) -> Match:
        for m in self.matches:
            if m.id == match_id:
                return m
        raise KeyError(match_id)

    def side(self, name: str) -> list[list[Match]]:
        """The rounds of one side, in order, each a list of its matches."""
        rounds: dict[int, list[Match]] = {}
        for m in self.matches:
            if m.side == name:
                rounds.setdefault(m.round, []).append(m)
        return [rounds[r] for r in sorted(rounds)]

    def placings(self) -> list[tuple[str, str]]:
        """(player, place) for every player out or crowned, best first: "1st", "2nd", ...,
        "5th–6th" for players who went out in the same round."""
        when: dict[str, int] = {}
        for m in self.matches:
            for player in m.out:
                when[player] = _timing(m, self.size)
        if self.champion is not None:
            when[self.champion] = 10**9
        ranked = sorted(when, key=lambda p: -when[p])
        places = []
        for player in ranked:
            above = sum(1 for q in ranked if when[q] > when[player])
            level = sum(1 for q in ranked if when[q] == when[player])
            first, last = above + 1, above + level
            places.append(
                (player, ordinal(first) if first == last else f"{ordinal(first)}–{ordinal(last)}")
            )
        return places


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def bracket_size(players: int) -> int:
    """The next power of two: the places of the winners' round 1."""
    if players < 2:
        raise ValueError("double elimination needs at least two players")
    size = 1
    while size < players:
        size *= 2
    return size


def seed_positions(size: int) -> list[int]:
    """The seeds in bracket order, the standard way: [1, 8, 4, 5, 2, 7, 3, 6] for 8, so each
    pair sums to size + 1 and seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [x for seed in order for x in (seed, total - seed)]
    return order


def drop_order(count: int, wave: int) -> list[int]:
    """Which winners' match (1-based) each of the ``count`` matches of a drop-in round of the
    losers' bracket takes its newcomer from, for the ``wave``-th drop-in round (the losers of
    winners' round wave + 1). Odd waves take them in reverse order, even waves with the two
    halves swapped: either way a newcomer meets someone from the other part of the bracket."""
    if wave % 2 == 1:
        return list(range(count, 0, -1))
    half = count // 2
    return [(i + half) % count + 1 for i in range(count)] if count > 1 else [1]


# A place in a match is filled from a seed, or from the winner or the loser of a match.
_Source = tuple[str, int | str]
_Place = tuple[str, str, int, int, _Source, _Source]


def _layout(size: int, reset: bool) -> list[_Place]:
    """Every match of a bracket of ``size``: (id, side, round, number, place 1, place 2)."""
    rounds = size.bit_length() - 1
    losers_champion: _Source = (
        ("winner", f"L{2 * rounds - 2}-1") if rounds > 1 else ("loser", f"W{rounds}-1")
    )
    finals: list[_Place] = [("GF1", FINAL, 1, 1, ("winner", f"W{rounds}-1"), losers_champion)]
    if reset:
        finals.append(("GF2", FINAL, 2, 1, ("winner", f"W{rounds}-1"), losers_champion))
    return _winners_layout(size) + _losers_layout(size) + finals


def _winners_layout(size: int) -> list[_Place]:
    order = seed_positions(size)
    out: list[_Place] = [
        (f"W1-{i + 1}", WINNERS, 1, i + 1, ("seed", order[2 * i]), ("seed", order[2 * i + 1]))
        for i in range(size // 2)
    ]
    for r in range(2, size.bit_length()):
        for i in range(1, size // 2**r + 1):
            a, b = f"W{r - 1}-{2 * i - 1}", f"W{r - 1}-{2 * i}"
            out.append((f"W{r}-{i}", WINNERS, r, i, ("winner", a), ("winner", b)))
    return out


def _losers_layout(size: int) -> list[_Place]:
    """Round 1 pairs the winners' round 1 losers; each even round k brings in the losers of
    winners' round k / 2 + 1 (``drop_order``); each odd round after 1 halves the field."""
    out: list[_Place] = []
    for k in range(1, 2 * (size.bit_length() - 1) - 1):
        if k == 1:
            for i in range(1, size // 4 + 1):
                a, b = f"W1-{2 * i - 1}", f"W1-{2 * i}"
                out.append((f"L1-{i}", LOSERS, 1, i, ("loser", a), ("loser", b)))
        elif k % 2 == 0:
            wave = k // 2
            for i, j in enumerate(drop_order(size // 2 ** (wave + 1), wave), start=1):
                newcomer: _Source = ("loser", f"W{wave + 1}-{j}")
                out.append((f"L{k}-{i}", LOSERS, k, i, ("winner", f"L{k - 1}-{i}"), newcomer))
        else:
            for i in range(1, size // 2 ** ((k + 1) // 2 + 1) + 1):
                a, b = f"L{k - 1}-{2 * i - 1}", f"L{k - 1}-{2 * i}"
                out.append((f"L{k}-{i}", LOSERS, k, i, ("winner", a), ("winner", b)))
    return out


def bracket(
    seeds: Sequence[str],
    results: Mapping[str, str],
    dropped: Mapping[str, int] | Collection[str] = (),
    *,
    reset: bool = True,
) -> Bracket:
    """The bracket of ``seeds`` (best first) as it stands after ``results`` (match id to the
    winner) with ``dropped`` players gone: a mapping to the event round after which each
    dropped (0: before round 1), or a collection of players gone from the start. A result
    naming someone not at that match raises ValueError.

    The event is replayed round by round as it was paired (``Bracket.ready``), each round
    with the players still in then, so a walkover stands once given: a player who went
    through by walkover and drops later leaves an empty place further on, not a different
    past."""
    if len(set(seeds)) != len(seeds):
        raise ValueError("a player appears twice")
    drops = dict(dropped) if isinstance(dropped, Mapping) else dict.fromkeys(dropped, 0)
    kept: dict[str, Match] = {}
    known: dict[str, str] = {}
    for number in range(1, 4 * len(seeds) + 8):
        gone = {player for player, after in drops.items() if after < number}
        current = _build(seeds, known, gone, reset, kept)
        kept.update({m.id: m for m in current.matches if m.state in (BYE, WALKOVER, EMPTY)})
        paired = [m.id for m in current.ready(number)]
        if not paired or any(match_id not in results for match_id in paired):
            played = {m: results[m] for m in paired if m in results}
            return _build(seeds, {**known, **played}, gone, reset, kept)
        known.update({match_id: results[match_id] for match_id in paired})
    raise AssertionError("a bracket ends within 2 log2(N) + 3 rounds")  # pragma: no cover


def _build(
    seeds: Sequence[str],
    results: Mapping[str, str],
    gone: set[str],
    reset: bool,
    kept: Mapping[str, Match],
) -> Bracket:
    size = bracket_size(len(seeds))
    done: dict[str, Match] = {}
    matches: list[Match] = []
    for match_id, side, round_, number, first, second in _layout(size, reset):
        places = [_fill(source, seeds, done) for source in (first, second)]
        match: Match | None
        if match_id in kept and match_id not in results:
            match = kept[match_id]
        elif match_id == "GF2":
            match = _reset_final(done["GF1"], places, results, gone)
        else:
            match = _decide(match_id, side, round_, number, places, results, gone)
            if match_id == "GF1" and reset and _owes_reset(match):
                match = dataclasses.replace(match, out=())  # not out yet: a second final is owed
        if match is None:
            continue
        done[match_id] = match
        matches.append(match)
    final = done.get("GF2", done["GF1"])
    champion = final.winner if final.decided else None
    return Bracket(size=size, matches=tuple(matches), champion=champion)


def _fill(source: _Source, seeds: Sequence[str], done: Mapping[str, Match]):
    """(known, player) for a place: a seed beyond the field is known to be nobody."""
    kind, ref = source
    if kind == "seed":
        assert isinstance(ref, int)
        return True, seeds[ref - 1] if ref <= len(seeds) else None
    match = done[str(ref)]
    if not match.decided:
        return False, None
    return True, match.winner if kind == "winner" else match.loser


def _decide(match_id, side, round_, number, places, results, gone) -> Match:
    players = (places[0][1], places[1][1])
    if not (places[0][0] and places[1][0]):
        return Match(match_id, side, round_, number, players, WAITING)
    winner = results.get(match_id)
    if winner is not None:
        if winner not in players or None in players:
            raise ValueError(f"{winner!r} did not play {match_id}")
        loser = players[1] if winner == players[0] else players[0]
        return _settled(match_id, side, round_, number, players, PLAYED, winner, loser)
    present = [p for p in players if p is not None and p not in gone]
    if len(present) == 2:
        return Match(match_id, side, round_, number, players, READY)
    if len(present) == 1:
        other = players[1] if present[0] == players[0] else players[0]
        state = BYE if other is None else WALKOVER
        return _settled(match_id, side, round_, number, players, state, present[0], other)
    absent = tuple(p for p in players if p is not None)
    return Match(match_id, side, round_, number, players, EMPTY, None, None, absent)


def _settled(match_id, side, round_, number, players, state, winner, loser) -> Match:
    if side == WINNERS:  # the loser drops to the losers' bracket
        return Match(match_id, side, round_, number, players, state, winner, loser)
    out = (loser,) if loser is not None else ()
    return Match(match_id, side, round_, number, players, state, winner, loser, out)


def _reset_final(first: Match, places, results, gone) -> Match | None:
    """The second final: only when the losers' champion won the first (the winners'
    champion's first loss), and then between the same two."""
    if not _owes_reset(first):
        return None
    return _decide("GF2", FINAL, 2, 1, places, results, gone)


def _owes_reset(first: Match) -> bool:
    """Whether the losers' champion beat the winners' champion in a game at the first final
    (a walkover to them ends it: the winners' champion has gone)."""
    return first.state == PLAYED and first.winner == first.players[1]


def _timing(match: Match, size: int) -> int:
    """When in the ideal schedule a match is played: winners' round r at r, losers' round k
    at k + 1 (it waits for the losers of the round before), the finals after both."""
    rounds = size.bit_length() - 1
    if match.side == WINNERS:
        return match.round
    if match.side == LOSERS:
        return match.round + 1
    return 2 * rounds + match.round
