"""How well Elo and OpenSkill predict each game's winner, in time order: predict, then update."""

import json

from django.core.management.base import BaseCommand, CommandError

from games.rules import registered
from league.ratings import EloLadder, OpenSkillLadder, prediction_report
from league.services import ratings


class UniformGuess:
    """The baseline: every player equally likely to win, and nothing learnt."""

    def rate(self, players, ranks):
        return []

    def win_probabilities(self, players):
        return [1 / len(players)] * len(players)


class Command(BaseCommand):
    help = "Report the winner-prediction accuracy and log-loss of Elo and OpenSkill for a game."

    def add_arguments(self, parser):
        parser.add_argument("--game", required=True, help="a game slug")
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print one JSON object"
        )

    def handle(self, *args, game, as_json=False, **options):
        if game not in registered():
            raise CommandError(f"unknown game {game!r}; known: {', '.join(sorted(registered()))}")
        tables = ratings.rated_tables(game)
        systems = {
            "elo": EloLadder(k=ratings.elo_k()),
            "openskill": OpenSkillLadder(),
            "uniform": UniformGuess(),
        }
        scores = {name: prediction_report(tables, ladder) for name, ladder in systems.items()}
        if as_json:
            self.stdout.write(
                json.dumps(
                    {
                        "game": game,
                        "games": len(tables),
                        **{
                            name: {"accuracy": s.accuracy, "log_loss": s.log_loss}
                            for name, s in scores.items()
                        },
                    }
                )
            )
            return
        self.stdout.write(f"{game}: {len(tables)} rated games, each predicted before it counts")
        self.stdout.write(f"{'system':<10} {'accuracy':>9} {'log-loss':>9}")
        for name, s in scores.items():
            self.stdout.write(f"{name:<10} {s.accuracy:>9.3f} {s.log_loss:>9.3f}")
