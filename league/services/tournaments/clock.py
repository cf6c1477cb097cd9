"""The round clock of a tournament played on tables."""

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
