"""Rebuild the ratings from the finished games, in the order they ended."""

from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from games.rules import registered
from league.services import ratings


class Command(BaseCommand):
    help = (
        "Recompute the ratings from the finished games, every game type in one transaction "
        "(the pages see them all change at once); prints what changed."
    )

    def add_arguments(self, parser):
        parser.add_argument("--game", help="a game slug (default: every game)")

    def handle(self, *args, game=None, **options):
        slugs = sorted(registered())
        if game is not None:
            if game not in slugs:
                raise CommandError(f"unknown game {game!r}; known: {', '.join(slugs)}")
            slugs = [game]
        total = sum(ratings.finished_games(slug).count() for slug in slugs)
        with tqdm(
            total=total, desc="ratings", unit="game", file=self.stderr._out, disable=not total
        ) as bar:
            results = ratings.ratings_rebuild(slugs=slugs, progress=bar.update)
        for slug, result in results.items():
            self.stdout.write(
                f"{slug}: {result.games} games, {result.players} players, "
                f"{result.changed} ratings changed"
            )
