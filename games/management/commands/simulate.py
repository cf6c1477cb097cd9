"""Bot against bot, straight on the rule modules (no database).

    python manage.py simulate --game deep-sea-adventure --bots mcts:400,random --games 100 --seed 1

Bots are levels with an optional budget: ``mcts:800`` (iterations), ``mcts:0.5s`` (seconds).
With two bots and two players (``--players`` to change; bots fill the seats cyclically) the
seats rotate game by game, so each bot plays each seat equally. The seed fixes every chance
outcome and every bot's random generator, so a run with an iteration budget replays exactly.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.bots.arena import parse_entrant, run_match, wilson_interval
from games.rules import get_rules, registered


class Command(BaseCommand):
    help = "Play bots against each other and print win rates (95% Wilson intervals) and scores."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(registered())}")
        parser.add_argument(
            "--bots",
            required=True,
            help="comma-separated levels, e.g. mcts:0.5s,random or mcts:800,greedy",
        )
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--players",
            type=int,
            default=None,
            help="seats per game (default 2, or the game's minimum if higher)",
        )
        parser.add_argument("--json", action="store_true", help="print one JSON object only")

    def handle(self, *args, **options):
        try:
            rules = get_rules(options["game"])
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        try:
            entrants = [parse_entrant(text) for text in options["bots"].split(",")]
        except ValueError as error:
            raise CommandError(str(error)) from None
        names = [e.name for e in entrants]
        if len(set(names)) != len(names):
            raise CommandError(
                "each bot must be named once (give budgets to tell copies apart,"
                " e.g. mcts:400,mcts:800)"
            )
        players = options["players"] or max(2, rules.spec.min_players)
        if not rules.spec.min_players <= players <= rules.spec.max_players:
            raise CommandError(
                f"{rules.spec.name} takes {rules.spec.min_players} to "
                f"{rules.spec.max_players} players"
            )
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")

        bar = None if options["json"] else tqdm(total=games, desc=rules.spec.slug, unit="game")
        match = run_match(
            rules, entrants, games, options["seed"], players, progress=bar.update if bar else None
        )
        if bar:
            bar.close()

        if options["json"]:
            self.stdout.write(json.dumps(match.to_json()))
            return
        summary = match.to_json()
        self.stdout.write(
            f"{rules.spec.name}: {games} games, {players} players, seed {options['seed']}"
        )
        for name, tally in match.tallies.items():
            low, high = wilson_interval(tally.wins, games)
            row = summary["bots"][name]
            per_move = tally.thinking / tally.decisions if tally.decisions else 0.0
            self.stdout.write(
                f"  {name:<16} wins {tally.wins:>4}/{games}  win rate "
                f"{row['win_rate']:6.1%} (95% {low:.1%}-{high:.1%})  mean score "
                f"{row['mean_score']:6.2f}  {per_move * 1000:8.1f} ms/move"
            )
        low, high = wilson_interval(match.first_seat_wins, games)
        self.stdout.write(
            f"  first seat win rate {summary['first_seat_win_rate']:.1%} (95% {low:.1%}-{high:.1%})"
        )
        rate = match.decisions / match.seconds if match.seconds else 0.0
        self.stdout.write(f"  {match.decisions} moves in {match.seconds:.1f} s: {rate:.1f} moves/s")
