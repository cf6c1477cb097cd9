"""A club's door and its people: who sees it (its visibility), how one gets in (an invitation
by name, an invite link, a request to join), the roles (owner, organisers, members), handing
the club over, leaving it and being removed, and a tournament's own organisers.

Every change is written to the club's log (league.models.ClubEvent), and whoever it concerns is
told in their inbox (league.notices). A member who leaves or is removed keeps
their place in the standings: those are the club's games, not its member list.
"""

from __future__ import annotations

import datetime as dt
import secrets
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractUser
from django.db import transaction
from django.db.models import F
from django.urls import reverse
from django.utils import timezone

from accounts.bots import is_bot
from core import inputs
from core.errors import Conflict, InvalidInput, NotYourSeat, Refused, UnknownName
from league import notices
from league.models import (
    ORGANISING,
    ClubEvent,
    InviteLink,
    JoinRequest,
    League,
    LeagueInvitation,
    Membership,
    Tournament,
    TournamentEvent,
)
from league.selectors import is_league_organiser, is_tournament_organiser

User = get_user_model()
Role = Membership.Role

# An invite link lasts a week and lets twenty people in unless the organiser says otherwise,
# and at most a quarter of a year and a thousand people.
LINK_DAYS = 7
LINK_MAX_DAYS = 92
LINK_USES = 20
LINK_MAX_USES = 1000
# Someone whose request was declined may ask again after this long.
ASK_AGAIN_AFTER = dt.timedelta(days=7)


def _log(league: League, kind: str, *, actor=None, member=None, **data: Any) -> None:
    ClubEvent.objects.create(league=league, kind=kind, actor=actor, member=member, data=data)


def _tell(users, text: str, league: League, **extra: Any) -> None:
    """Tell ``users`` (ids) ``text`` about ``league``, in their inbox (league.notices)."""
    notices.club_news(users, text, league, **extra)


def _organiser_ids(league: League) -> list[int]:
    return list(league.membership_set.filter(role__in=ORGANISING).values_list("user_id", flat=True))


def _membership(league: League, user) -> Membership | None:
    if not user.is_authenticated:
        return None
    return Membership.objects.filter(league=league, user=user).first()


def require_organiser(league: League, by, what: str) -> None:
    if not is_league_organiser(league, by):
        raise NotYourSeat(f"only the club's organisers may {what}")


def _require_owner(league: League, by, what: str) -> None:
    mine = _membership(league, by)
    if not (by.is_authenticated and by.is_staff) and (mine is None or mine.role != Role.OWNER):
        raise NotYourSeat(f"only the club's owner may {what}")


def _name_in_path(player: Any) -> str:
    """A name from an address (``…/members/{player}/``): one no account can have (control
    characters, too long) names no one, a 404 as an unknown name is, not a 400."""
    try:
        return inputs.text(player, "player", 150)
    except InvalidInput:
        raise UnknownName("no such player") from None


def _member_named(league: League, player: Any) -> Membership:
    player = _name_in_path(player)
    found = (
        Membership.objects.select_for_update()
        .select_related("user")
        .filter(league=league, user__username=player)
        .first()
    )
    if found is None:
        raise UnknownName(f"{player} is not a member of {league.name}")
    return found


def _person(user: AbstractUser) -> None:
    """A club is for people: a bot cannot join one (house bots nor bot accounts)."""
    if is_bot(user):
        raise Refused("a bot cannot join a club")


def _join(league: League, user, *, how: str, actor=None, **data: Any) -> Membership:
    """Make ``user`` a member (nothing else waiting for them stays: an invitation by name,
    a request), logged as ``how``."""
    membership = Membership.objects.create(league=league, user=user, role=Role.MEMBER)
    LeagueInvitation.objects.filter(league=league, user=user).delete()
    JoinRequest.objects.filter(league=league, user=user, answer=JoinRequest.Answer.WAITING).update(
        answer=JoinRequest.Answer.ACCEPTED, answered_by=actor, answered_at=timezone.now()
    )
    _log(league, "joined", actor=actor or user, member=user, how=how, **data)
    return membership


# -- the club itself ------------------------------------------------------------------------------


@transaction.atomic
def league_update(
    *,
    league: League,
    by: AbstractUser,
    name: Any = None,
    description: Any = None,
    visibility: Any = None,
) -> League:
    """Change a club's name, description or visibility (its organisers)."""
    require_organiser(league, by, "change the club")
    league = League.objects.select_for_update().get(pk=league.pk)
    changed = []
    if name is not None:
        name = inputs.text(name, "name", 100)
        clash = League.objects.filter(name__iexact=name).exclude(pk=league.pk).exists()
        if clash:
            raise Conflict(f"a league called {name!r} exists already")
        league.name = name
        changed.append("name")
    if description is not None:
        league.description = inputs.text(description, "description", 5000, blank=True)
        changed.append("description")
    if visibility is not None:
        if visibility not in League.Visibility.values:
            raise InvalidInput(f"visibility must be one of {', '.join(League.Visibility.values)}")
        if visibility != league.visibility:
            _log(league, "visibility", actor=by, was=league.visibility, now=visibility)
        league.visibility = visibility
        changed.append("visibility")
    if changed:
        league.save(update_fields=changed)
    return league


# -- invite links ---------------------------------------------------------------------------------


def link_url(link: InviteLink) -> str:
    return reverse("club-join", args=[link.code])


def link_state(link: InviteLink, now: dt.datetime | None = None) -> str:
    """``open``, ``revoked``, ``expired`` or ``used up``."""
    now = now or timezone.now()
    if link.revoked_at is not None:
        return "revoked"
    if link.expires_at <= now:
        return "expired"
    if link.uses >= link.max_uses:
        return "used up"
    return "open"


@transaction.atomic
def link_create(
    *, league: League, by: AbstractUser, days: Any = None, max_uses: Any = None
) -> InviteLink:
    """A new invite link to the club (its organisers): it lets in up to ``max_uses`` people
    in the next ``days`` days."""
    require_organiser(league, by, "make invite links")
    days = LINK_DAYS if days is None else inputs.whole_number(days, "days", 1, LINK_MAX_DAYS)
    uses = (
        LINK_USES
        if max_uses is None
        else inputs.whole_number(max_uses, "max_uses", 1, LINK_MAX_USES)
    )
    link = InviteLink.objects.create(
        league=league,
        code=secrets.token_urlsafe(16),
        created_by=by,
        expires_at=timezone.now() + dt.timedelta(days=days),
        max_uses=uses,
    )
    _log(league, "link made", actor=by, link=link.pk, days=days, max_uses=uses)
    return link


@transaction.atomic
def link_revoke(*, league: League, link_id: Any, by: AbstractUser) -> InviteLink:
    require_organiser(league, by, "revoke invite links")
    link_id = inputs.whole_number(link_id, "link", 0, inputs.BIGINT)
    link = InviteLink.objects.select_for_update().filter(league=league, pk=link_id).first()
    if link is None:
        raise UnknownName(f"{league.name} has no invite link {link_id}")
    if link.revoked_at is None:
        link.revoked_at = timezone.now()
        link.save(update_fields=["revoked_at"])
        _log(league, "link revoked", actor=by, link=link.pk)
    return link


def link_named(code: Any) -> InviteLink | None:
    """The invite link with this code, whatever its state, or None."""
    if not isinstance(code, str) or not code or len(code) > 64:
        return None
    return InviteLink.objects.select_related("league").filter(code=code).first()


def why_link_closed(link: InviteLink) -> str:
    state = link_state(link)
    return {
        "revoked": "this invite link was withdrawn by the club's organisers",
        "expired": f"this invite link expired on {link.expires_at:%d %B %Y}",
        "used up": "this invite link has been used as many times as it may be",
    }.get(state, "")


@transaction.atomic
def link_join(*, code: Any, by: AbstractUser) -> Membership:
    """``by`` joins the club through an invite link: refused, with the reason and nothing
    changed, for a link expired, used up or withdrawn, or a member already."""
    link = link_named(code)
    if link is None:
        raise UnknownName("no invite link has this code: check the link you were given")
    link = InviteLink.objects.select_for_update().select_related("league").get(pk=link.pk)
    league = link.league
    _person(by)
    if Membership.objects.filter(league=league, user=by).exists():
        raise Conflict(f"you are a member of {league.name} already")
    closed = why_link_closed(link)
    if closed:
        raise Conflict(closed)
    InviteLink.objects.filter(pk=link.pk).update(uses=F("uses") + 1)
    membership = _join(league, by, how="link", link=link.pk)
    _tell(_organiser_ids(league), f"{by.username} joined {league.name} by an invite link", league)
    return membership


# -- requests to join -----------------------------------------------------------------------------


@transaction.atomic
def join_ask(*, league: League, by: AbstractUser, message: Any = "") -> JoinRequest:
    """``by`` asks to join the club; its organisers are told and answer."""
    _person(by)
    message = inputs.text(message or "", "message", 500, blank=True)
    if Membership.objects.filter(league=league, user=by).exists():
        raise Conflict(f"you are a member of {league.name} already")
    if LeagueInvitation.objects.filter(league=league, user=by).exists():
        raise Conflict(f"you are invited to {league.name} already: accept the invitation")
    asked = JoinRequest.objects.filter(league=league, user=by).order_by("-created_at").first()
    if asked is not None and asked.answer == JoinRequest.Answer.WAITING:
        raise Conflict(f"you have asked to join {league.name} already: the organisers will answer")
    if (
        asked is not None
        and asked.answer == JoinRequest.Answer.DECLINED
        and asked.answered_at > timezone.now() - ASK_AGAIN_AFTER
    ):
        again = asked.answered_at + ASK_AGAIN_AFTER
        raise Conflict(
            f"{league.name} declined your request on {asked.answered_at:%d %B %Y}: you may ask "
            f"again from {again:%d %B %Y}"
        )
    request = JoinRequest.objects.create(league=league, user=by, message=message)
    _log(league, "asked to join", actor=by, member=by)
    notices.join_asked(league, _organiser_ids(league), by)
    return request


def join_requests(league: League) -> list[JoinRequest]:
    """The requests waiting for an answer, oldest first."""
    return list(
        league.join_requests.filter(answer=JoinRequest.Answer.WAITING).select_related("user")
    )


@transaction.atomic
def join_answer(*, league: League, player: Any, accept: bool, by: AbstractUser) -> JoinRequest:
    """An organiser accepts (``player`` becomes a member) or declines a request to join;
    ``player`` is told either way."""
    require_organiser(league, by, "answer requests to join")
    player = _name_in_path(player)
    request = (
        JoinRequest.objects.select_for_update()
        .select_related("user")
        .filter(league=league, user__username=player, answer=JoinRequest.Answer.WAITING)
        .first()
    )
    if request is None:
        raise UnknownName(f"{player} has no request to join {league.name} waiting")
    notices.join_answered(league, request.user_id)
    if accept:
        if not request.user.is_active:
            raise Conflict(f"{player} is no longer a member of the service")
        _join(league, request.user, how="request", actor=by)
        request.refresh_from_db()
        _tell([request.user.pk], f"Welcome to {league.name}: your request was accepted", league)
    else:
        request.answer = JoinRequest.Answer.DECLINED
        request.answered_by, request.answered_at = by, timezone.now()
        request.save(update_fields=["answer", "answered_by", "answered_at"])
        _log(league, "request declined", actor=by, member=request.user)
        _tell(
            [request.user.pk],
            f"{league.name} declined your request to join",
            league,
            url=reverse("leagues"),
        )
    return request


# -- roles, hand-over, leaving --------------------------------------------------------------------


@transaction.atomic
def role_set(*, league: League, player: Any, role: Any, by: AbstractUser) -> Membership:
    """Make a member an organiser or an organiser a member. Organisers may name organisers;
    only the owner may take the role back. The owner's own role changes only by handing the
    club over (:func:`hand_over`)."""
    if role not in (Role.MEMBER, Role.ORGANISER):
        raise InvalidInput(
            'role must be "member" or "organiser"; the owner hands the club over instead'
        )
    require_organiser(league, by, "change roles")
    membership = _member_named(league, player)
    if membership.role == Role.OWNER:
        raise Refused(f"{membership.user.username} owns {league.name}: only a hand-over moves that")
    if membership.role == Role.ORGANISER and role == Role.MEMBER:
        _require_owner(league, by, "take an organiser's role back")
    if membership.role != role:
        _log(league, "role", actor=by, member=membership.user, was=membership.role, now=role)
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def hand_over(*, league: League, player: Any, by: AbstractUser) -> Membership:
    """The owner hands the club to another member, who becomes its owner; the old owner stays
    on as an organiser."""
    _require_owner(league, by, "hand the club over")
    new = _member_named(league, player)
    if new.user_id == by.pk:
        raise Refused(f"you own {league.name} already")
    if is_bot(new.user) or not new.user.is_active:
        raise Refused(f"{new.user.username} cannot own a club")
    old = Membership.objects.select_for_update().filter(league=league, role=Role.OWNER).first()
    if old is not None:  # staff may hand over a club whose owner is gone
        old.role = Role.ORGANISER
        old.save(update_fields=["role"])
    new.role = Role.OWNER
    new.save(update_fields=["role"])
    _log(league, "handed over", actor=by, member=new.user)
    _tell([new.user_id], f"{league.name} is yours now: {by.username} handed it over", league)
    return new


def why_cannot_leave(league: League, user) -> str:
    """Why ``user`` may not leave ``league`` now, or "": its owner, while others remain, hands
    it over first."""
    mine = _membership(league, user)
    if mine is None:
        return f"you are not a member of {league.name}"
    if mine.role == Role.OWNER and league.membership_set.exclude(user=user).exists():
        return f"you own {league.name}: hand it over to another member before you leave"
    return ""


@transaction.atomic
def member_leave(*, league: League, by: AbstractUser) -> None:
    """``by`` leaves the club. Their games stay in its standings."""
    League.objects.select_for_update().filter(pk=league.pk).first()
    why = why_cannot_leave(league, by)
    if why:
        raise Conflict(why)
    Membership.objects.filter(league=league, user=by).delete()
    _log(league, "left", actor=by, member=by)


@transaction.atomic
def member_remove(*, league: League, player: Any, by: AbstractUser) -> None:
    """An organiser removes a member (the owner also an organiser; nobody the owner). Their
    games stay in the standings; they are told."""
    require_organiser(league, by, "remove members")
    membership = _member_named(league, player)
    if membership.user_id == by.pk:
        raise Refused("to go yourself, leave the club")
    if membership.role == Role.OWNER:
        raise Refused(f"{membership.user.username} owns {league.name} and cannot be removed")
    if membership.role == Role.ORGANISER:
        _require_owner(league, by, "remove an organiser")
    membership.delete()
    _log(league, "removed", actor=by, member=membership.user)
    _tell([membership.user_id], f"You are no longer a member of {league.name}", league)


# -- a tournament's own organisers ----------------------------------------------------------------


def _tournament_person(tournament: Tournament, player: Any) -> AbstractUser:
    player = inputs.text(player, "player", 150)
    user = User.objects.filter(username=player, is_active=True).first()
    if user is None or is_bot(user):
        raise UnknownName(f"no player {player!r}")
    return user


@transaction.atomic
def organiser_add(*, tournament: Tournament, player: Any, by: AbstractUser) -> AbstractUser:
    """Share a tournament's work: ``player`` becomes one of its organisers (its organisers
    may add them). At a club's tournament they must be a member of the club."""
    if not is_tournament_organiser(tournament, by):
        raise NotYourSeat("only the tournament's organisers may add organisers")
    user = _tournament_person(tournament, player)
    if (
        tournament.league is not None
        and not Membership.objects.filter(league=tournament.league, user=user).exists()
    ):
        raise Refused(f"{user.username} is not a member of {tournament.league.name}")
    if tournament.organisers.filter(pk=user.pk).exists():
        raise Conflict(f"{user.username} organises {tournament.name} already")
    tournament.organisers.add(user)
    TournamentEvent.objects.create(
        tournament=tournament, kind="OrganiserAdded", actor=by, data={"player": user.username}
    )
    return user


@transaction.atomic
def organiser_remove(*, tournament: Tournament, player: Any, by: AbstractUser) -> None:
    """Take ``player`` off a tournament's organisers (by its organisers, or themself); a
    tournament keeps at least one."""
    user = _tournament_person(tournament, _name_in_path(player))
    if not is_tournament_organiser(tournament, by) and user.pk != by.pk:
        raise NotYourSeat("only the tournament's organisers may remove organisers")
    Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
    if not tournament.organisers.filter(pk=user.pk).exists():
        raise UnknownName(f"{user.username} does not organise {tournament.name}")
    if tournament.organisers.count() == 1:
        raise Refused(f"{tournament.name} needs an organiser: add another before you remove them")
    tournament.organisers.remove(user)
    TournamentEvent.objects.create(
        tournament=tournament, kind="OrganiserRemoved", actor=by, data={"player": user.username}
    )
