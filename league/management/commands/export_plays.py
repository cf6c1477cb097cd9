"""Export a league's plays as CSV or as BG Stats-compatible JSON."""

from django.core.management.base import BaseCommand, CommandError

from league.models import League
from league.plays import FORMATS
from league.services.plays import plays_export


class Command(BaseCommand):
    help = "Write a league's finished plays as CSV (the import's columns) or BG Stats JSON."

    def add_arguments(self, parser):
        parser.add_argument("--league", required=True, help="the league's slug")
        parser.add_argument("--format", choices=FORMATS, default="csv")
        parser.add_argument("--output", "-o", help="a file to write (default: standard output)")

    def handle(self, *args, league, format, output=None, **options):
        club = League.objects.filter(slug=league).first()
        if club is None:
            raise CommandError(f"no league {league!r}")
        text, _ = plays_export(league=club, format=format)
        if output:
            with open(output, "w", encoding="utf-8", newline="") as out:
                out.write(text)
        else:
            self.stdout.write(text, ending="")
