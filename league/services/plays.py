"""Importing a club's history of plays into a league, and exporting a league's plays.

An imported play is a club record like any other: ``records.record_check`` makes every
check a record gets. Only a league organiser may import, and an organiser's word stands for
the league's members (as from the record form): a play naming only members who have joined
the league is final at once, and ``games.records.services.match_records_confirmed`` writes the same
events and projection as recording it does, a thousand at a time; a play naming anyone who has
not (invited and not yet accepted, or never asked) is written as a record that waits for their
own confirmation (``records.record_write``), exactly as if recorded from the form. The
ratings of the final plays follow once the import commits, one rating pass per game type, in
the order the plays were played (ratings_update recomputes when older games arrive). Every
play is checked before anything is written: all or nothing, unless refused plays are skipped;
a dry run is the checks alone, so what it reports is exactly what an import would do.
"""

from __future__ import annotations

import datetime as dt
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import Q

from accounts.bots import bots
from core.errors import InvalidInput, NotYourSeat, ServiceError
from games.catalog import game_name, game_types
from games.models import GameMode, GameStatus
from games.play.steps import announcements_batched
from games.records import reads as record_reads
from games.records import services as records
from league import plays as files
from league.models import League
from league.plays import Play, Refusal, Seat
from league.selectors import is_league_organiser, members_vouched_for

User = get_user_model()
BATCH = 1000
DUPLICATES_SHOWN = 20


@dataclass
class ImportReport:
    plays: list[Play] = field(default_factory=list)  # created (or, in a dry run, would be)
    refused: list[Refusal] = field(default_factory=list)
    members: dict[str, str] = field(default_factory=dict)  # a BG Stats name -> the member
    guests: list[str] = field(default_factory=list)
    # Plays naming someone not (yet) in the league: records waiting for each one named here.
    waiting: dict[str, int] = field(default_factory=dict)  # the member -> plays waiting
    waiting_plays: int = 0
    # Plays already in the league (:func:`_same_play`): skipped, or imported anyway if asked.
    duplicates: list[Play] = field(default_factory=list)
    import_duplicates: bool = False
    dry_run: bool = False
    imported: bool = False  # committed: not a dry run, and nothing refused or skipped
    game_ids: list[int] = field(default_factory=list)

    def lines(self, refusals: int | None = None) -> list[str]:
        """What happened, for people: the plays per game, the players, every refusal (or the
        first ``refusals`` of them)."""
        verb = "created" if self.imported else "would create"
        per_game = Counter(play.game for play in self.plays)
        out = [
            f"{verb} {len(self.plays)} play{'s' if len(self.plays) != 1 else ''}"
            + (
                ": " + ", ".join(f"{n} {game_name(slug)}" for slug, n in sorted(per_game.items()))
                if per_game
                else ""
            )
        ]
        if self.duplicates:
            if self.import_duplicates:
                verb = "imported anyway" if self.imported else "would import anyway"
            else:
                verb = "skipped" if self.imported else "would skip"
            n = len(self.duplicates)
            out.append(
                f"{verb} {n} play{'s' if n != 1 else ''} already in the league"
                " (the same date, game and players):"
            )
            out += [_play_line(play) for play in self.duplicates[:DUPLICATES_SHOWN]]
            if n > DUPLICATES_SHOWN:
                out.append(f"… and {n - DUPLICATES_SHOWN} more already in the league")
        if self.members:
            out.append(
                "members: " + ", ".join(f"{k} as {v}" for k, v in sorted(self.members.items()))
            )
        if self.guests:
            out.append("guests: " + ", ".join(sorted(self.guests)))
        if self.waiting:
            plays = self.waiting_plays
            out.append(
                f"{plays} play{'s' if plays != 1 else ''} {'wait' if self.imported else 'would wait'}"
                " for the confirmation of members who have not joined the league: "
                + ", ".join(f"{name} ({n})" for name, n in sorted(self.waiting.items()))
            )
        shown = self.refused if refusals is None else self.refused[:refusals]
        out += [f"refused {refusal}" for refusal in shown]
        if len(shown) < len(self.refused):
            out.append(f"… and {len(self.refused) - len(shown)} more refused")
        if self.refused and not self.imported and not self.dry_run:
            out.append("nothing was imported (skip the refused rows to import the rest)")
        return out


def _play_line(play: Play) -> str:
    when = play.date.astimezone(dt.UTC)
    players = ", ".join(seat.player for seat in play.seats)
    return f"{play.where}: {game_name(play.game)} on {when.day} {when:%b %Y} with {players}"


def plays_import(
    *,
    league: League,
    content: bytes | str,
    format: str,
    by: AbstractUser,
    dry_run: bool = False,
    skip_refused: bool = False,
    import_duplicates: bool = False,
    progress: Callable[[int, int], None] | None = None,
) -> ImportReport:
    """Import the plays of a CSV or BG Stats file (league.plays) into ``league``, recorded by
    ``by`` (an organiser). Refused rows are all reported; with any, nothing is imported unless
    ``skip_refused``. A play already in the league (:func:`_same_play`) is reported and
    skipped, unless ``import_duplicates``. A file of the wrong shape raises InvalidInput.
    ``progress(done, total)`` is called as the plays are checked, then written."""
    if not is_league_organiser(league, by):
        raise NotYourSeat("only the league's organisers may import plays")
    if format not in files.FORMATS:
        raise InvalidInput(f"format must be one of {', '.join(files.FORMATS)}")
    text = files.decode(content) if isinstance(content, bytes) else content
    kinds = game_types()
    report = ImportReport(dry_run=dry_run, import_duplicates=import_duplicates)
    if format == "csv":
        parsed = files.read_csv(text, kinds)
        if parsed.by_name:  # a play log's names, as BG Stats gives them
            _map_to_members(parsed, league, report)
        else:
            _refuse_unknown_members(parsed)
    else:
        parsed = files.read_bgstats(text, kinds)
        _map_to_members(parsed, league, report)
    report.refused = parsed.refused
    chosen = sorted(parsed.plays, key=lambda play: play.date)  # rated in the order played
    if not chosen and not report.refused:
        raise InvalidInput("the file has no plays")
    members = records.members_named(
        [s.player for play in chosen for s in play.seats if not s.guest]
    )
    vouched = members_vouched_for(set(members), by=by, leagues=[league])
    checked, waiting = [], []
    already = _plays_in(league)
    for done, play in enumerate(chosen, start=1):
        same = _same_play(play.game, play.date, (s.player for s in play.seats))
        if already[same] > 0:  # matched once: a second play like it that day is new
            already[same] -= 1
            report.duplicates.append(play)
            if not import_duplicates:
                if progress is not None:
                    progress(done, len(chosen) if dry_run else 2 * len(chosen))
                continue
        try:
            record = records.record_check(
                slug=play.game,
                played_at=play.date,
                results=play.results(),
                notes=f"imported ({format}): {play.where}",
                members=members,
            )
        except ServiceError as exc:
            report.refused.append(Refusal(play.where, str(exc)))
        else:
            report.plays.append(play)
            unagreed = {s.user.username for s in record.seats if s.user_id} - vouched
            if unagreed:
                waiting.append(record)
                report.waiting_plays += 1
                for name in unagreed:
                    report.waiting[name] = report.waiting.get(name, 0) + 1
            else:
                checked.append(record)
        if progress is not None:
            progress(done, len(chosen) if dry_run else 2 * len(chosen))
    if dry_run or (report.refused and not skip_refused):
        return report
    steps = len(chosen) + len(checked) + len(waiting)  # each play checked, then each written
    with transaction.atomic(), announcements_batched():
        for start in range(0, len(checked), BATCH):
            games = records.match_records_confirmed(
                records=checked[start : start + BATCH], recorded_by=by
            )
            report.game_ids += [game.pk for game in games]
            if progress is not None:
                progress(len(chosen) + len(report.game_ids), steps)
        # One at a time, as from the record form: each waits for those who have not agreed.
        for record in waiting:
            game = records.record_write(record=record, recorded_by=by, on_behalf_of=vouched)
            report.game_ids.append(game.pk)
            if progress is not None:
                progress(len(chosen) + len(report.game_ids), steps)
        through = League.games.through
        through.objects.bulk_create(
            [through(league_id=league.pk, game_id=pk) for pk in report.game_ids],
            batch_size=BATCH,
        )
    report.imported = True
    return report


def _same_play(slug: str, played: dt.datetime, players: Iterable[str]) -> tuple:
    """What makes two plays the same play: the game, the day it was played (UTC) and the
    players (members by username, guests by name), case and order aside."""
    names = tuple(sorted(name.casefold() for name in players))
    return (slug, played.astimezone(dt.UTC).date(), names)


def _plays_in(league: League) -> Counter[tuple]:
    """The league's plays by :func:`_same_play`, counted: its finished games, and its records
    waiting for confirmation (an import naming someone not yet in the league writes those)."""
    plays: Counter[tuple] = Counter()
    finished = league.games.filter(status=GameStatus.FINISHED, result__isnull=False)
    for slug, finished_at, result in finished.values_list("slug", "finished_at", "result"):
        if finished_at is not None:
            plays[_same_play(slug, finished_at, (line["player"] for line in result))] += 1
    waiting = dict(
        league.games.filter(mode=GameMode.RECORD, status=GameStatus.ACTIVE).values_list(
            "pk", "slug"
        )
    )
    states = record_reads.result_states(list(waiting)) if waiting else {}
    for pk, state in states.items():
        if state["played_at"] and state["reported"]:
            played = dt.datetime.fromisoformat(state["played_at"])
            names = (line["player"] for line in state["reported"])
            plays[_same_play(waiting[pk], played, names)] += 1
    return plays


def _refuse_unknown_members(parsed: files.Parsed) -> None:
    """A CSV names members by username: refuse the plays naming someone who is not one."""
    wanted = {s.player for play in parsed.plays for s in play.seats if not s.guest}
    known = set(
        User.objects.filter(username__in=wanted, is_active=True)
        .exclude(bots())
        .values_list("username", flat=True)
    )
    kept = []
    for play in parsed.plays:
        unknown = [s for s in play.seats if not s.guest and s.player not in known]
        for seat in unknown:
            parsed.refused.append(
                Refusal(
                    seat.where, f"player: no member {seat.player!r} (write guest=yes for a guest)"
                )
            )
        if unknown:
            parsed.refused.append(Refusal(play.where, "refused with its rows above"))
        else:
            kept.append(play)
    parsed.plays = kept


def _map_to_members(parsed: files.Parsed, league: League, report: ImportReport) -> None:
    """BG Stats (and a CSV without a guest column) names people as it likes: a name that is a league member's (or invited
    person's) username or full name (case aside) is that member; anyone else is a guest."""
    members: dict[str, str] = {}
    # Those asked to join are members here too: their plays wait for their confirmation.
    asked = User.objects.filter(
        Q(membership__league=league) | Q(league_invitations__league=league), is_active=True
    ).distinct()
    for user in asked:
        for name in (user.username, user.get_full_name()):
            if name.strip():
                members.setdefault(name.strip().casefold(), user.username)
    for play in parsed.plays:
        for seat in play.seats:
            username = members.get(seat.player.casefold())
            if username is not None:
                report.members[seat.player] = username
                seat.player, seat.guest = username, False
            else:
                seat.player = seat.player[: records.GUEST_NAME_MAX]
    report.guests = sorted({s.player for play in parsed.plays for s in play.seats if s.guest})


# -- export ---------------------------------------------------------------------------------------


def league_plays(league: League) -> list[Play]:
    """The league's finished games as plays, in the order they were played."""
    games = (
        league.games.filter(status=GameStatus.FINISHED, result__isnull=False)
        .order_by("finished_at", "pk")
        .prefetch_related("seats__user")
    )
    plays = []
    for game in games:
        seats = sorted(game.seats.all(), key=lambda s: s.index)
        plays.append(
            Play(
                key=str(game.pk),
                where=f"game {game.pk}",
                date=game.finished_at,
                game=game.slug,
                seats=[
                    Seat(
                        where="",
                        player=line["player"],
                        guest=bool(seat.guest or seat.bot),
                        score=line["score"],
                        rank=line["rank"],
                    )
                    for seat, line in zip(seats, game.result)
                ],
            )
        )
    return plays


def plays_export(*, league: League, format: str) -> tuple[str, str]:
    """The league's plays as a file: its text and its content type."""
    if format == "csv":
        return files.write_csv(league_plays(league)), "text/csv"
    if format == "bgstats":
        return files.write_bgstats(league_plays(league), game_types(), league.name), (
            "application/json"
        )
    raise InvalidInput(f"format must be one of {', '.join(files.FORMATS)}")
