"""League services: clubs, their members and seasons, and club game records."""

from __future__ import annotations

import datetime as dt
import itertools
import re
from typing import Any

from anyascii import anyascii
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.bots import is_bot_account, is_house_bot
from core import inputs
from core.errors import (
    Conflict,
    InvalidInput,
    NotYourSeat,
    Refused,
    RuleViolation,
    UnknownName,
)
from games.models import Game
from games.records import services as records
from league.models import League, LeagueInvitation, Membership, Season, Tournament
from league.selectors import (
    is_league_member,
    is_league_organiser,
    may_correct_record,
    members_vouched_for,
)
from league.services import clubs
from league.webhooks import outbox

User = get_user_model()


SLUG_LENGTH = League._meta.get_field("slug").max_length
# The slug of a name with nothing to transliterate (all punctuation, say).
GENERATED_SLUG = "league"


def name_slug(name: str, max_length: int = SLUG_LENGTH) -> str:
    """A name in ASCII for an address or a file name: transliterated (anyascii romanises
    every script it can and names emoji: "Λέσχη Πειραιά" is "leschi-peiraia", "🐙" is
    "octopus"), then slugified; empty if nothing is left."""
    # anyascii writes an emoji as its name between colons (":octopus:"): a word of its own.
    return slugify(anyascii(name).replace(":", " "))[:max_length].strip("-")


@transaction.atomic
def league_create(
    *,
    name: str,
    created_by: AbstractUser,
    description: str = "",
    visibility: str = League.Visibility.PUBLIC,
) -> League:
    """A league called ``name`` exactly as typed, in any script, owned by whoever made it.
    Its slug is the name in ASCII (or ``league`` where nothing transliterates), with ``-2``,
    ``-3``... where another league has it; the same name again, whatever its case, is
    refused."""
    name = inputs.text(name, "name", 100)
    if visibility not in League.Visibility.values:
        raise InvalidInput(f"visibility must be one of {', '.join(League.Visibility.values)}")
    description = inputs.text(description or "", "description", 5000, blank=True)
    base = name_slug(name) or GENERATED_SLUG
    # Leagues whose name has the same slug as this one's, with or without a suffix.
    family = {
        league.slug: league.name
        for league in League.objects.filter(slug__startswith=base).only("slug", "name")
        if re.fullmatch(rf"{re.escape(base)}(-[0-9]+)?", league.slug)
    }
    if any(other.casefold() == name.casefold() for other in family.values()):
        raise Conflict(f"a league called {name!r} exists already")
    for number in itertools.count(1):
        suffix = "" if number == 1 else f"-{number}"
        slug = base[: SLUG_LENGTH - len(suffix)].rstrip("-") + suffix
        if slug in family:
            continue
        try:
            with transaction.atomic():  # another league may take the slug first
                league = League.objects.create(
                    name=name, slug=slug, description=description, visibility=visibility
                )
        except IntegrityError:
            continue
        break
    Membership.objects.create(league=league, user=created_by, role=Membership.Role.OWNER)
    return league


@transaction.atomic
def member_invite(
    *, league: League, player: str, role: str = "member", by: AbstractUser
) -> Membership | LeagueInvitation:
    """An organiser asks someone to join the league (as a member or an organiser): an
    invitation, which they accept or decline; nobody becomes a member unasked. Asking again
    changes the role asked; a member's role is changed at once (they have agreed to be in
    the league already)."""
    if not is_league_organiser(league, by):
        raise NotYourSeat("only the league's organisers may invite members")
    if role not in (Membership.Role.MEMBER, Membership.Role.ORGANISER):
        raise InvalidInput('role must be "member" or "organiser"')
    player = inputs.text(player, "player", 150)
    user = User.objects.filter(username=player, is_active=True).first()
    if user is None or is_house_bot(user):
        raise UnknownName(f"no player {player!r}")
    if is_bot_account(user):
        raise Refused(f"{player} is a bot account, and leagues are for people")
    if Membership.objects.filter(league=league, user=user).exists():
        return clubs.role_set(league=league, player=user.username, role=role, by=by)
    invitation, _ = LeagueInvitation.objects.update_or_create(
        league=league, user=user, defaults={"role": role, "invited_by": by}
    )
    return invitation


def _own_invitation(league: League, by: AbstractUser, player: str | None) -> LeagueInvitation:
    """The invitation ``by`` answers: their own, waiting (locked), or why not."""
    if player is not None and player != by.username:
        raise NotYourSeat("only the person invited may answer an invitation: answer your own")
    invitation = LeagueInvitation.objects.select_for_update().filter(league=league, user=by).first()
    if invitation is not None:
        return invitation
    if Membership.objects.filter(league=league, user=by).exists():
        raise Conflict(f"you are a member of {league.name} already")
    raise Conflict(f"you have no invitation to {league.name} waiting (declined, or never sent)")


@transaction.atomic
def invitation_accept(*, league: League, by: AbstractUser, player: str | None = None) -> Membership:
    """The person invited joins, in the role they were asked to take: from now on the
    league's organisers may record and confirm its games for them."""
    invitation = _own_invitation(league, by, player)
    membership = Membership.objects.create(league=league, user=by, role=invitation.role)
    invitation.delete()
    return membership


@transaction.atomic
def invitation_decline(*, league: League, by: AbstractUser, player: str | None = None) -> None:
    """The person invited says no: the invitation is gone (the organisers may ask again)."""
    _own_invitation(league, by, player).delete()


@transaction.atomic
def season_add(
    *,
    league: League,
    name: str,
    starts_on: dt.date | str,
    ends_on: dt.date | str | None = None,
    by: AbstractUser,
) -> Season:
    if not is_league_organiser(league, by):
        raise NotYourSeat("only the league's organisers may add seasons")
    name = inputs.text(name, "name", 100)
    starts_on = inputs.calendar_date(starts_on, "starts_on")
    ends_on = None if ends_on is None else inputs.calendar_date(ends_on, "ends_on")
    # One writer of a league's seasons at a time, so two overlapping ones cannot both pass.
    League.objects.select_for_update().filter(pk=league.pk).first()
    season = Season(league=league, name=name, starts_on=starts_on, ends_on=ends_on)
    try:
        season.clean()
    except ValidationError as exc:
        raise Refused("; ".join(exc.messages)) from None
    season.save()
    return season


@transaction.atomic
def season_tournament_add(
    *, season: Season, tournament: Tournament, by: AbstractUser
) -> Tournament:
    """Put one of the league's tournaments in one of its seasons: its games then count in that
    season's standings, whatever their dates."""
    if not is_league_organiser(season.league, by):
        raise NotYourSeat("only the league's organisers may arrange its seasons")
    if tournament.league_id != season.league_id:
        raise RuleViolation(f"{tournament.name} is not a tournament of {season.league.name}")
    tournament.season = season
    tournament.save(update_fields=["season"])
    return tournament


@transaction.atomic
def match_record(
    *,
    game: Any,
    played_at: Any,
    results: Any,
    recorded_by,
    league: Any = None,
    notes: Any = "",
    bid: Any = None,
    sheet: Any = None,
) -> Game:
    """A club record of a game played on a table, in a league if one is named. It waits for
    the members it names to confirm it; a league organiser's word stands for the league's
    members (staff's for everyone), never for someone who has not agreed to be one."""
    club = None
    if league is not None:
        club = League.objects.filter(slug=league).first() if isinstance(league, str) else None
        if club is None:
            raise UnknownName(f"no league {league!r}")
        if not is_league_member(club, recorded_by):
            raise NotYourSeat("only the league's members may record its games")
    record = records.record_check(
        slug=game, played_at=played_at, results=results, notes=notes, bid=bid, sheet=sheet
    )
    named = {seat.user.username for seat in record.seats if seat.user_id}
    recorded = records.record_write(
        record=record,
        recorded_by=recorded_by,
        on_behalf_of=members_vouched_for(named, by=recorded_by, leagues=[club] if club else []),
    )
    if club is not None:
        club.games.add(recorded)
        # Its webhooks hear of a record final at once here: the game's write came first.
        outbox.club_result(recorded, club)
    return recorded


def match_correct(
    *,
    game: Game,
    results: list[dict[str, Any]],
    by: AbstractUser,
    reason: str = "",
    sheet: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Correct a club record: its recorder, a league organiser or staff. The correction waits
    for the members named to confirm it; an organiser's stands for the league's members."""
    if not may_correct_record(game, by):
        raise NotYourSeat("only whoever recorded the game or an organiser may correct it")
    return records.result_correct(
        game=game,
        results=results,
        by=by,
        reason=reason,
        sheet=sheet,
        on_behalf_of=_vouched(game, by) or (),
    )


def match_confirm(*, game: Game, by: AbstractUser) -> dict[str, Any]:
    """A named member confirms a club record; a league organiser confirms it for the members
    of the league named in it (not for anyone who has not joined)."""
    return records.record_confirm(game=game, user=by, on_behalf_of=_vouched(game, by))


def _vouched(game: Game, by: AbstractUser) -> set[str] | None:
    """The members named in ``game`` whose confirmation ``by``'s stands for, or None if
    ``by`` is neither staff nor an organiser of a league the record belongs to."""
    clubs = [club for club in game.leagues.all() if is_league_organiser(club, by)]
    if not by.is_authenticated or not (by.is_staff or clubs):
        return None
    named = {seat.user.username for seat in game.seats.select_related("user") if seat.user_id}
    return members_vouched_for(named, by=by, leagues=clubs)


def match_dispute(*, game: Game, by: AbstractUser, reason: str = "") -> dict[str, Any]:
    return records.record_dispute(game=game, user=by, reason=reason)
