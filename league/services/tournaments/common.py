"""What every part of a tournament's services shares: entrants by name, the log, who may act."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model

from accounts.bots import bot_level, bot_user, is_bot, is_house_bot
from core import inputs
from core.errors import (
    InvalidInput,
    NotYourSeat,
    Refused,
    UnknownName,
)
from league.models import (
    GUEST_MARK,
    Entry,
    Tournament,
    TournamentEvent,
)
from league.selectors import (
    is_tournament_organiser,
)

User = get_user_model()


def _answer(user, by) -> str:
    """An entry's answer as it is made: entering oneself is agreeing (and a house bot has
    nobody to ask; a bot account's member answers through the API); an organiser entering
    someone asks them (league.consent: their games wait)."""
    if user.pk == by.pk or is_house_bot(user):
        return Entry.Answer.ACCEPTED
    return Entry.Answer.INVITED


def _whole(value: Any, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be a whole number from {low} to {high}")
    return value


def _player(name: Any, *, people_only: bool = False):
    """An entrant: a member, or a bot player (created on entry, so a tournament of bots can
    be held); with ``people_only``, no bot of either kind."""
    name = inputs.text(name, "player", 150)
    level = bot_level(name)
    if level is not None:
        if people_only:
            raise Refused(_bots_out(name))
        return bot_user(level, name)
    user = User.objects.filter(username=name, is_active=True).first()
    if user is None:
        raise UnknownName(f"no player {name!r}")
    if people_only and is_bot(user):
        raise Refused(_bots_out(name))
    return user


def _bots_out(name: str) -> str:
    return f"{name} is a bot, and this tournament is for people only"


def _entry_named(tournament: Tournament, name: Any, missing: type[Exception] = Refused) -> Entry:
    """The entry of the entrant named ``name`` as the tournament names them (Entry.name): a
    member by username, a walk-in not yet claimed as "Ann (guest)"."""
    name = inputs.text(name, "player", 150)
    entries = tournament.entries.select_related("user")
    if name.endswith(GUEST_MARK):
        entry = entries.filter(user__isnull=True, guest=name.removesuffix(GUEST_MARK)).first()
    else:
        entry = entries.filter(user__username=name).first()
    if entry is None:
        raise missing(f"{name!r} has not entered this tournament")
    return entry


def _log(tournament: Tournament, kind: str, actor, data: dict[str, Any]) -> None:
    TournamentEvent.objects.create(tournament=tournament, kind=kind, actor=actor, data=data)


def _require_organiser(tournament: Tournament, user) -> None:
    if not is_tournament_organiser(tournament, user):
        raise NotYourSeat("only the tournament's organisers may do that")


def _active_players(tournament: Tournament, number: int) -> list[str]:
    """Entrants in seed order who play round ``number``: in (not waiting for a place), and not
    dropped before it."""
    return [
        e.name
        for e in tournament.entries.select_related("user")
        if not e.waitlisted
        and e.entered_after_round < number
        and (e.dropped_after_round is None or e.dropped_after_round >= number)
    ]


def _started(tournament: Tournament) -> bool:
    return tournament.round_set.exists()


def _in_count(tournament: Tournament) -> int:
    """Entrants holding a place before round 1: not waiting, not withdrawn."""
    return tournament.entries.filter(waitlisted=False, dropped_after_round__isnull=True).count()


def _next_seed(tournament: Tournament) -> int:
    return (tournament.entries.order_by("-seed").values_list("seed", flat=True).first() or 0) + 1


def _stage_of(tournament: Tournament, number: int) -> str:
    return "cut" if tournament.top_cut and number > tournament.rounds else "main"
