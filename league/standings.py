"""Tournament and league standings, pure Python (no Django): points by placement, then
tie-breaks for a tournament; points, wins, average place and a league's own Elo for a league.

Each game gives its players points by where they placed, from a table per table size (defaults:
2 players 1/0; 3 players 5/3/1; 4 players 5/3/2/1). Tied players share the points of the places
they cover: two tied for first at a table of four take (5 + 3) / 2 = 4 each and the next player,
ranked 3, takes 2. A bye is worth ``bye_points``.

In a tournament, a table that falls back to fewer seats scores on the full table's scale
(``fallback_placement``): a player's points are those of the same relative place at the full
table, place i of n (counting from 0) sitting at i * (N - 1) / (n - 1) of the full table's N
places and taking the points there, interpolated between two places. So the winner of a short
table always gets the full table's first-place points and its last the full table's last: at
tables of 3 (5/3/1) a table of 2 scores 5/1; at tables of 4 (5/3/2/1) a table of 3 scores
5/2.5/1 and a table of 2 scores 5/1.

Players on equal points are then told apart by the tie-breaks, in the configured order, higher
better for each:

- ``buchholz``: the mean over the player's games of the opponents' mean points (each
  opponent's points in the whole event, averaged over the others at that table), so a game at
  a short table weighs as much as one at a full table and a bye costs nothing;
- ``score``: total game score (an unknown score, e.g. of a forfeit, counts 0);
- ``share``: over the player's games, their part of the table's score on a scale that starts
  at the table's lowest score when that is negative: score minus min(0, lowest score), over
  the table's total of the same (an equal part each where that total is 0, so a table of equal
  scores shares equally). Higher- and lower-scoring tables weigh alike, and a negative score
  never takes a larger part than a higher one;
- ``wins``: games ranked first, ties for first included;
- ``median_buchholz``: Buchholz without the player's best and worst game (by the opponents'
  mean points there), once they have played three games or more, so one lucky or unlucky
  pairing weighs less;
- ``opponents_share``: the average over the player's opponents (once per game met) of each
  one's placement share, the points they took from games over the most those games could have
  given (first place at each), floored at ``share_floor`` (by default 1/3, as in
  opponents' match-win percentage; a tournament uses 1 / (table size + 1)), so meeting a
  player who did badly costs less;
- ``head_to_head``: among the players still tied on points and on every tie-break before this
  one, the points each earned in games where at least two of them sat at the table. At a
  two-player table that is the classic head to head; at a larger table it is the placement points
  of that game, so finishing ahead of the other tied players and of the rest both count.

Tie-break formulas have versions (``TIEBREAK_VERSION``, the current one); standings are
recomputed from results, so an event keeps the version it was played under and its published
standings never change. Version 1 (before issue 38) summed Buchholz over every opponent (a
player at short tables met fewer and lost tie-break points) and took the share as the plain
score over the table's total (0 where that is 0), which a negative score inverts; its median
Buchholz was the sum without the best and worst game's opponents' total.

Buchholz and head to head count games only; byes add points and nothing else. Values are
compared after rounding to nine decimal places, so points summed in a different order still tie;
players tied on everything keep the order they were given in.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass

from league.ratings import DEFAULT_K, DEFAULT_RATING, GLICKO_RD, EloLadder, Glicko2Ladder

DEFAULT_PLACEMENT_POINTS: Mapping[int, tuple[float, ...]] = {
    2: (1, 0),
    3: (5, 3, 1),
    4: (5, 3, 2, 1),
}
DEFAULT_TIEBREAKS = ("buchholz", "score", "share", "wins", "head_to_head")
TIEBREAKS = (*DEFAULT_TIEBREAKS, "median_buchholz", "opponents_share")  # every one known
TIEBREAK_VERSION = 2  # the formulas of new events; see the module docstring
TIEBREAK_VERSIONS = (1, 2)

_HEAD_TO_HEAD = "head_to_head"
_DIGITS = 9  # rounding before comparison, so float sums in another order still tie


def placement_points(ranks: Sequence[int], table_points: Sequence[float]) -> list[float]:
    """Points per seat from 1-based ranks (lower is better, equal ranks tie) and the points of
    each place at this table, first place first. Tied players share the points of the places they
    cover; only the order of the ranks matters, so ranks 1, 1, 2 read as 1, 1, 3."""
    if len(ranks) != len(table_points):
        raise ValueError(f"{len(ranks)} ranks but points for {len(table_points)} places")
    if any(rank < 1 for rank in ranks):
        raise ValueError(f"ranks start at 1: {list(ranks)}")
    seats = sorted(range(len(ranks)), key=ranks.__getitem__)
    points = [0.0] * len(ranks)
    place = 0
    while place < len(seats):
        end = place
        while end < len(seats) and ranks[seats[end]] == ranks[seats[place]]:
            end += 1
        shared = sum(table_points[place:end]) / (end - place)
        for seat in seats[place:end]:
            points[seat] = shared
        place = end
    return points


def scaled_points(full: Sequence[float], size: int) -> list[float]:
    """The points of each place at a table of ``size`` on the scale of a full table whose places
    score ``full``: place i (from 0) takes the full table's points at position
    i * (len(full) - 1) / (size - 1), interpolated between the two places around it."""
    if not 2 <= size <= len(full):
        raise ValueError(f"a table of {size} cannot score on the scale of a table of {len(full)}")
    last = len(full) - 1
    points = []
    for place in range(size):
        position = place * last / (size - 1)
        below = min(int(position), last - 1)
        fraction = position - below
        value = full[below] * (1 - fraction) + full[below + 1] * fraction
        value = round(value, _DIGITS)
        points.append(int(value) if value.is_integer() else value)
    return points


def fallback_placement(
    placement: Mapping[int, Sequence[float]], table_size: int, given: Sequence[int] = ()
) -> dict[int, list[float]]:
    """``placement`` with every size below ``table_size`` scored on the full table's scale
    (``scaled_points``), except the sizes in ``given``, which an organiser chose."""
    full = placement[table_size]
    return {
        size: (
            scaled_points(full, size) if size < table_size and size not in given else list(points)
        )
        for size, points in placement.items()
    }


@dataclass(frozen=True)
class GameResult:
    """One finished game: players by seat, their 1-based ranks and game scores (None where
    unknown, e.g. a forfeit)."""

    players: tuple
    ranks: tuple[int, ...]
    scores: tuple[float | None, ...]

    def __post_init__(self):
        if not len(self.players) == len(self.ranks) == len(self.scores):
            raise ValueError(
                f"{len(self.players)} players, {len(self.ranks)} ranks and"
                f" {len(self.scores)} scores"
            )
        if len(set(self.players)) != len(self.players):
            raise ValueError("a player may not appear twice in one game")


@dataclass(frozen=True)
class Standing:
    """A player's line in the standings; ``tiebreaks`` in the configured order."""

    player: Hashable
    points: float
    tiebreaks: tuple[float, ...]
    games: int
    wins: int
    byes: int


def standings(
    players: Sequence,
    results: Sequence[GameResult],
    *,
    byes: Sequence = (),
    bye_points: float = 0.0,
    placement: Mapping[int, Sequence[float]] = DEFAULT_PLACEMENT_POINTS,
    tiebreaks: Sequence[str] = DEFAULT_TIEBREAKS,
    share_floor: float = 1 / 3,
    tiebreak_version: int = TIEBREAK_VERSION,
) -> list[Standing]:
    """Everyone in ``players`` in standing order: points, then each tie-break in ``tiebreaks``
    (see the module docstring), by the formulas of ``tiebreak_version``. Players without games
    are included with 0 points. ``byes`` names a player once per bye received. ValueError for
    an unknown or repeated tie-break or version, a table size missing from ``placement``, or a
    player in ``results`` or ``byes`` who is not in ``players``."""
    _check_tiebreaks(tiebreaks)
    if tiebreak_version not in TIEBREAK_VERSIONS:
        raise ValueError(f"no tie-break version {tiebreak_version}; known: {TIEBREAK_VERSIONS}")
    index = {player: i for i, player in enumerate(players)}
    if len(index) != len(players):
        raise ValueError("a player appears twice")
    count = len(players)
    points = [0.0] * count
    bye_count = [0] * count
    for player in byes:
        i = _index_of(index, player)
        bye_count[i] += 1
        points[i] += bye_points

    games = []  # (player indices, points earned per seat), for buchholz and head to head
    played = [0] * count
    wins = [0] * count
    score = [0.0] * count
    share = [0.0] * count
    for result in results:
        seats = [_index_of(index, player) for player in result.players]
        table_points = placement.get(len(seats))
        if table_points is None:
            raise ValueError(f"no placement points for a table of {len(seats)}")
        earned = placement_points(result.ranks, table_points)
        known = [0.0 if s is None else float(s) for s in result.scores]
        parts = _shares(known) if tiebreak_version >= 2 else _plain_shares(known)
        best = min(result.ranks)
        for seat, i in enumerate(seats):
            points[i] += earned[seat]
            played[i] += 1
            wins[i] += result.ranks[seat] == best
            score[i] += known[seat]
            share[i] += parts[seat]
        games.append((seats, earned))

    values: dict[str, Sequence[float]] = {"score": score, "share": share, "wins": wins}
    if "buchholz" in tiebreaks or "median_buchholz" in tiebreaks:
        per_game: list[list[float]] = [[] for _ in range(count)]
        for seats, _ in games:
            table_total = sum(points[i] for i in seats)
            opponents = len(seats) - 1 if tiebreak_version >= 2 else 1
            for i in seats:
                per_game[i].append((table_total - points[i]) / opponents)
        total: Callable[[Sequence[float]], float] = _mean if tiebreak_version >= 2 else sum
        values["buchholz"] = [total(line) for line in per_game]
        values["median_buchholz"] = [
            total(sorted(line)[1:-1]) if len(line) >= 3 else total(line) for line in per_game
        ]
    if "opponents_share" in tiebreaks:
        values["opponents_share"] = _opponents_share(count, results, games, placement, share_floor)

    keys = [[_rounded(points[i])] for i in range(count)]
    for name in tiebreaks:
        if name == _HEAD_TO_HEAD:
            values[name] = _head_to_head(keys, games)
        for i in range(count):
            keys[i].append(_rounded(values[name][i]))
    order = sorted(range(count), key=keys.__getitem__, reverse=True)  # stays stable on ties
    return [
        Standing(
            player=players[i],
            points=points[i],
            tiebreaks=tuple(float(values[name][i]) for name in tiebreaks),
            games=played[i],
            wins=wins[i],
            byes=bye_count[i],
        )
        for i in order
    ]


def _shares(scores: Sequence[float]) -> list[float]:
    """Each seat's part of the table's score, on a scale starting at min(0, the lowest score);
    equal parts where every score is that low (see the module docstring)."""
    low = min(0.0, *scores)
    shifted = [score - low for score in scores]
    total = sum(shifted)
    if not total:
        return [1 / len(scores)] * len(scores)
    return [value / total for value in shifted]


def _plain_shares(scores: Sequence[float]) -> list[float]:
    """Version 1: score over the table's total, 0 where that is 0 (a negative score inverts)."""
    total = sum(scores)
    return [score / total if total else 0.0 for score in scores]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _opponents_share(count, results, games, placement, floor: float) -> list[float]:
    """Per player, the mean placement share of their opponents, each floored at ``floor``."""
    earned = [0.0] * count
    most = [0.0] * count
    for result, (seats, points) in zip(results, games):
        best = max(placement[len(result.players)])
        for seat, i in enumerate(seats):
            earned[i] += points[seat]
            most[i] += best
    share = [max(earned[i] / most[i] if most[i] else 0.0, floor) for i in range(count)]
    total = [0.0] * count
    met = [0] * count
    for seats, _ in games:
        for i in seats:
            for j in seats:
                if i != j:
                    total[i] += share[j]
                    met[i] += 1
    return [total[i] / met[i] if met[i] else 0.0 for i in range(count)]


def _check_tiebreaks(tiebreaks: Sequence[str]) -> None:
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-breaks {unknown}; known: {', '.join(TIEBREAKS)}")
    if len(set(tiebreaks)) != len(tiebreaks):
        raise ValueError(f"a tie-break is named twice: {list(tiebreaks)}")


def _index_of(index: Mapping, player: Hashable) -> int:
    try:
        return index[player]
    except KeyError:
        raise ValueError(f"{player!r} is not one of the players") from None


def _rounded(value: float) -> float:
    return round(value, _DIGITS)


def _head_to_head(keys: list[list[float]], games) -> list[float]:
    """Per player, the points earned in games shared with another player of the same key (the
    players tied so far)."""
    group = {i: tuple(key) for i, key in enumerate(keys)}
    size: dict[tuple, int] = {}
    for key in group.values():
        size[key] = size.get(key, 0) + 1
    earned_together = [0.0] * len(keys)
    for seats, earned in games:
        tied = [group[i] for i in seats if size[group[i]] > 1]
        for seat, i in enumerate(seats):
            if size[group[i]] > 1 and tied.count(group[i]) > 1:
                earned_together[i] += earned[seat]
    return earned_together


# -- league standings -----------------------------------------------------------------------------


@dataclass(frozen=True)
class LeagueStanding:
    """A player's line in a league's standings over some of its games."""

    player: Hashable
    games: int
    wins: int
    points: float
    average_place: float
    elo: float
    # The league's own Glicko-2 ladder, the model the site's ratings use (league.rating_scale
    # shows it): the stored deviation, and the day (league.ratings.day_number) of the player's
    # last game here when the games were given with their days.
    rating: float = DEFAULT_RATING
    deviation: float = GLICKO_RD
    last_played: float | None = None


def table_points(size: int, placement: Mapping[int, Sequence[float]]) -> tuple[float, ...]:
    """The points of each place at a table of ``size``. A table larger than the scale goes (a
    Deep Sea Adventure crew of five or six) takes the largest scale and gives nothing below its
    last place; a smaller one takes the smallest scale's first places."""
    if size in placement:
        return tuple(placement[size])
    largest = placement[max(placement)]
    if size > max(placement):
        return tuple(largest) + (0.0,) * (size - len(largest))
    return tuple(placement[min(placement)])[:size]


class LeagueTable:
    """A league's standings kept game by game (see :func:`league_standings` for the figures):
    ``add`` each game in the order played, read ``standings`` at any time. Plain data, so a
    table can be stored and later carried on with the games played since.

    ``counts`` says whether a player is listed and rated (everyone when None)."""

    def __init__(
        self,
        *,
        counts: Callable[[Hashable], bool] | None = None,
        placement: Mapping[int, Sequence[float]] = DEFAULT_PLACEMENT_POINTS,
        k: float = DEFAULT_K,
    ):
        self.counts = counts
        self.placement = placement
        self.ladder = EloLadder(k=k)
        self.glicko = Glicko2Ladder()
        self.lines: dict[Hashable, list[float]] = {}  # player -> [games, wins, points, ranks]

    def add(self, result: GameResult, when: float | None = None) -> None:
        """Take in one game; ``when`` (its day, league.ratings.day_number) ages each player's
        deviation by the days since their last game here, as the site's ratings do."""
        earned = placement_points(result.ranks, table_points(len(result.players), self.placement))
        best = min(result.ranks)
        rated = []
        for seat, player in enumerate(result.players):
            if self.counts is not None and not self.counts(player):
                continue
            line = self.lines.setdefault(player, [0, 0, 0.0, 0])
            line[0] += 1
            line[1] += result.ranks[seat] == best
            line[2] += earned[seat]
            line[3] += result.ranks[seat]
            rated.append(seat)
        if len(rated) >= 2:
            players = [result.players[s] for s in rated]
            ranks = [result.ranks[s] for s in rated]
            self.ladder.rate(players, ranks)
            self.glicko.rate(players, ranks, when=when)

    def standings(self) -> list[LeagueStanding]:
        table = [
            LeagueStanding(
                player=player,
                games=int(games),
                wins=int(wins),
                points=points,
                average_place=ranks / games,
                elo=self.ladder.rating(player),
                rating=self.glicko.rating(player)[0],
                deviation=self.glicko.rating(player)[1],
                last_played=self.glicko.played.get(player),
            )
            for player, (games, wins, points, ranks) in self.lines.items()
        ]
        table.sort(
            key=lambda s: (
                -_rounded(s.points),
                -s.wins,
                _rounded(s.average_place),
                -_rounded(s.elo),
            )
        )
        return table


def league_standings(
    results: Sequence[GameResult],
    *,
    counted: Collection | None = None,
    placement: Mapping[int, Sequence[float]] = DEFAULT_PLACEMENT_POINTS,
    k: float = DEFAULT_K,
) -> list[LeagueStanding]:
    """The standings over ``results``, given in the order they were played.

    Everyone at a table takes their place there, but only the players in ``counted`` (everyone
    when it is None) are listed and rated: a guest at a club table pushes the members below
    them down a place, and is otherwise left out. For each listed player:

    - ``points``: placement points on the tournament scale (``placement``: 2 players 1/0,
      3 players 5/3/1, 4 players 5/3/2/1; see ``table_points`` for other sizes). Tied players
      share the average of the points of the places they cover, as in a tournament: two tied
      first of four take (5 + 3) / 2 = 4 each;
    - ``wins``: games ranked first, a shared first included;
    - ``average_place``: the mean rank as recorded (1 is first; tied players share the better
      rank, so two tied first of four are both 1 and the next is 3);
    - ``elo``: an Elo ladder of these games only, everyone starting at 1500, the games taken
      in the order given (league.ratings.EloLadder); a game with fewer than two listed players
      changes no one's Elo.
    - ``rating`` and ``deviation``: the league's own ladder in the site's model, Glicko-2
      (league.ratings.Glicko2Ladder) over the same games, with the same rule for who is rated.

    Players are listed by points, then wins, then the better average place, then Elo; players
    equal on all four keep the order they first appear in."""
    table = LeagueTable(
        counts=None if counted is None else counted.__contains__, placement=placement, k=k
    )
    for result in results:
        table.add(result)
    return table.standings()
