"""Double elimination's bracket (league.double_elimination), no Django: does every event end
with a champion when players drop, and how often does a player dropping into the losers'
bracket meet, at once, someone they met already?

  (a) Champions: --events seeded events per field size from 3 to 32 players, each match won
      at random, and after each round, with probability 0.3, a random player still in drops
      (never the last one). Goal: a champion in 100% of events.
  (b) Rematches on dropping in: brackets of 8, 16 and 32, every match won at random
      (--brackets per size); of the matches of the losers' even rounds, where the losers of
      the winners' bracket come in, the share in which the two had met already. Against the
      reference of taking the newcomers in order (match i of the losers' round gets the loser
      of winners' match i), the naive layout.

    .venv/bin/python bench/bench_double_elimination.py [--events 60] [--brackets 30]
"""

from __future__ import annotations

import argparse
import random

import _common

from league import double_elimination as de

SIZES = (3, 4, 5, 6, 7, 8, 9, 12, 16, 23, 32)


def champions(events: int) -> tuple[int, int]:
    played = crowned = 0
    for players in SIZES:
        for run in range(events):
            rng = random.Random(f"{players}:{run}")
            seeds = [f"p{i}" for i in range(1, players + 1)]
            results: dict[str, str] = {}
            dropped: dict[str, int] = {}
            bracket = de.bracket(seeds, results, dropped)
            for number in range(1, 8 * players + 8):
                bracket = de.bracket(seeds, results, dropped)
                if bracket.champion:
                    break
                for match in bracket.ready(number):
                    results[match.id] = rng.choice(match.players)
                if de.bracket(seeds, results, dropped).champion:
                    continue
                out = {p for m in bracket.matches for p in m.out}
                alive = [p for p in seeds if p not in dropped and p not in out]
                if len(alive) > 1 and rng.random() < 0.3:
                    dropped[rng.choice(alive)] = number
            played += 1
            crowned += bracket.champion is not None
    return crowned, played


def rematches(size: int, brackets: int) -> tuple[int, int]:
    seeds = [f"p{i}" for i in range(1, size + 1)]
    newcomers = repeated = 0
    for seed in range(brackets):
        rng = random.Random(seed)
        met: dict[str, set[str]] = {p: set() for p in seeds}
        results: dict[str, str] = {}
        for number in range(1, 4 * size):
            bracket = de.bracket(seeds, results)
            if bracket.champion:
                break
            for match in bracket.ready(number):
                a, b = match.players
                assert a is not None and b is not None
                if match.side == de.LOSERS and match.round % 2 == 0:
                    newcomers += 1
                    repeated += b in met[a]
                met[a].add(b)
                met[b].add(a)
                results[match.id] = rng.choice(match.players)
    return repeated, newcomers


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=60)
    parser.add_argument("--brackets", type=int, default=30)
    args = parser.parse_args()
    _common.header("Tournaments: the double elimination bracket, no Django")
    crowned, played = champions(args.events)
    print(f"(a) events ending with a champion: {crowned}/{played} ({100 * crowned / played:.1f}%)")
    print("(b) losers' bracket drop-in matches that are rematches")
    ours = de.drop_order
    for label, order in (
        ("ours", ours),
        ("in order", lambda count, wave: list(range(1, count + 1))),
    ):
        de.drop_order = order  # type: ignore[assignment]
        for size in (8, 16, 32):
            repeated, newcomers = rematches(size, args.brackets)
            print(
                f"    {label:>8}, bracket of {size:>2}: {repeated}/{newcomers}"
                f" ({100 * repeated / newcomers:.1f}%)"
            )
    de.drop_order = ours


if __name__ == "__main__":
    main()
