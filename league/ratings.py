"""Player ratings, pure Python (no Django): multiplayer Elo and OpenSkill side by side.

Elo for more than two players is decomposed into pairs. At a table of N, every pair (i, j) is
one small two-player game: i scores 1 for a better (lower) rank than j, 0.5 for the same rank and
0 for a worse one, against the expectation ``expected_score(R_i, R_j)``. A player's change is
``K / (N - 1)`` times the sum of (actual - expected) over the N - 1 others, so a two-player game is
plain Elo and the changes at a table add up to zero. Ratings are kept unrounded; rounding is for
display only.

The OpenSkill side runs the ``openskill`` package's Plackett-Luce model, each player a team of
one. ``prediction_report`` replays games in time order (predict, then update) and scores how well
a ladder foresaw each winner.

Ranks everywhere are 1-based and lower is better; equal ranks are a tie (openskill reads them
the same way).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

DEFAULT_RATING = 1500.0
DEFAULT_K = 32.0
PROVISIONAL_GAMES = 10  # a rating is provisional under 10 games

_PROBABILITY_FLOOR = 1e-15


def expected_score(rating_a: float, rating_b: float) -> float:
    """A's expected score against B: 1 / (1 + 10^((R_b - R_a) / 400))."""
    exponent = (rating_b - rating_a) / 400.0
    if exponent > 300.0:  # 10**exponent would overflow; the answer is 0 to double precision
        return 0.0
    return 1.0 / (1.0 + 10.0**exponent)


def _check_ranks(count: int, ranks: Sequence[int]) -> None:
    if count < 2:
        raise ValueError(f"a rated game needs at least 2 players, not {count}")
    if len(ranks) != count:
        raise ValueError(f"{count} players but {len(ranks)} ranks")
    for rank in ranks:
        if rank < 1:
            raise ValueError(f"ranks start at 1, got {rank!r}")


def _check_game(players: Sequence, ranks: Sequence[int]) -> None:
    _check_ranks(len(players), ranks)
    if len(set(players)) != len(players):
        raise ValueError("a player may not appear twice in one game")


def elo_deltas(ratings: Sequence[float], ranks: Sequence[int], k: float = DEFAULT_K) -> list[float]:
    """Per seat, the change; ranks are 1-based, equal ranks tie. Raises ValueError on fewer than 2
    players, mismatched lengths, or ranks < 1."""
    n = len(ratings)
    _check_ranks(n, ranks)
    sums = [0.0] * n
    for i in range(n):
        rating_i, rank_i = ratings[i], ranks[i]
        for j in range(i + 1, n):
            rank_j = ranks[j]
            actual = 1.0 if rank_i < rank_j else 0.5 if rank_i == rank_j else 0.0
            # j's side of the pair is the mirror image: (1 - actual) - (1 - expected)
            surprise = actual - expected_score(rating_i, ratings[j])
            sums[i] += surprise
            sums[j] -= surprise
    scale = k / (n - 1)
    return [scale * total for total in sums]


def _first_place_share(strengths: Sequence[float]) -> list[float]:
    """Each entry's share of the total, where strengths are log10-scaled (stable softmax)."""
    top = max(strengths)
    weights = [10.0 ** (s - top) for s in strengths]
    total = sum(weights)
    return [w / total for w in weights]


class EloLadder:
    """Elo ratings of many players, updated game by game (players are any hashable ids)."""

    def __init__(self, k: float = DEFAULT_K, initial: float = DEFAULT_RATING):
        self.k = float(k)
        self.initial = float(initial)
        self.ratings: dict[Hashable, float] = {}
        self.games: dict[Hashable, int] = {}

    def rating(self, player: Hashable) -> float:
        """The current rating; ``initial`` for a player not seen yet."""
        return self.ratings.get(player, self.initial)

    def rate(self, players: Sequence[Hashable], ranks: Sequence[int]) -> list[tuple[float, float]]:
        """Apply one game; returns (before, after) per seat. Every change is computed from the
        ratings before the game, so seat order does not matter."""
        _check_game(players, ranks)
        before = [self.ratings.get(p, self.initial) for p in players]
        deltas = elo_deltas(before, ranks, self.k)
        result = []
        for player, old, delta in zip(players, before, deltas):
            new = old + delta
            self.ratings[player] = new
            self.games[player] = self.games.get(player, 0) + 1
            result.append((old, new))
        return result

    def win_probabilities(self, players: Sequence[Hashable]) -> list[float]:
        """Each player's chance of finishing first: 10^(R_i/400) / sum_j 10^(R_j/400). For two
        players this is ``expected_score``; the list sums to 1."""
        if not players:
            return []
        return _first_place_share([self.rating(p) / 400.0 for p in players])


class OpenSkillLadder:
    """The same over openskill's PlackettLuce model (each player a one-person team)."""

    def __init__(self, model: PlackettLuce | None = None):
        self.model = model if model is not None else PlackettLuce()
        self._ratings: dict[Hashable, object] = {}  # player -> PlackettLuceRating
        self.games: dict[Hashable, int] = {}

    def _rating_object(self, player: Hashable):
        found = self._ratings.get(player)
        return found if found is not None else self.model.rating()

    def rating(self, player: Hashable) -> tuple[float, float]:
        """(mu, sigma); the model's prior for a player not seen yet."""
        found = self._rating_object(player)
        return (found.mu, found.sigma)

    def set_rating(self, player: Hashable, mu: float, sigma: float) -> None:
        """Load a stored (mu, sigma), e.g. to carry on from saved ratings."""
        self._ratings[player] = self.model.rating(mu=float(mu), sigma=float(sigma))

    def ordinal(self, player: Hashable) -> float:
        """openskill's conservative single number, mu - 3 sigma."""
        return self._rating_object(player).ordinal()

    def rate(
        self, players: Sequence[Hashable], ranks: Sequence[int]
    ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """Apply one game; returns ((mu, sigma) before, (mu, sigma) after) per seat."""
        _check_game(players, ranks)
        teams = [[self._rating_object(p)] for p in players]
        before = [(team[0].mu, team[0].sigma) for team in teams]
        updated = self.model.rate(teams, ranks=[int(r) for r in ranks])
        result = []
        for player, old, team in zip(players, before, updated):
            new = team[0]
            self._ratings[player] = new
            self.games[player] = self.games.get(player, 0) + 1
            result.append((old, (new.mu, new.sigma)))
        return result

    def win_probabilities(self, players: Sequence[Hashable]) -> list[float]:
        """openskill's predict_win: each player's chance of finishing first; sums to 1."""
        if len(players) < 2:
            return [1.0] * len(players)
        return self.model.predict_win([[self._rating_object(p)] for p in players])


@dataclass
class PredictionScore:
    games: int
    accuracy: float
    log_loss: float


def prediction_report(games: Iterable[tuple[Sequence, Sequence[int]]], ladder) -> PredictionScore:
    """Predict, then update, in the given (time) order: accuracy = share of games whose favourite
    (highest win probability; ties broken by seat order) finished first (rank 1, ties included);
    log-loss = mean of -ln(sum of the predicted win probabilities of the players ranked 1),
    probabilities clamped to [1e-15, 1]. Games with fewer than 2 players are skipped.

    "Ranked 1" is read as the best rank at the table, which is rank 1 in any well-formed game.
    ``ladder`` is anything with ``win_probabilities(players)`` and ``rate(players, ranks)``
    (EloLadder, OpenSkillLadder). With no scored games, accuracy and log-loss are NaN."""
    scored = 0
    correct = 0
    loss = 0.0
    for players, ranks in games:
        if len(players) < 2:
            continue
        probabilities = ladder.win_probabilities(players)
        best = min(ranks)
        favourite = max(range(len(players)), key=probabilities.__getitem__)  # first seat wins ties
        if ranks[favourite] == best:
            correct += 1
        winners = sum(p for p, r in zip(probabilities, ranks) if r == best)
        loss -= math.log(min(1.0, max(_PROBABILITY_FLOOR, winners)))
        scored += 1
        ladder.rate(players, ranks)
    if not scored:
        return PredictionScore(games=0, accuracy=math.nan, log_loss=math.nan)
    return PredictionScore(games=scored, accuracy=correct / scored, log_loss=loss / scored)


def fit_elo(
    games: Iterable[tuple[Sequence[Hashable], Sequence[int]]],
    anchor: Hashable,
    anchor_rating: float,
    prior_draws: float = 1.0,
) -> dict[Hashable, float]:
    """Ratings on the Elo scale fitted to a set of games at once, not game by game.

    The ratings are those under which :func:`expected_score` best explains every pair's
    results (maximum likelihood, each game decomposed into pairs as :func:`elo_deltas` does),
    so they do not depend on the order the games were played in, as a ladder's do. Each pair
    that met is also given ``prior_draws`` drawn games, so a clean sweep gives a large gap
    rather than an infinite one. The scale is then shifted so ``anchor`` has
    ``anchor_rating``. Every player must be connected to ``anchor`` by games.
    """
    score: dict[Hashable, dict[Hashable, float]] = {}
    met: dict[Hashable, dict[Hashable, float]] = {}
    for players, ranks in games:
        _check_game(players, ranks)
        for i, a in enumerate(players):
            for j, b in enumerate(players):
                if i == j:
                    continue
                actual = 1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0
                score.setdefault(a, {}).setdefault(b, 0.0)
                score[a][b] += actual
                met.setdefault(a, {}).setdefault(b, 0.0)
                met[a][b] += 1.0
    if anchor not in met:
        raise ValueError(f"the anchor {anchor!r} played no games")
    for a, opponents in met.items():
        for b in opponents:
            score[a][b] += prior_draws / 2
            opponents[b] += prior_draws
    reached, frontier = {anchor}, [anchor]
    while frontier:
        for b in met[frontier.pop()]:
            if b not in reached:
                reached.add(b)
                frontier.append(b)
    if len(reached) != len(met):
        raise ValueError("every player must be connected to the anchor by games")
    ratings = {p: DEFAULT_RATING for p in met}
    slope = math.log(10) / 400.0  # d expected / d rating = slope * E * (1 - E)
    for _ in range(1000):
        largest = 0.0
        for a, opponents in met.items():
            gradient = curvature = 0.0
            for b, count in opponents.items():
                expected = expected_score(ratings[a], ratings[b])
                gradient += score[a][b] - count * expected
                curvature += count * slope * expected * (1.0 - expected)
            step = gradient / curvature  # a Newton step on a's own rating
            ratings[a] += step
            largest = max(largest, abs(step))
        if largest < 1e-9:
            break
    shift = anchor_rating - ratings[anchor]
    return {p: r + shift for p, r in ratings.items()}
