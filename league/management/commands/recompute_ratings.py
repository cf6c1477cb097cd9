"""Rebuild the ratings from the finished games, in the order they ended."""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.rules import registered
from league.services import ratings


class Command(BaseCommand):
    help = "Recompute Elo and OpenSkill ratings from the finished games; prints what changed."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="a game slug (default: every game)")

    def handle(self, *args, game=None, **options):
        slugs = sorted(registered())
        if game is not None:
            if game not in slugs:
                raise CommandError(f"unknown game {game!r}; known: {', '.join(slugs)}")
            slugs = [game]
        for slug in slugs:
            total = ratings.finished_games(slug).count()
            with tqdm(
                total=total, desc=slug, unit="game", file=self.stderr._out, disable=not total
            ) as bar:
                result = ratings.ratings_recompute(slug=slug, progress=bar.update)
            self.stdout.write(
                f"{slug}: {result.games} games, {result.players} players, "
                f"{result.changed} ratings changed"
            )
