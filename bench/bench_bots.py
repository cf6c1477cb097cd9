"""How fast the bots think: greedy moves and MCTS iterations per second, per game (no Django).

The positions are the decision points of seeded random 2-player games; each repeat times the
same positions with the same seeds, so the repeats measure the same work.

    .venv/bin/python bench/bench_bots.py [--game SLUG] [--positions 40] [--iterations 200]
"""

from __future__ import annotations

import argparse
import random
import time

import _common

from games.bots import GreedyBot, MCTSBot
from games.bots.rewards import sample_outcome
from games.rules import get_rules, registered


def positions(rules, count: int, seed: int) -> list:
    """``count`` decision points with a real choice, from seeded random games."""
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        state = rules.new_game(2)
        while not state.is_terminal() and len(found) < count:
            if state.is_chance_node():
                state.apply(sample_outcome(state.chance_outcomes(), rng))
                continue
            legal = state.legal_actions()
            if len(legal) > 1 and rng.random() < 0.3:
                found.append(state.clone())
            state.apply(rng.choice(legal))
    return found


def timed(bot, states: list) -> float:
    start = time.perf_counter()
    for k, state in enumerate(states):
        bot.choose(state, state.current_player, random.Random(k))
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", choices=sorted(registered()), help="one game (default: all)")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--iterations", type=int, default=200, help="MCTS iterations a move")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    _common.header("Bots: thinking speed on seeded positions, no Django")
    print(
        f"{args.positions} positions, MCTS at {args.iterations} iterations a move, "
        f"{args.repeats} repeats; best / median of the repeats"
    )
    print(
        f"{'game':<20} {'greedy moves/s':>14} {'median':>8} {'mcts iter/s':>12} {'median':>8}"
        f" {'mcts ms/move':>13}"
    )
    for slug in [args.game] if args.game else sorted(registered()):
        states = positions(get_rules(slug), args.positions, args.seed)
        greedy = [len(states) / timed(GreedyBot(), states) for _ in range(args.repeats)]
        mcts_seconds = [
            timed(MCTSBot(iterations=args.iterations), states) for _ in range(args.repeats)
        ]
        mcts = [len(states) * args.iterations / s for s in mcts_seconds]
        g_best, g_median = _common.best_and_median(greedy)
        m_best, m_median = _common.best_and_median(mcts)
        print(
            f"{slug:<20} {g_best:>14,.0f} {g_median:>8,.0f} {m_best:>12,.0f} {m_median:>8,.0f}"
            f" {1000 * args.iterations / m_median:>13.1f}"
        )


if __name__ == "__main__":
    main()
