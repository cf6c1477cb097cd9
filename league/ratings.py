"""Player ratings, pure Python (no Django): multiplayer Elo and OpenSkill side by side.

Elo for more than two players is decomposed into pairs. At a table of N, every pair (i, j) is
one small two-player game: i scores 1 for a better (lower) rank than j, 0.5 for the same rank and
0 for a worse one, against the expectation ``expected_score(R_i, R_j)``. A player's change is
``K / (N - 1)`` times the sum of (actual - expected) over the N - 1 others, so a two-player game is
plain Elo and the changes at a table add up to zero. Ratings are kept unrounded; rounding is for
display only.

The OpenSkill side runs the ``openskill`` package's Plackett-Luce model (or another of its
models), each player a team of one. Beside them, for the prediction report only, two more
candidates: Elo whose K falls as a player's games add up (:class:`ScheduledEloLadder`) and
Glicko-2 over the same pairwise decomposition (:class:`Glicko2Ladder`). ``prediction_report``
replays games in time order (predict, then update) and scores how well a ladder foresaw each
winner; :data:`CANDIDATES` names every candidate the report and its bench compare.

Ranks everywhere are 1-based and lower is better; equal ranks are a tie (openskill reads them
the same way).
"""

from __future__ import annotations

import datetime as dt
import math
import random
import statistics
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import BradleyTerryFull, PlackettLuce, ThurstoneMostellerFull

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


class ScheduledEloLadder(EloLadder):
    """Elo whose K is each player's own, by the games they had played before this one: a
    newcomer's rating moves fast while it knows little, a regular's slowly. ``schedule`` is
    ((games below, K), ...) in rising order, then the K for everyone past the last bound.

    The default, 60 under 10 games, 40 under 30, then 20, is the one issue 40 measured: 60 lets
    a newcomer reach a 200-point gap in a handful of games, 20 keeps a regular's rating from
    chasing noise. A table's changes no longer add up to zero when its players' Ks differ."""

    DEFAULT_SCHEDULE: tuple[tuple[int, float], ...] = ((10, 60.0), (30, 40.0))
    DEFAULT_LAST_K = 20.0

    def __init__(
        self,
        schedule: Sequence[tuple[int, float]] = DEFAULT_SCHEDULE,
        last_k: float = DEFAULT_LAST_K,
        initial: float = DEFAULT_RATING,
    ):
        super().__init__(k=last_k, initial=initial)
        self.schedule = tuple((int(bound), float(k)) for bound, k in schedule)
        if [b for b, _ in self.schedule] != sorted({b for b, _ in self.schedule}):
            raise ValueError("the schedule's bounds must rise")

    def k_for(self, player: Hashable) -> float:
        """The K of ``player``'s next game."""
        played = self.games.get(player, 0)
        for bound, k in self.schedule:
            if played < bound:
                return k
        return self.k

    def rate(self, players: Sequence[Hashable], ranks: Sequence[int]) -> list[tuple[float, float]]:
        _check_game(players, ranks)
        before = [self.ratings.get(p, self.initial) for p in players]
        unit = elo_deltas(before, ranks, k=1.0)  # each player's own K scales their surprise
        result = []
        for player, old, change in zip(players, before, unit):
            new = old + self.k_for(player) * change
            result.append((old, new))
        for player, (_, new) in zip(players, result):  # after every K was read
            self.ratings[player] = new
            self.games[player] = self.games.get(player, 0) + 1
        return result


# Glicko-2's internal scale: mu = (r - 1500) / GLICKO_SCALE, phi = RD / GLICKO_SCALE.
GLICKO_SCALE = 400.0 / math.log(10.0)  # 173.7178
GLICKO_RD = 350.0
GLICKO_VOLATILITY = 0.06
GLICKO_TAU = 0.5
# c, rating points of deviation per square root of a day away (Glicko's step before a period).
# 5: half a year to a year away takes a regular's RD (about 72 after 20 club games, 62 after
# 30) past 100, provisional again (league.rating_scale); a month adds little (72 to 81).
GLICKO_AGING = 5.0
_GLICKO_EPSILON = 1e-6


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def glicko2_update(
    rating: float,
    deviation: float,
    volatility: float,
    results: Sequence[tuple[float, float, float]],
    tau: float = GLICKO_TAU,
) -> tuple[float, float, float]:
    """One rating period of Glicko-2 for one player, steps 2 to 8 of Glickman's "Example of the
    Glicko-2 system": (rating, deviation, volatility) after ``results``, each (opponent's
    rating, opponent's deviation, score 1 / 0.5 / 0), all on the Glicko (Elo-like) scale. With
    no results only the deviation grows, as the paper's step for a player who did not play."""
    mu = (rating - DEFAULT_RATING) / GLICKO_SCALE
    phi = deviation / GLICKO_SCALE
    if not results:
        return rating, GLICKO_SCALE * math.sqrt(phi * phi + volatility * volatility), volatility
    inverse_v = 0.0
    improvement = 0.0  # sum of g (s - E)
    for other_rating, other_deviation, score in results:
        other_mu = (other_rating - DEFAULT_RATING) / GLICKO_SCALE
        g = _g(other_deviation / GLICKO_SCALE)
        expected = 1.0 / (1.0 + math.exp(-g * (mu - other_mu)))
        inverse_v += g * g * expected * (1.0 - expected)
        improvement += g * (score - expected)
    v = 1.0 / inverse_v
    delta = v * improvement
    # Step 5: the new volatility, the root of f by the Illinois algorithm.
    a = math.log(volatility * volatility)

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta * delta - phi * phi - v - ex) / (2.0 * (phi * phi + v + ex) ** 2) - (
            x - a
        ) / (tau * tau)

    low = a
    if delta * delta > phi * phi + v:
        high = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        high = a - k * tau
    f_low, f_high = f(low), f(high)
    while abs(high - low) > _GLICKO_EPSILON:
        middle = low + (low - high) * f_low / (f_high - f_low)
        f_middle = f(middle)
        if f_middle * f_high <= 0:
            low, f_low = high, f_high
        else:
            f_low /= 2.0
        high, f_high = middle, f_middle
    new_volatility = math.exp(low / 2.0)
    # Steps 6 to 8: the deviation widens by the volatility, then narrows by the games.
    widened = math.sqrt(phi * phi + new_volatility * new_volatility)
    new_phi = 1.0 / math.sqrt(1.0 / (widened * widened) + inverse_v)
    new_mu = mu + new_phi * new_phi * improvement
    return (
        DEFAULT_RATING + GLICKO_SCALE * new_mu,
        GLICKO_SCALE * new_phi,
        new_volatility,
    )


def glicko_aged(deviation: float, days: float, per_day: float, ceiling: float = GLICKO_RD) -> float:
    """Glicko's step before a rating period for a player away ``days`` days: the deviation
    grows as sqrt(RD^2 + c^2 * days), c = ``per_day``, never past ``ceiling`` (a newcomer's;
    a deviation already above it is left as it is). No days (or fewer than none) change
    nothing."""
    if days <= 0 or per_day <= 0:
        return deviation
    return max(deviation, min(math.sqrt(deviation * deviation + per_day * per_day * days), ceiling))


def day_number(moment: dt.datetime) -> float:
    """A moment as the ``when`` of :meth:`Glicko2Ladder.rate`: days since the Unix epoch."""
    return moment.timestamp() / 86400.0


class Glicko2Ladder:
    """Glicko-2 over the pairwise decomposition: each game is one rating period in which every
    player met each of the N - 1 others once (score 1, 0.5 or 0 by rank), all read from the
    ratings before the game. A period a game means no site-wide clock (which would age everyone
    by every game anyone played); instead, when ``rate`` is told when each game was played
    (``when``, in days), a player's deviation first grows with the days since their own last
    game (:func:`glicko_aged`, ``aging`` points per square root of a day). Without ``when``
    nothing ages, as the prediction report runs it."""

    def __init__(
        self,
        deviation: float = GLICKO_RD,
        volatility: float = GLICKO_VOLATILITY,
        tau: float = GLICKO_TAU,
        aging: float = GLICKO_AGING,
    ):
        self.start = (DEFAULT_RATING, float(deviation), float(volatility))
        self.tau = float(tau)
        self.aging = float(aging)
        self.ratings: dict[Hashable, tuple[float, float, float]] = {}
        self.games: dict[Hashable, int] = {}
        self.played: dict[Hashable, float] = {}  # the ``when`` of each player's last game

    def rating(self, player: Hashable) -> tuple[float, float, float]:
        """(rating, deviation, volatility); the start for a player not seen yet."""
        return self.ratings.get(player, self.start)

    def set_rating(
        self,
        player: Hashable,
        state: tuple[float, float, float],
        played: float | None = None,
    ) -> None:
        """Load a stored (rating, deviation, volatility), and when its player last played."""
        self.ratings[player] = (float(state[0]), float(state[1]), float(state[2]))
        if played is not None:
            self.played[player] = float(played)

    def rate(
        self, players: Sequence[Hashable], ranks: Sequence[int], when: float | None = None
    ) -> list[tuple[tuple[float, float, float], tuple[float, float, float]]]:
        """Apply one game; returns (state before, state after) per seat, the state before
        with its deviation aged to ``when`` (days on any fixed clock) if given."""
        _check_game(players, ranks)
        before = [self.rating(p) for p in players]
        if when is not None:
            before = [
                (r, glicko_aged(d, when - self.played[p], self.aging, self.start[1]), v)
                if p in self.played
                else (r, d, v)
                for p, (r, d, v) in zip(players, before)
            ]
        result = []
        for i, (rating, deviation, volatility) in enumerate(before):
            results = [
                (
                    before[j][0],
                    before[j][1],
                    1.0 if ranks[i] < ranks[j] else 0.5 if ranks[i] == ranks[j] else 0.0,
                )
                for j in range(len(players))
                if j != i
            ]
            after = glicko2_update(rating, deviation, volatility, results, self.tau)
            result.append((before[i], after))
        for player, (_, after) in zip(players, result):
            self.ratings[player] = after
            self.games[player] = self.games.get(player, 0) + 1
            if when is not None:
                self.played[player] = float(when)
        return result

    def win_probabilities(self, players: Sequence[Hashable]) -> list[float]:
        """Each player's chance of finishing first: a Luce share of exp(g * mu), where g is
        Glicko-2's discount g(sqrt(2 * mean phi^2)). For two players that is exactly Glicko-2's
        expectation 1 / (1 + exp(-g(sqrt(phi_a^2 + phi_b^2)) (mu_a - mu_b))); the more
        uncertain the table, the nearer the shares are to even."""
        if not players:
            return []
        states = [self.rating(p) for p in players]
        mean_square = sum((d / GLICKO_SCALE) ** 2 for _, d, _ in states) / len(states)
        g = _g(math.sqrt(2.0 * mean_square))
        # log10-scaled strengths for _first_place_share: exp(x) = 10^(x / ln 10)
        return _first_place_share(
            [g * (r - DEFAULT_RATING) / GLICKO_SCALE / math.log(10.0) for r, _, _ in states]
        )


class OpenSkillLadder:
    """The same over an openskill model, PlackettLuce unless told (each player a one-person
    team); BradleyTerryFull and ThurstoneMostellerFull take the same calls."""

    def __init__(
        self, model: PlackettLuce | BradleyTerryFull | ThurstoneMostellerFull | None = None
    ):
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
        # The three models' rate() are typed apart; each returns teams of rating objects.
        updated: list[list[Any]] = self.model.rate(teams, ranks=[int(r) for r in ranks])
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


class UniformGuess:
    """The floor: every player equally likely to win, and nothing learnt."""

    def rate(self, players: Sequence[Hashable], ranks: Sequence[int]) -> list:
        return []

    def win_probabilities(self, players: Sequence[Hashable]) -> list[float]:
        return [1 / len(players)] * len(players) if players else []


# Every candidate of the prediction report, by the name it prints under, and how to make a fresh
# ladder of it. Glicko-2 is the one the site ships (SHIPPED): the best calibrated at 10 and 30
# games a player in the club-scale report (docs/ratings.md).
CANDIDATES: dict[str, Callable[[], object]] = {
    "elo k=32": EloLadder,
    "elo k 60/40/20": ScheduledEloLadder,
    "glicko-2": Glicko2Ladder,
    "openskill pl": lambda: OpenSkillLadder(PlackettLuce()),
    "openskill bt": lambda: OpenSkillLadder(BradleyTerryFull()),
    "openskill tm": lambda: OpenSkillLadder(ThurstoneMostellerFull()),
}
SHIPPED = "glicko-2"

# Two win probabilities this close are one tie for favourite (a Luce share of equal ratings
# can differ in the last bits by the seats' order in the sum).
_FAVOURITE_TIE = 1e-12


@dataclass
class PredictionScore:
    """What :func:`prediction_report` found. ``chance`` is the accuracy of a favourite picked
    at random: the mean over games of (players ranked first / players); ``lift`` is accuracy
    over chance, 1 for a guess; ``log_loss_se`` the standard error of the log-loss, a mean over
    games (their losses' standard deviation over the square root of their number)."""

    games: int
    accuracy: float
    log_loss: float
    chance: float = math.nan
    lift: float = math.nan
    log_loss_se: float = math.nan


def prediction_report(
    games: Iterable[tuple[Sequence, Sequence[int]]],
    ladder,
    rng: random.Random | None = None,
) -> PredictionScore:
    """Predict, then update, in the given (time) order: accuracy = share of games whose favourite
    (highest win probability) finished first (rank 1, ties included); log-loss = mean of
    -ln(sum of the predicted win probabilities of the players ranked 1), probabilities clamped
    to [1e-15, 1]; chance and lift as :class:`PredictionScore` says. Games with fewer than 2
    players are skipped.

    Players tied for favourite are picked among by ``rng`` (``random.Random(0)`` unless given),
    not by seat: a seat-order pick scores a table of newcomers by whoever sat first, and in a
    history where the first seat wins more often than chance that flattered every ladder.

    "Ranked 1" is read as the best rank at the table, which is rank 1 in any well-formed game.
    ``ladder`` is anything with ``win_probabilities(players)`` and ``rate(players, ranks)``
    (:data:`CANDIDATES`, :class:`UniformGuess`). With no scored games, every figure but games
    is NaN."""
    rng = rng if rng is not None else random.Random(0)
    scored = 0
    correct = 0
    losses: list[float] = []
    chance = 0.0
    for players, ranks in games:
        if len(players) < 2:
            continue
        probabilities = ladder.win_probabilities(players)
        best = min(ranks)
        top = max(probabilities)
        favourites = [i for i, p in enumerate(probabilities) if p >= top - _FAVOURITE_TIE]
        favourite = favourites[0] if len(favourites) == 1 else rng.choice(favourites)
        if ranks[favourite] == best:
            correct += 1
        first = [p for p, r in zip(probabilities, ranks) if r == best]
        losses.append(-math.log(min(1.0, max(_PROBABILITY_FLOOR, sum(first)))))
        chance += len(first) / len(players)
        scored += 1
        ladder.rate(players, ranks)
    if not scored:
        return PredictionScore(games=0, accuracy=math.nan, log_loss=math.nan)
    accuracy = correct / scored
    spread = statistics.stdev(losses) / math.sqrt(scored) if scored > 1 else math.nan
    return PredictionScore(
        games=scored,
        accuracy=accuracy,
        log_loss=statistics.fmean(losses),
        chance=chance / scored,
        lift=accuracy / (chance / scored),
        log_loss_se=spread,
    )


def score_table(rows: dict[str, tuple[float, float, float, float]]) -> list[str]:
    """The report's table, one line a candidate: log-loss first (lower is better; the best
    starred), with its standard error, then accuracy and lift over chance. ``rows`` maps a
    name to (log-loss, its standard error, accuracy, lift)."""
    best = min(rows, key=lambda name: rows[name][0])
    lines = [f"  {'candidate':<16} {'log-loss':>8} {'± se':>7} {'accuracy':>9} {'lift':>6}"]
    for name, (loss, se, accuracy, lift) in rows.items():
        mark = "*" if name == best else " "
        lines.append(f"{mark} {name:<16} {loss:>8.4f} {se:>7.4f} {accuracy:>9.3f} {lift:>6.2f}")
    return lines


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
