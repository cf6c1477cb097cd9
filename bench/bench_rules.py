"""Random full games per second through each rule module alone (no Django).

Decisions are uniformly random among the legal actions; chance nodes are sampled by their
probabilities. Each repeat replays the same seeded games, so the repeats measure the same work.
Every registered game is measured at its smallest, middle and largest table.

With --baseline DIR (a checkout of an older commit, e.g. ``git worktree add /tmp/before
main``), the same seeded games are also played through that checkout's rule modules, loaded
beside these, interleaved repeat by repeat, and the speed-up is printed: both figures come
from one run on one machine. The two must play the very same games (same actions per game).

    .venv/bin/python bench/bench_rules.py [--game SLUG] [--games 1000] [--repeats 3] [--seed 1]
        [--baseline DIR] [--cpu]
"""

from __future__ import annotations

import argparse
import random
import time

import _common

from games.rules import CHANCE, get_rules, registered


def play(rules, num_players: int, rng: random.Random) -> int:
    """One random game to the end; returns the number of actions applied (decisions + chance)."""
    state = rules.new_game(num_players=num_players)
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


def run(rules, num_players: int, games: int, seed: int, now=time.perf_counter) -> tuple[float, int]:
    """Seconds taken for ``games`` games (by the clock ``now``), and the actions they applied."""
    rng = random.Random(seed * 100 + num_players)
    actions = 0
    start = now()
    for _ in range(games):
        actions += play(rules, num_players, rng)
    return now() - start, actions


def table_sizes(spec) -> list[int]:
    return sorted({spec.min_players, (spec.min_players + spec.max_players) // 2, spec.max_players})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(registered()), help="one game (default: all)")
    parser.add_argument("--games", type=int, default=1000, help="games per repeat (default 1000)")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--baseline", metavar="DIR", help="also measure this checkout's rules")
    _common.add_clock_option(parser)
    args = parser.parse_args()
    before = _common.baseline_rules(args.baseline) if args.baseline else {}

    _common.header("Rules: random full games, no Django")
    print(
        f"{args.games} games per repeat, {args.repeats} repeats; best / median of the repeats"
        + ("; CPU time" if args.cpu else "")
    )
    extra = f" {'before g/s best':>15} {'median':>9} {'speed-up':>8}" if before else ""
    print(
        f"{'game':<20} {'players':>7} {'actions/game':>12} {'games/s best':>13} {'median':>9}"
        f" {'actions/s best':>15} {'median':>10}" + extra
    )
    for slug in [args.game] if args.game else sorted(registered()):
        rules = get_rules(slug)
        for n in table_sizes(rules.spec):
            measure(rules, before.get(slug), n, args)


def measure(rules, old_rules, n: int, args) -> None:
    """Print one row: ``args.repeats`` runs of the same seeded games at an ``n``-seat table,
    each followed by the same games through ``old_rules`` when there are any."""
    runs, old_runs = [], []
    for _ in range(args.repeats):
        runs.append(run(rules, n, args.games, args.seed, _common.clock(args)))
        if old_rules is not None:
            old_runs.append(run(old_rules, n, args.games, args.seed, _common.clock(args)))
    actions = runs[0][1]  # the same seeded games each repeat
    g_best, g_median = _common.best_and_median([args.games / seconds for seconds, _ in runs])
    a_best, a_median = _common.best_and_median([actions / seconds for seconds, _ in runs])
    row = (
        f"{rules.spec.slug:<20} {n:>7} {actions / args.games:>12.1f} {g_best:>13,.0f}"
        f" {g_median:>9,.0f} {a_best:>15,.0f} {a_median:>10,.0f}"
    )
    if old_runs:
        if old_runs[0][1] != actions:
            raise SystemExit(f"{rules.spec.slug}: the baseline played other games")
        o_best, o_median = _common.best_and_median(
            [args.games / seconds for seconds, _ in old_runs]
        )
        row += f" {o_best:>15,.0f} {o_median:>9,.0f} {g_median / o_median:>7.2f}x"
    print(row)


if __name__ == "__main__":
    main()
