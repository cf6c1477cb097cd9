"""Random full Deep Sea Adventure games per second through the rule module alone (no Django).

Decisions are uniformly random among the legal actions; chance nodes are sampled by their
probabilities. Each repeat replays the same seeded games, so the repeats measure the same work.

    .venv/bin/python bench/bench_dsa_rules.py [--games 2000] [--repeats 3] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import time

import _common
from games.rules import CHANCE, get_rules

RULES = get_rules("deep-sea-adventure")


def play(num_players: int, rng: random.Random) -> int:
    """One random game to the end; returns the number of actions applied (decisions + chance)."""
    state = RULES.new_game(num_players=num_players)
    actions = 0
    while not state.is_terminal():
        if state.current_player == CHANCE:
            outcomes = state.chance_outcomes()
            action = rng.choices([o for o, _ in outcomes], weights=[p for _, p in outcomes])[0]
        else:
            action = rng.choice(state.legal_actions())
        state.apply(action)
        actions += 1
    return actions


def run(num_players: int, games: int, seed: int) -> tuple[float, int]:
    """Seconds taken for ``games`` games, and the actions they applied."""
    rng = random.Random(seed * 100 + num_players)
    actions = 0
    start = time.perf_counter()
    for _ in range(games):
        actions += play(num_players, rng)
    return time.perf_counter() - start, actions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repeat (default 2000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    _common.header("Deep Sea Adventure rules: random full games, no Django")
    print(f"{args.games} games per repeat, {args.repeats} repeats; best / median of the repeats")
    print(f"{'players':>7} {'actions/game':>12} {'games/s best':>13} {'median':>9}"
          f" {'actions/s best':>15} {'median':>10}")
    for n in (2, 4, 6):
        runs = [run(n, args.games, args.seed) for _ in range(args.repeats)]
        actions = runs[0][1]  # the same seeded games each repeat
        game_rates = [args.games / seconds for seconds, _ in runs]
        action_rates = [actions / seconds for seconds, _ in runs]
        g_best, g_median = _common.best_and_median(game_rates)
        a_best, a_median = _common.best_and_median(action_rates)
        print(f"{n:>7} {actions / args.games:>12.1f} {g_best:>13,.0f} {g_median:>9,.0f}"
              f" {a_best:>15,.0f} {a_median:>10,.0f}")


if __name__ == "__main__":
    main()
