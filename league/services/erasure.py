"""A member erased for good (GDPR article 17), the history of their club kept true: their games,
ratings and places in standings remain as a former member's, and every log still verifies.

The logs name people by id (games/eventschema.py), so erasing someone changes no event: what
goes is their name (their account's, and the copies the projections and the tournament logs
keep), their e-mail and password, and the key their notes were sealed under. What they leave
running is settled first, each by an event (games.play.leaving); what only they can do stops
the erasure with the reason, until they hand it over.

Every erasure is written to the ledger (HADAL_ERASURE_LEDGER) by public id alone, apart from
the database, so that one restored from a backup older than the erasure can be erased again
(:func:`ledger_replay`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import transaction

from accounts import people as accounts_people
from accounts.bots import is_house_bot
from accounts.models import Person
from core.errors import Conflict, InvalidInput
from games import people
from games.play import leaving
from inbox import services as inbox
from league.models import (
    ORGANISING,
    Entry,
    JoinRequest,
    League,
    LeagueInvitation,
    RoundDraft,
    Tournament,
    TournamentEvent,
    guest_name,
)
from league.services import clubs


@dataclass
class Erased:
    public_id: str
    games_left: list[int] = field(default_factory=list)
    games_kept: int = 0


def why_not_erasable(user: AbstractUser) -> list[str]:
    """What only ``user`` can do, that an erasure would leave undone; empty when nothing."""
    if is_house_bot(user):
        return ["a bot's account is not a person's: it is never erased"]
    reasons = leaving.why_member_cannot_leave(user)
    running = Tournament.objects.filter(organisers=user).exclude(status=Tournament.Status.FINISHED)
    for tournament in running.order_by("pk"):
        others = tournament.organisers.exclude(pk=user.pk).exists() or (
            tournament.league is not None
            and tournament.league.membership_set.filter(role__in=ORGANISING)
            .exclude(user=user)
            .exists()
        )
        if not others:
            reasons.append(
                f"you are the only organiser of {tournament.name}, which is not over: add "
                "another organiser or finish it first"
            )
    for league in League.objects.filter(membership__user=user).order_by("pk"):
        why = clubs.why_cannot_leave(league, user)
        if why:
            reasons.append(why)
    return reasons


def member_erase(*, user: AbstractUser) -> Erased:
    """Erase ``user``; Conflict (nothing changed) with every reason it cannot be done yet."""
    reasons = why_not_erasable(user)
    if reasons:
        raise Conflict("the account cannot be erased yet: " + "; ".join(reasons))
    with transaction.atomic():
        left = leaving.member_leaves(user)
        for tournament in Tournament.objects.filter(organisers=user):
            tournament.organisers.remove(user)
        for league in League.objects.filter(membership__user=user):
            clubs.member_leave(league=league, by=user)
        LeagueInvitation.objects.filter(user=user).delete()
        JoinRequest.objects.filter(user=user).delete()
        old = user.username
        person = accounts_people.erase_account(user)
        kept = people.forget_member(user, old, user.username)
        inbox.member_forget(user_id=user.pk, old=old, new=accounts_people.FORMER_MEMBER)
        _rename_in_tournament_logs(old, user.username)
    _ledger(person)
    return Erased(public_id=person.public_id, games_left=left, games_kept=kept)


def guest_erase(*, name: str) -> Erased:
    """Erase a guest a club recorded by ``name``: their name goes from every record."""
    with transaction.atomic():
        person = accounts_people.erase_guest(name)
        if person is None:
            raise InvalidInput(f"no guest is recorded as {name!r}")
        kept = people.forget_guest(name, accounts_people.FORMER_GUEST)
        # A tournament's walk-in goes by the name too (their entry, and the log's lines).
        Entry.objects.filter(guest=name).update(guest=accounts_people.FORMER_GUEST)
        old, new = guest_name(name), guest_name(accounts_people.FORMER_GUEST)
        _rename_in_tournament_logs(old, new)
        for draft in RoundDraft.objects.filter(
            tournament__entries__guest=accounts_people.FORMER_GUEST
        ).distinct():
            draft.tables, draft.byes = (
                _renamed(draft.tables, old, new),
                _renamed(draft.byes, old, new),
            )
            draft.save(update_fields=["tables", "byes"])
    _ledger(person)
    return Erased(public_id=person.public_id, games_kept=kept)


def _rename_in_tournament_logs(old: str, new: str) -> None:
    """The tournaments' own logs name players by username: the erased one's, replaced."""
    for pk, data in TournamentEvent.objects.filter(data__icontains=old).values_list("pk", "data"):
        renamed = _renamed(data, old, new)
        if renamed != data:
            TournamentEvent.objects.filter(pk=pk).update(data=renamed)


def _renamed(value: Any, old: str, new: str) -> Any:
    if value == old:
        return new
    if isinstance(value, list):
        return [_renamed(v, old, new) for v in value]
    if isinstance(value, dict):
        return {k: _renamed(v, old, new) for k, v in value.items()}
    return value


# -- the ledger -------------------------------------------------------------------------------------


def _ledger(person: Person) -> None:
    path = Path(settings.HADAL_ERASURE_LEDGER)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = {"public_id": person.public_id, "erased_at": person.erased_at.isoformat()}
    with path.open("a", encoding="utf-8") as ledger:
        ledger.write(json.dumps(line) + "\n")


def ledger_replay(path: str) -> list[str]:
    """Erase again everyone the ledger at ``path`` lists who is not erased here (a database
    restored from before their erasure); returns their public ids."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise InvalidInput(f"cannot read the ledger {path}: {exc.strerror}") from None
    wanted = []
    for number, line in enumerate(lines, start=1):
        try:
            entry = json.loads(line)
            wanted.append(entry["public_id"])
        except (ValueError, KeyError, TypeError):
            raise InvalidInput(f"the ledger's line {number} is not an erasure") from None
    erased = []
    for person in Person.objects.filter(public_id__in=wanted, erased_at__isnull=True):
        if person.user is not None:
            member_erase(user=person.user)
        else:
            guest_erase(name=person.guest_name)
        erased.append(person.public_id)
    return erased
