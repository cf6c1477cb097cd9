"""Walk-ins: a player without an account, entered by an organiser by name at a tournament
played at the venue, and the member who claims the entry later with the code on their slip.

A walk-in sits at their tables as a guest, by name, as a club record seats one (games.models.
Seat.guest): never rated, and shown as "Ann (guest)". The tournament names the entry so
(league.models.Entry.name) until a member claims it; from then on it is theirs: its standings,
its past tables and its later games, which seat the member and are rated as any other. The
games played before the claim keep their guest's seat (a game's log is never edited): the
tournament reads them as the member's (league.selectors.seat_names), ratings and league tables
as a guest's. Claiming is the member's own act, with the code an organiser gave the walk-in
(printed on the page's walk-in list): nobody's results are put on a member who did not ask.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from accounts.bots import is_bot
from core import inputs
from core.errors import Conflict, Refused, RuleViolation
from games.records.services import GUEST_NAME_MAX
from league.models import GUEST_MARK, Entry, Tournament
from league.services.tournaments.common import _log, _require_organiser
from league.services.tournaments.entries import _enter

# Codes an organiser reads out or prints: no 0/O or 1/I to confuse.
CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
CODE_LENGTH = 8


@transaction.atomic
def entry_walk_in(*, tournament: Tournament, name: Any, by: AbstractUser) -> Entry:
    """An organiser enters a walk-in by ``name`` (before round 1, or late in a Swiss event, as
    any entry): checked in, since they are at the venue, with a claim code for their slip."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    if tournament.mode != Tournament.Mode.TABLE:
        raise RuleViolation(
            "this tournament is played online, where every player needs an account:"
            " a walk-in plays at a table at the venue"
        )
    name = inputs.text(name, "the walk-in's name", GUEST_NAME_MAX).removesuffix(GUEST_MARK)
    name = name.strip()
    if not name:
        raise RuleViolation("give the walk-in's name")
    if tournament.entries.filter(user__username__iexact=name).exists():
        raise RuleViolation(
            f"{name} is the name of a member entered here: give the walk-in another form of"
            " the name (Ann B.)"
        )
    # The same walk-in again (withdrawn before round 1, say) is theirs to re-enter; any other
    # with the name, in any case, or claimed since, would read alike at a table.
    clash = (
        tournament.entries.filter(guest__iexact=name)
        .exclude(user__isnull=True, guest=name)
        .select_related("user")
        .first()
    )
    if clash is not None:
        raise RuleViolation(
            f"a walk-in named {clash.guest} has entered already: give this one another form"
            " of the name (Ann B.)"
        )
    entry = _enter(tournament, None, by, guest=name)
    if not entry.claim_code:
        entry.claim_code = _new_code(tournament)
        entry.save(update_fields=["claim_code"])
    return entry


def _new_code(tournament: Tournament) -> str:
    taken = set(tournament.entries.exclude(claim_code="").values_list("claim_code", flat=True))
    while True:
        code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        if code not in taken:
            return code


@transaction.atomic
def entry_claim(*, tournament: Tournament, code: Any, by: AbstractUser) -> Entry:
    """A member claims a walk-in's entry with its code: the entry, its standing and its tables
    are theirs from now on (the module's docstring says what stays a guest's)."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    raw = inputs.text(code, "code", 40)
    clean = "".join(ch for ch in raw.upper() if ch.isalnum())
    if is_bot(by):
        raise Refused("a bot cannot claim a walk-in's entry")
    entry = (
        tournament.entries.filter(user__isnull=True, claim_code=clean).first()
        if len(clean) == CODE_LENGTH
        else None
    )
    if entry is None:
        raise Refused(
            f"no walk-in of {tournament.name} has the code {raw!r}: check it with an organiser"
        )
    mine = tournament.entries.filter(user=by).first()
    if mine is not None:
        raise Conflict(
            f"you are entered in {tournament.name} already: one player, one entry (ask an"
            " organiser if the walk-in was you)"
        )
    walk_in = entry.name
    entry.user = by
    entry.claim_code = ""
    entry.answer = Entry.Answer.ACCEPTED  # claiming it is saying yes
    entry.save(update_fields=["user", "claim_code", "answer"])
    _log(tournament, "EntryClaimed", by, {"walk_in": walk_in, "player": by.username})
    return entry
