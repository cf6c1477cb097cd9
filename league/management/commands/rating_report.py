"""How well each rating candidate predicts each game's winner, in time order: predict, then update.

Three histories: a game type's rated games on the site (--game), a league's games (--league),
or a file of plays as import_plays reads it (--file), without importing anything. Every candidate
of league.ratings.CANDIDATES and a uniform guess predict the same games; the table is the one
bench/bench_ratings.py prints, log-loss first. It only reads: no rating, game or file changes.
"""

import json
import random
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from core.errors import InvalidInput
from games.catalog import game_types
from games.rules import registered
from league import consent
from league import plays as files
from league.models import League
from league.ratings import (
    CANDIDATES,
    EloLadder,
    OpenSkillLadder,
    PredictionScore,
    UniformGuess,
    prediction_report,
    score_table,
)
from league.selectors import league_games
from league.services import ratings

REFUSALS_SHOWN = 5

# A table: its players (any ids; a player is rated per game type, so (slug, id) pairs where a
# history holds several) and their ranks.
Table = tuple[list, list[int]]


class Command(BaseCommand):
    help = (
        "Report how well each rating candidate (Elo, Elo with a K schedule, Glicko-2, OpenSkill's"
        " models) predicts each game's winner, in time order: log-loss, accuracy and lift over"
        " chance, for a game type, a league or a file of plays."
    )

    def add_arguments(self, parser):
        source = parser.add_mutually_exclusive_group(required=True)
        source.add_argument("--game", help="a game slug: its rated games on the site")
        source.add_argument("--league", help="a league's slug: its finished games")
        source.add_argument(
            "--file", help="a file of plays as import_plays reads it (CSV or BG Stats JSON)"
        )
        parser.add_argument("--format", choices=files.FORMATS, help="default: from the file's name")
        parser.add_argument(
            "--skip-refused", action="store_true", help="report on the file's plays that parse"
        )
        parser.add_argument(
            "--seed", type=int, default=0, help="picks among players tied for favourite"
        )
        parser.add_argument(
            "--json", action="store_true", dest="as_json", help="print one JSON object"
        )

    def handle(
        self,
        *args,
        game=None,
        league=None,
        file=None,
        format=None,
        skip_refused=False,
        seed=0,
        as_json=False,
        **options,
    ):
        notes: list[str] = []
        if game is not None:
            if game not in registered():
                raise CommandError(
                    f"unknown game {game!r}; known: {', '.join(sorted(registered()))}"
                )
            source, tables = game, ratings.rated_tables(game)
        elif league is not None:
            source, tables = self._league(league, notes)
        else:
            source, tables = self._file(file, format, skip_refused, notes)
        tables = _rated(tables, notes)
        if not tables:
            raise CommandError(
                f"{source}: no game with two rated players or more, so nothing to predict"
            )
        if all(len(set(ranks)) == 1 for _, ranks in tables):
            raise CommandError(
                f"{source}: every one of the {len(tables)} games is a tie for first, so there"
                " is no winner to predict"
            )
        scores = {
            name: prediction_report(tables, make(), random.Random(seed))
            for name, make in CANDIDATES.items()
        }
        scores["uniform guess"] = prediction_report(tables, UniformGuess(), random.Random(seed))
        if as_json:
            self.stdout.write(json.dumps(self._json(source, tables, scores, notes, seed)))
            return
        self.stdout.write(
            f"{source}: {len(tables)} rated games, each predicted before it counts, in the"
            f" order played; {_players(tables)} players"
        )
        for note in notes:
            self.stdout.write(note)
        chance = scores["uniform guess"].chance
        self.stdout.write(
            f"a favourite picked at random finishes first {chance:.3f} of the time (chance);"
            " lift is accuracy over chance; * the best log-loss"
        )
        rows = {name: (s.log_loss, s.log_loss_se, s.accuracy, s.lift) for name, s in scores.items()}
        for line in score_table(rows):
            self.stdout.write(line)

    def _league(self, slug: str, notes: list[str]) -> tuple[str, list[Table]]:
        club = League.objects.filter(slug=slug).first()
        if club is None:
            raise CommandError(f"no league {slug!r}")
        games = list(league_games(club).prefetch_related("seats"))
        if not games:
            raise CommandError(f"{club.name} has no finished games to report on")
        held = consent.holds(games)
        if held:
            notes.append(f"left out {len(held)} games someone in them has not agreed to rate")
        tables: list[Table] = []
        for played in games:
            if played.pk in held:
                continue
            table = ratings.table_of(played)
            if isinstance(table, str):
                tables.append(([], []))  # counted by _rated as a game it cannot rate
                continue
            users, ranks = table
            tables.append(([(played.slug, user) for user in users], ranks))
        return club.name, tables

    def _file(
        self, name: str, format: str | None, skip_refused: bool, notes: list[str]
    ) -> tuple[str, list[Table]]:
        path = Path(name)
        if not path.is_file():
            raise CommandError(f"no file {name}")
        format = format or ("bgstats" if path.suffix.lower() == ".json" else "csv")
        try:
            text = files.decode(path.read_bytes(), path.name)
            kinds = game_types()
            parsed = (
                files.read_csv(text, kinds) if format == "csv" else files.read_bgstats(text, kinds)
            )
        except InvalidInput as exc:
            raise CommandError(f"{path.name}: {exc}") from None
        if parsed.refused:
            shown = [f"refused {refusal}" for refusal in parsed.refused[:REFUSALS_SHOWN]]
            more = len(parsed.refused) - len(shown)
            if more:
                shown.append(f"… and {more} more refused")
            if not skip_refused:
                raise CommandError(
                    "\n".join(
                        [
                            f"{path.name}: {len(parsed.refused)} refused, so no report"
                            " (--skip-refused reports on the rest)",
                            *shown,
                        ]
                    )
                )
            notes += shown
        plays = sorted(parsed.plays, key=lambda play: play.date)  # in the order played
        if not plays:
            raise CommandError(f"{path.name}: the file has no plays")
        # A guest (a guest column saying so) is left out as the site's ratings leave guests
        # out; a file without a guest column names everyone by name, and rates them all.
        tables: list[Table] = []
        for play in plays:
            rated = [seat for seat in play.seats if not seat.guest or parsed.by_name]
            tables.append(
                (
                    [(play.game, seat.player) for seat in rated],
                    [seat.rank if seat.rank is not None else 0 for seat in rated],
                )
            )
        return path.name, tables

    def _json(self, source, tables, scores: dict[str, PredictionScore], notes, seed) -> dict:
        out: dict = {"source": source, "games": len(tables), "players": _players(tables)}
        out["notes"] = notes
        out["seed"] = seed
        out["candidates"] = {name: _figures(score) for name, score in scores.items()}
        # The names this report's JSON had before the candidates (issue 40), for its readers.
        out["elo"] = _figures(
            prediction_report(tables, EloLadder(k=ratings.elo_k()), random.Random(seed))
        )
        out["openskill"] = _figures(
            prediction_report(tables, OpenSkillLadder(), random.Random(seed))
        )
        out["uniform"] = out["candidates"]["uniform guess"]
        return out


def _figures(score: PredictionScore) -> dict:
    return {
        "log_loss": score.log_loss,
        "log_loss_se": score.log_loss_se,
        "accuracy": score.accuracy,
        "chance": score.chance,
        "lift": score.lift,
    }


def _players(tables: list[Table]) -> int:
    return len({player for players, _ in tables for player in players})


def _rated(tables: list[Table], notes: list[str]) -> list[Table]:
    """The tables with two rated players or more, each once; a note of how many were not."""
    kept = [table for table in tables if len(table[0]) >= 2]
    short = len(tables) - len(kept)
    if short:
        notes.append(
            f"skipped {short} game{'s' if short != 1 else ''} with fewer than two rated players"
            " (a guest is not rated)"
        )
    twice = [table for table in kept if len(set(table[0])) < len(table[0])]
    if twice:
        notes.append(
            f"skipped {len(twice)} game{'s' if len(twice) != 1 else ''} naming a player twice"
        )
    return [table for table in kept if len(set(table[0])) == len(table[0])]
