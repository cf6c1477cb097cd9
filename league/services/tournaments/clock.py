"""The round clock of a tournament played on tables: started, paused and resumed, extended,
and extra time for one table. A round ends ``minutes`` after ``started_at`` (a pause moves
``started_at`` on by its length when the clock resumes); a table with extra time ends that
much later. Each change is logged."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.utils import timezone

from core import inputs
from core.errors import (
    RuleViolation,
    UnknownName,
)
from league.models import (
    Round,
    Table,
    Tournament,
)
from league.selectors import (
    live_rounds,
)
from league.services.tournaments.common import _log, _require_organiser


@transaction.atomic
def round_start(
    *, tournament: Tournament, number: int, by: AbstractUser, minutes: Any = None
) -> Round:
    """Start the clock of round ``number`` (table mode), for ``minutes`` or the tournament's
    round length. Logged; a clock once started stands."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.mode != Tournament.Mode.TABLE:
        raise RuleViolation("round clocks are for tournaments played on tables")
    round_ = live_rounds(tournament).filter(number=number).first()
    if round_ is None:
        raise UnknownName(f"round {number} has not been paired")
    if round_.started_at is not None:
        raise RuleViolation(f"round {number}'s clock is already running")
    if minutes is None or (isinstance(minutes, str) and not minutes.strip()):
        minutes = tournament.round_minutes
    if minutes is None:
        raise RuleViolation("say how many minutes the round lasts")
    minutes = inputs.whole_number(minutes, "minutes", 5, 600)  # a page's form sends text
    round_.started_at = timezone.now()
    round_.minutes = minutes
    round_.save(update_fields=["started_at", "minutes"])
    _log(
        tournament,
        "RoundStarted",
        by,
        {"round": number, "minutes": minutes, "at": round_.started_at.isoformat()},
    )
    return round_


@transaction.atomic
def round_pause(*, tournament: Tournament, number: int, by: AbstractUser) -> Round:
    """Stop round ``number``'s clock (a fire alarm, a long ruling); logged."""
    tournament, round_ = _running(tournament, number, by)
    if round_.paused_at is not None:
        raise RuleViolation(f"round {number}'s clock is already paused")
    round_.paused_at = timezone.now()
    round_.save(update_fields=["paused_at"])
    _log(tournament, "RoundPaused", by, {"round": number, "at": round_.paused_at.isoformat()})
    return round_


@transaction.atomic
def round_resume(*, tournament: Tournament, number: int, by: AbstractUser) -> Round:
    """Start round ``number``'s clock again with the time it had left; logged."""
    tournament, round_ = _running(tournament, number, by)
    if round_.paused_at is None:
        raise RuleViolation(f"round {number}'s clock is not paused")
    now = timezone.now()
    assert round_.started_at is not None
    round_.started_at += now - round_.paused_at
    seconds = round((now - round_.paused_at).total_seconds())
    round_.paused_at = None
    round_.save(update_fields=["started_at", "paused_at"])
    _log(tournament, "RoundResumed", by, {"round": number, "paused_seconds": seconds})
    return round_


@transaction.atomic
def round_extend(*, tournament: Tournament, number: int, by: AbstractUser, minutes: Any) -> Round:
    """Give the whole of round ``number`` ``minutes`` more; logged."""
    tournament, round_ = _running(tournament, number, by)
    minutes = inputs.whole_number(minutes, "minutes", 1, 120)
    round_.minutes = (round_.minutes or 0) + minutes
    round_.save(update_fields=["minutes"])
    _log(tournament, "RoundExtended", by, {"round": number, "minutes": minutes})
    return round_


@transaction.atomic
def table_extra_time(
    *, tournament: Tournament, table: Table, by: AbstractUser, minutes: Any
) -> Table:
    """Give one table ``minutes`` beyond the round's clock (a late start, a judge's call); it
    adds up; logged."""
    tournament, _ = _running(tournament, table.round.number, by)
    if table.game.status != "active":
        raise RuleViolation(f"table {table.number} has finished")
    minutes = inputs.whole_number(minutes, "minutes", 1, 120)
    table.extra_minutes += minutes
    table.save(update_fields=["extra_minutes"])
    _log(
        tournament,
        "TableExtraTime",
        by,
        {"round": table.round.number, "table": table.number, "minutes": minutes},
    )
    return table


def _running(tournament: Tournament, number: int, by: AbstractUser) -> tuple[Tournament, Round]:
    """The tournament (locked) and its round ``number``, whose clock has started."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.mode != Tournament.Mode.TABLE:
        raise RuleViolation("round clocks are for tournaments played on tables")
    if tournament.status == Tournament.Status.FINISHED:
        raise RuleViolation("the tournament is over")
    round_ = live_rounds(tournament).filter(number=number).first()
    if round_ is None:
        raise UnknownName(f"round {number} has not been paired")
    if round_.started_at is None:
        raise RuleViolation(f"round {number}'s clock has not started")
    return tournament, round_
