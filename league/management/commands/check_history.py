"""manage.py check_history: every stored game's chain, replay and head (games.history), and what
was rated against its result (league.history); after a restore, an upgrade, or at any time."""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import DEFAULT_DB_ALIAS

from games.models import Game
from league.history import HistoryReport, history_check


class Command(BaseCommand):
    help = (
        "Check every stored game: each event's hash, a replay of its moves under its own rules "
        "version, its head against its events, and its ratings against its result. Exits 1 "
        "on any difference, with a line for each."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--database",
            default=DEFAULT_DB_ALIAS,
            help="the database alias to check (a restored copy configured beside the live "
            "one; or set DATABASE_URL)",
        )
        parser.add_argument(
            "--game", type=int, action="append", dest="games", help="a game's id (repeatable)"
        )
        parser.add_argument(
            "--jobs",
            type=int,
            default=os.cpu_count() or 1,
            help="processes checking at once (default: one a core; 1 to leave the others to "
            "a service still serving)",
        )
        parser.add_argument(
            "--quiet", action="store_true", help="print the differences only, not the summary"
        )

    def handle(
        self, *args, database: str, games: list[int] | None, jobs: int, quiet: bool, **options
    ):
        if database not in settings.DATABASES:
            known = ", ".join(settings.DATABASES)
            raise CommandError(f"no database {database!r} is configured (known: {known})")
        if games:
            stored = set(Game.objects.using(database).filter(id__in=games).values_list("id"))
            missing = sorted({g for g in games if (g,) not in stored})
            if missing:
                raise CommandError(f"no game {', '.join(map(str, missing))} in {database}")
        if jobs < 1:
            raise CommandError("--jobs must be 1 or more")
        report = history_check(using=database, ids=games, found=self.stdout.write, jobs=jobs)
        if not quiet:
            self.stdout.write(summary(report))
        if report.differences:
            raise CommandError(f"{_count(len(report.differences), 'difference')} in the history")


def summary(report: HistoryReport) -> str:
    lines = [
        f"checked {_count(report.checked, 'game')} ({_count(report.events, 'event')}) in "
        f"{report.seconds:.1f} s: {report.per_minute():,.0f} games a minute"
        + (f" ({report.jobs} processes)" if report.jobs > 1 else "")
    ]
    by_game: dict[tuple[str, int], list[str]] = {}
    for (slug, version, kind), count in sorted(report.games.items()):
        kinds = by_game.setdefault((slug, version), [])
        kinds.append(f"{count:,} played" if kind == "played" else _count(count, kind))
    for (slug, version), kinds in by_game.items():
        name = slug if version == 0 else f"{slug} v{version}"
        lines.append(f"  {name}: {', '.join(kinds)}")
    lines.append(
        f"ratings: {_count(report.rated, 'rated game')} compared with their results; "
        f"{_count(report.unrated, 'finished game')} not rated yet"
    )
    differences = len(report.differences)
    lines.append(_count(differences, "difference") if differences else "no differences")
    return "\n".join(lines)


def _count(number: int, word: str) -> str:
    return f"{number:,} {word}{'' if number == 1 else 's'}"
