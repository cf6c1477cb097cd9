"""Bot against bot, straight on the rule modules (no database).

    python manage.py simulate --game deep-sea-adventure --bots mcts:400,random --games 100 --seed 1

Bots are levels with an optional budget: ``mcts:800`` (iterations), ``mcts:0.5s`` (seconds).
With two bots and two players (``--players`` to change; bots fill the seats cyclically) the
seats rotate game by game, so each bot plays each seat equally. The seed fixes every chance
outcome and every bot's random generator, so a run with an iteration budget replays exactly.

``--jobs 2`` plays the games in two worker processes, with the same results.

    python manage.py simulate --game abyss --rate --bots random,greedy,mcts:200 --games 100

``--rate`` plays every pair of the levels (random, greedy and mcts unless ``--bots`` names
them, one budget each) ``--games`` 2-player games each and rates the levels on the Elo scale
(random anchored at 1000); the league stores the ratings and the leaderboard shows them.
"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.bots.arena import parse_entrant, round_robin, run_match, wilson_interval
from games.rules import get_rules, registered
from games.signals import bot_levels_measured

RATED_LEVELS = "random,greedy,mcts"


class Command(BaseCommand):
    help = "Play bots against each other and print win rates (95% Wilson intervals) and scores."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help=f"one of: {', '.join(registered())}")
        parser.add_argument(
            "--bots",
            help="comma-separated levels, e.g. mcts:0.5s,random or mcts:800,greedy"
            f" (with --rate, default {RATED_LEVELS})",
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
        parser.add_argument(
            "--jobs",
            type=int,
            default=1,
            help="worker processes playing the games (the results are those of one process)",
        )
        parser.add_argument(
            "--rate",
            action="store_true",
            help="every pair of levels plays --games 2-player games; rate the levels' Elo"
            " (random = 1000) and store it for the leaderboard",
        )

    def handle(self, *args, **options):
        try:
            rules = get_rules(options["game"])
        except KeyError as error:
            raise CommandError(error.args[0]) from None
        bots = options["bots"] or (RATED_LEVELS if options["rate"] else None)
        if not bots:
            raise CommandError("--bots is required (or --rate, which defaults to all levels)")
        try:
            entrants = [parse_entrant(text) for text in bots.split(",")]
        except ValueError as error:
            raise CommandError(str(error)) from None
        names = [e.name for e in entrants]
        if len(set(names)) != len(names):
            raise CommandError(
                "each bot must be named once (give budgets to tell copies apart,"
                " e.g. mcts:400,mcts:800)"
            )
        games = options["games"]
        if games < 1:
            raise CommandError("--games must be at least 1")
        if options["jobs"] < 1:
            raise CommandError("--jobs must be at least 1")
        if options["rate"]:
            return self._rate(rules, entrants, games, options)
        players = options["players"] or max(2, rules.spec.min_players)
        if not rules.spec.min_players <= players <= rules.spec.max_players:
            raise CommandError(
                f"{rules.spec.name} takes {rules.spec.min_players} to "
                f"{rules.spec.max_players} players"
            )

        bar = None if options["json"] else tqdm(total=games, desc=rules.spec.slug, unit="game")
        match = run_match(
            rules,
            entrants,
            games,
            options["seed"],
            players,
            progress=bar.update if bar else None,
            jobs=options["jobs"],
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

    def _rate(self, rules, entrants, games, options):
        levels = [e.level for e in entrants]
        if len(set(levels)) != len(levels):
            raise CommandError("--rate rates levels: name each level once (one budget each)")
        if "random" not in levels:
            raise CommandError("--rate needs the random level: the ratings are anchored on it")
        if len(entrants) < 2:
            raise CommandError("--rate needs at least two levels")
        if options["players"] not in (None, 2):
            raise CommandError("--rate plays 2-player games")
        if rules.spec.min_players > 2:
            raise CommandError(f"{rules.spec.name} takes no 2-player games")
        pairs = len(entrants) * (len(entrants) - 1) // 2
        bar = (
            None
            if options["json"]
            else tqdm(total=games * pairs, desc=f"{rules.spec.slug} rating", unit="game")
        )
        matches = round_robin(
            rules, entrants, games, options["seed"], progress=bar.update if bar else None
        )
        if bar:
            bar.close()
        level_of = {e.name: e.level for e in entrants}
        played = [
            ([level_of[name] for name in names], ranks)
            for match in matches.values()
            for names, ranks in match.played
        ]
        budgets = {e.level: _budget_text(e.make()) for e in entrants}
        answers = bot_levels_measured.send(
            sender=self.__class__, slug=rules.spec.slug, levels=budgets, games=played
        )
        ratings = next((answer for _, answer in answers if answer), None)
        if ratings is None:
            raise CommandError("nothing rated the levels (is the league app installed?)")

        rated = {e.name: round(ratings[e.level], 1) for e in entrants}
        report = {
            "games": len(played),
            "pairs": [
                {"bots": list(pair), "games": m.games, "wins": {n: m.tallies[n].wins for n in pair}}
                for pair, m in matches.items()
            ],
            "ratings": rated,
        }
        if options["json"]:
            self.stdout.write(json.dumps(report))
            return
        self.stdout.write(
            f"{rules.spec.name}: {games} games a pair, 2 players, seed {options['seed']}"
        )
        for pair, match in matches.items():
            a, b = pair
            low, high = wilson_interval(match.tallies[a].wins, match.games)
            self.stdout.write(
                f"  {a} vs {b}: {a} wins {match.tallies[a].wins}/{match.games}"
                f" ({low:.1%}-{high:.1%}), {b} wins {match.tallies[b].wins}"
            )
        self.stdout.write("  Elo (random = 1000), stored for the leaderboard:")
        for name, rating in sorted(rated.items(), key=lambda kv: -kv[1]):
            self.stdout.write(f"    {name:<16} {rating:7.1f}")


def _budget_text(bot) -> str:
    """What a searching bot thought with, for people; "" for a level that does not search."""
    if not getattr(bot, "takes_budget", False):
        return ""
    if bot.iterations is not None:
        return f"{bot.iterations} iterations a move"
    return f"{bot.seconds:g} s a move"
