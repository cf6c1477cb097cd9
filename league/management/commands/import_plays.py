"""Import a club's plays into a league from a CSV or a BG Stats export."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from tqdm import tqdm

from core.errors import ServiceError
from league.models import ORGANISING, League
from league.plays import FORMATS
from league.services.plays import plays_import

User = get_user_model()


class Command(BaseCommand):
    help = (
        "Import plays into a league: CSV (play,date,game,player,guest,score,rank, one row per "
        "player per play, or a BoardGameGeek or BG Stats play log's columns) or a BG Stats JSON "
        "export. All or nothing unless --skip-refused; plays already in the league are skipped "
        "unless --import-duplicates."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV or BG Stats JSON file")
        parser.add_argument("--league", required=True, help="the league's slug")
        parser.add_argument("--format", choices=FORMATS, help="default: from the file's name")
        parser.add_argument(
            "--dry-run", action="store_true", help="check and report, create nothing"
        )
        parser.add_argument(
            "--skip-refused", action="store_true", help="import the plays that pass, skip the rest"
        )
        parser.add_argument(
            "--import-duplicates",
            action="store_true",
            help="import plays already in the league (the same date, game and players) too;"
            " by default they are reported and skipped",
        )
        parser.add_argument(
            "--by", help="the organiser recording the plays (default: the league's first)"
        )

    def handle(
        self,
        *args,
        file,
        league,
        format=None,
        dry_run,
        skip_refused,
        import_duplicates=False,
        by=None,
        **opts,
    ):
        club = League.objects.filter(slug=league).first()
        if club is None:
            raise CommandError(f"no league {league!r}")
        recorder = self._recorder(club, by)
        path = Path(file)
        if not path.is_file():
            raise CommandError(f"no file {file}")
        format = format or ("bgstats" if path.suffix.lower() == ".json" else "csv")
        with tqdm(desc="plays", unit="play", file=self.stderr._out) as bar:

            def progress(done: int, total: int) -> None:
                bar.total, bar.n = total, done  # the total shrinks if plays are refused
                bar.refresh()

            try:
                report = plays_import(
                    league=club,
                    content=path.read_bytes(),
                    format=format,
                    by=recorder,
                    dry_run=dry_run,
                    skip_refused=skip_refused,
                    import_duplicates=import_duplicates,
                    progress=progress,
                )
            except ServiceError as exc:
                raise CommandError(str(exc)) from None
        for line in report.lines():
            self.stdout.write(line)
        if report.refused and not report.imported and not dry_run:
            raise CommandError(f"{len(report.refused)} refused: nothing was imported")

    def _recorder(self, club: League, by: str | None):
        organisers = club.membership_set.filter(role__in=ORGANISING)
        if by is not None:
            user = User.objects.filter(username=by, is_active=True).first()
            if user is None:
                raise CommandError(f"no user {by!r}")
            return user
        first = organisers.select_related("user").order_by("joined_at", "pk").first()
        if first is None:
            raise CommandError(f"{club.name} has no organiser: name one with --by")
        return first.user
