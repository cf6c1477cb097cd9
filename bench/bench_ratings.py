"""A full rating recompute: multiplayer Elo against openskill's Plackett-Luce, same games, same run.

Synthetic games, seeded: each has 2 to 4 players drawn from a pool with hidden true strengths
(normal, sd 200 on the Elo scale); a player's showing in a game is their strength plus normal
noise (sd 200), the table is ranked by showing, and neighbours in the order tie with a small
probability (standard ranks: 1, 1, 3). Then, in the same run:
  (a) Elo: every game through league.ratings.EloLadder.rate, from scratch;
  (b) OpenSkill: the same games through league.ratings.OpenSkillLadder.rate, i.e. openskill's
      PlackettLuce().rate() with each player a one-person team.
Each recompute is repeated; games/s is best / median of the repeats, and the ratio is of the
best rates. Finally, as a sanity check, both systems predict each game's winner in time order
(predict, then update) through league.ratings.prediction_report, next to a favourite picked by
the hidden strengths themselves.

    .venv/bin/python bench/bench_ratings.py [--games 100000] [--players 2000] [--repeats 3]
                                            [--seed 11]
"""

from __future__ import annotations

import argparse
import math
import random
import time

import _common

from league.ratings import EloLadder, OpenSkillLadder, prediction_report

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000, help="games (default 100000)")
    parser.add_argument("--players", type=int, default=2000, help="pool size (default 2000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()

    _common.header("Ratings: full recompute, Elo vs openskill, no Django")
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
