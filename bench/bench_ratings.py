"""A full rating recompute: multiplayer Elo against openskill's Plackett-Luce, same games, same run.

Synthetic games, seeded: each has 2 to 4 players drawn from a pool with hidden true strengths
(normal, sd 200 on the Elo scale); a player's showing in a game is their strength plus normal
noise (sd 200), the table is ranked by showing, and neighbours in the order tie with a small
probability (standard ranks: 1, 1, 3). Then, in the same run:
  (a) Elo: every game through league.ratings.EloLadder.rate, from scratch;
  (b) OpenSkill: the same games through league.ratings.OpenSkillLadder.rate, i.e. openskill's
      PlackettLuce().rate() with each player a one-person team.
Each recompute is repeated; games/s is best / median of the repeats, and the ratio is of the
best rates. Then, as a sanity check, both systems predict each game's winner in time order
(predict, then update) through league.ratings.prediction_report, next to a favourite picked by
the hidden strengths themselves.

Finally the headline (issue 40): the report at club scale. A club of --club players plays the
same kind of games until each has played about 5, 10, 30 or 150 (a table holds 3 on average,
so games = players x games a player / 3); every candidate of league.ratings.CANDIDATES predicts
them in time order, on --seeds clubs of fresh strengths (--seeds-150 at 150 games a player,
where the spread between seeds is small). Per candidate: log-loss, mean and standard error over
the seeds; accuracy and lift over chance, means. The best log-loss of each scenario is starred,
and the shipped model (league.ratings.SHIPPED) is checked against it at 10 games a player, by
its own standard error and by the seeds' paired differences.

    .venv/bin/python bench/bench_ratings.py [--games 100000] [--players 2000] [--repeats 3]
                                            [--seed 11] [--club-only] [--club 40]
                                            [--seeds 300] [--seeds-150 40]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

import _common

from league.ratings import (
    CANDIDATES,
    SHIPPED,
    EloLadder,
    OpenSkillLadder,
    UniformGuess,
    prediction_report,
    score_table,
)

STRENGTH_SD = 200.0
NOISE_SD = 200.0
TIE_CHANCE = 0.05  # per pair of neighbours in the finishing order


def synthetic_games(
    count: int, pool: int, seed: int
) -> tuple[list[tuple[list[int], list[int]]], list[float]]:
    """``count`` games over players 0..pool-1, and the hidden strengths behind them."""
    rng = random.Random(seed)
    strengths = [rng.gauss(0.0, STRENGTH_SD) for _ in range(pool)]
    games = []
    for _ in range(count):
        table = rng.sample(range(pool), rng.randint(2, 4))
        showing = {p: strengths[p] + rng.gauss(0.0, NOISE_SD) for p in table}
        order = sorted(table, key=showing.__getitem__, reverse=True)
        rank_of = {order[0]: 1}
        for place in range(1, len(order)):
            tied = rng.random() < TIE_CHANCE
            rank_of[order[place]] = rank_of[order[place - 1]] if tied else place + 1
        games.append((table, [rank_of[p] for p in table]))  # seats in drawn order, not by rank
    return games, strengths


def recompute(make_ladder, games) -> float:
    """Seconds for one full recompute of ``games`` on a fresh ladder."""
    ladder = make_ladder()
    rate = ladder.rate
    start = time.perf_counter()
    for players, ranks in games:
        rate(players, ranks)
    return time.perf_counter() - start


def oracle_accuracy(games, strengths) -> float:
    """Share of games won (rank 1, ties included) by the player with the highest true strength."""
    hits = 0
    for players, ranks in games:
        favourite = max(range(len(players)), key=lambda seat: strengths[players[seat]])
        hits += ranks[favourite] == min(ranks)
    return hits / len(games)


GAMES_A_PLAYER = (5, 10, 30, 150)
MEAN_TABLE = 3  # tables of 2 to 4, evenly


def _mean_and_error(values: list[float]) -> tuple[float, float]:
    mean = statistics.fmean(values)
    return mean, statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.nan


def club_scale(club: int, seeds: int, seeds_150: int) -> None:
    """The report at club scale: every candidate, every scenario, many clubs (seeds)."""
    start = time.perf_counter()
    print(
        f"\nthe report at club scale: a club of {club} players, tables of 2-4, strength sd"
        f" {STRENGTH_SD:.0f}, noise sd {NOISE_SD:.0f}; log-loss mean ± standard error over the"
        " seeds, accuracy and lift (accuracy / chance) their means; * the best log-loss"
    )
    names = [*CANDIDATES, "uniform guess"]
    for per_player in GAMES_A_PLAYER:
        count = round(club * per_player / MEAN_TABLE)
        runs = seeds_150 if per_player >= 150 else seeds
        losses: dict[str, list[float]] = {name: [] for name in names}
        accuracies: dict[str, list[float]] = {name: [] for name in names}
        lifts: dict[str, list[float]] = {name: [] for name in names}
        for seed in range(runs):
            games, _ = synthetic_games(count, club, 1000 * per_player + seed)
            for name in names:
                ladder = CANDIDATES[name]() if name in CANDIDATES else UniformGuess()
                score = prediction_report(games, ladder, random.Random(seed))
                losses[name].append(score.log_loss)
                accuracies[name].append(score.accuracy)
                lifts[name].append(score.lift)
        rows = {}
        for name in names:
            loss, error = _mean_and_error(losses[name])
            rows[name] = (
                loss,
                error,
                statistics.fmean(accuracies[name]),
                statistics.fmean(lifts[name]),
            )
        print(f"~{per_player} games a player: {count} games, {runs} seeds")
        for line in score_table(rows):
            print(line)
        best = min(rows, key=lambda name: rows[name][0])
        if per_player == 10:
            shipped, shipped_error = rows[SHIPPED][:2]
            gap = [a - b for a, b in zip(losses[SHIPPED], losses[best])]
            gap_mean, gap_error = _mean_and_error(gap) if best != SHIPPED else (0.0, 0.0)
            better = sum(a < b for a, b in zip(losses[SHIPPED], losses[best]))
            verdict = "within" if shipped - rows[best][0] <= shipped_error else "NOT within"
            print(
                f"  shipped ({SHIPPED}) at 10 games a player: {verdict} its standard error of the"
                f" best ({best}): {shipped:.4f} ± {shipped_error:.4f} against {rows[best][0]:.4f};"
                f" paired over the seeds {gap_mean:+.4f} ± {gap_error:.4f},"
                f" better in {better} of {runs}"
            )
    print(f"club scale took {time.perf_counter() - start:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games (default 100000)")
    parser.add_argument("--players", type=int, default=2000, help="pool size (default 2000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--club-only", action="store_true", help="only the report at club scale")
    parser.add_argument("--club", type=int, default=40, help="players in a club (default 40)")
    parser.add_argument("--seeds", type=int, default=300, help="clubs a scenario (default 300)")
    parser.add_argument(
        "--seeds-150", type=int, default=40, help="clubs at 150 games a player (default 40)"
    )
    args = parser.parse_args()

    _common.header("Ratings: full recompute, Elo vs openskill, and the report at club scale")
    if not args.club_only:
        recompute_and_predict(args)
    club_scale(args.club, args.seeds, args.seeds_150)


def recompute_and_predict(args) -> None:
    start = time.perf_counter()
    games, strengths = synthetic_games(args.games, args.players, args.seed)
    sizes = [len(players) for players, _ in games]
    tied = sum(len(set(ranks)) < len(ranks) for _, ranks in games)
    print(
        f"{len(games):,} synthetic games over {args.players:,} players (seed {args.seed}),"
        f" made in {time.perf_counter() - start:.2f} s: "
        + ", ".join(f"{sizes.count(n):,} x {n}p" for n in (2, 3, 4))
        + f"; {tied:,} with a tie ({tied / len(games):.1%})"
    )
    print(f"{args.repeats} repeats of each recompute; best / median of the repeats")

    rates = {}
    print(f"{'system':<22} {'games/s best':>13} {'median':>10} {'us/game best':>13}")
    for name, make in (("Elo (EloLadder)", EloLadder), ("OpenSkill (PL rate)", OpenSkillLadder)):
        seconds = [recompute(make, games) for _ in range(args.repeats)]
        best, median = _common.best_and_median([len(games) / s for s in seconds])
        rates[name] = best
        print(f"{name:<22} {best:>13,.0f} {median:>10,.0f} {1e6 / best:>13.2f}")
    elo, skill = rates.values()
    print(f"ratio: Elo recomputes {elo / skill:.1f}x as many games per second as openskill")

    print("prediction, in time order (predict, then update):")
    print(f"{'system':<22} {'accuracy':>9} {'log-loss':>9}")
    for name, ladder in (("Elo", EloLadder()), ("OpenSkill", OpenSkillLadder())):
        score = prediction_report(games, ladder)
        print(f"{name:<22} {score.accuracy:>9.4f} {score.log_loss:>9.4f}")
    chance = sum(1 / n for n in sizes) / len(sizes)
    print(
        f"{'hidden strengths':<22} {oracle_accuracy(games, strengths):>9.4f} {'':>9}  (the ceiling)"
    )
    print(
        f"{'a uniform guess':<22} {chance:>9.4f}"
        f" {-sum(math.log(1 / n) for n in sizes) / len(sizes):>9.4f}  (the floor, ties aside)"
    )


if __name__ == "__main__":
    main()
