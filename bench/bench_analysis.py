"""The post-game analysis of a finished game, against replaying the same game.

For each registered game with moves (or --game), one seeded game at --players seats is played
by the greedy bot (chance by its probabilities). Then, in the same run:
  (a) replay: a fresh new_game and every logged action applied;
  (b) analysis: games.bots.analysis.analyse over the same log, with the budget the service
      uses for that game (settings.HADAL_ANALYSIS, or --iterations for every game).
It prints the analysis's seconds (wall clock, and CPU time: on a shared, loaded machine the
second is nearer what an idle one takes), decisions judged, chance events, milliseconds per decision
and the ratio analysis / replay. The brief: a 4-player game well under a minute.

    .venv/bin/python bench/bench_analysis.py [--game SLUG] [--players 4] [--seed 1]
        [--iterations N] [--root greedy|cheap]

--root greedy is the analysis as it was before the cheap root (every move of a decision
judged as greedy judges it); the default is the service's setting (HADAL_ANALYSIS).
"""

from __future__ import annotations

import argparse
import os
import random
import time
from dataclasses import replace

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
import django  # noqa: E402

django.setup()

from games.bots import get_bot  # noqa: E402
from games.bots.analysis import Step, analyse  # noqa: E402
from games.bots.rewards import sample_outcome  # noqa: E402
from games.play.analysis import analysis_budget  # noqa: E402
from games.rules import get_rules, registered  # noqa: E402


def played_game(slug: str, players: int, seed: int):
    rules = get_rules(slug)
    state = rules.new_game(num_players=players)
    first = state.clone()
    rng = random.Random(seed)
    bot = get_bot("greedy")
    steps = []
    while not state.is_terminal():
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        else:
            action = bot.choose(state.clone(), state.current_player, rng)
        steps.append(Step(len(steps) + 2, action))
        state.apply(action)
    return first, steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int)
    parser.add_argument(
        "--root",
        choices=["greedy", "cheap"],
        help="how the search judges a decision's moves (default: the service's setting)",
    )
    args = parser.parse_args()
    slugs = args.game or sorted(registered())
    _common.header(f"analysis of one {args.players}-player game per game, seed {args.seed}")
    print(
        f"{'game':<20}{'steps':>7}{'judged':>8}{'chance':>8}{'iters':>7}"
        f"{'root':>8}{'replay s':>10}{'analysis s':>12}{'cpu s':>8}{'ms/decision':>13}{'ratio':>10}"
    )
    for slug in slugs:
        try:
            first, steps = played_game(slug, args.players, args.seed)
        except ValueError as error:  # a game that does not seat --players
            print(f"{slug:<20} skipped: {error}")
            continue
        budget = analysis_budget(slug)
        if args.iterations is not None:
            budget = replace(budget, iterations=args.iterations)
        if args.root is not None:
            budget = replace(budget, root=args.root)
        started = time.perf_counter()
        state = first.clone()
        for step in steps:
            state.apply(step.action)
        replay = time.perf_counter() - started
        started, cpu = time.perf_counter(), time.process_time()
        report = analyse(first, steps, budget=budget, seed=args.seed)
        took, cpu = time.perf_counter() - started, time.process_time() - cpu
        judged = len(report.decisions)
        chance = len({entry.version for entry in report.luck})
        per = 1000 * took / judged if judged else 0.0
        print(
            f"{slug:<20}{len(steps):>7}{judged:>8}{chance:>8}{budget.iterations:>7}"
            f"{budget.root or 'game':>8}{replay:>10.4f}{took:>12.2f}{cpu:>8.2f}{per:>13.1f}{took / replay:>10.0f}x"
        )


if __name__ == "__main__":
    main()
