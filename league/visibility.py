"""Who sees what of a club.

A public club is anyone's to read. A club for its members (``League.Visibility.MEMBERS``)
shows its page, members, standings, seasons, tournaments and games only to its members; to
everyone else it does not exist: every listing leaves it out and every address of it answers
404, as for a club that was never made. Exceptions, each for someone with a part in it:

- someone invited to join (by name, or holding a live invite link) sees the club's door: its
  name and description, to say yes or no, never its games or members;
- a tournament's organisers and entrants see that tournament (its tables, standings and games);
- whoever sits at a game, recorded it or keeps its table log sees that game (games.audience),
  so a member who leaves keeps their own history;
- staff see everything.

The games app knows none of this: :func:`closed_games` is registered with games.audience when
the league app starts, and every read of games there asks it.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet
from django.http import Http404

from games.models import Game
from league.models import League, Tournament

MEMBERS = League.Visibility.MEMBERS


def _staff(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def _signed_in(user) -> bool:
    return bool(user is not None and user.is_authenticated)


def closed_leagues(user) -> QuerySet[League]:
    """The members-only clubs ``user`` is not a member of (every one, for someone signed out)."""
    closed = League.objects.filter(visibility=MEMBERS)
    if _signed_in(user):
        closed = closed.exclude(membership__user=user)
    return closed


def closed_games(user) -> QuerySet:
    """The ids of the games of clubs closed to ``user``: recorded for one, or played at a
    tournament of one that ``user`` neither organises nor plays in (games.audience adds back
    the games they are part of)."""
    closed = closed_leagues(user).values("pk")
    of_tournaments = Tournament.objects.filter(league__in=closed)
    if _signed_in(user):
        of_tournaments = of_tournaments.exclude(organisers=user).exclude(entries__user=user)
    return Game.objects.filter(
        Q(leagues__in=closed) | Q(table__round__tournament__in=of_tournaments.values("pk"))
    ).values("pk")


def visible_leagues(user, leagues: QuerySet[League] | None = None) -> QuerySet[League]:
    """The clubs ``user`` may read in full: public ones and their own."""
    leagues = League.objects.all() if leagues is None else leagues
    if _staff(user):
        return leagues
    return leagues.exclude(pk__in=closed_leagues(user).values("pk"))


def may_read_league(league: League, user) -> bool:
    """Whether ``user`` may read ``league``'s page, members, standings and games."""
    if league.visibility != MEMBERS or _staff(user):
        return True
    return _signed_in(user) and league.membership_set.filter(user=user).exists()


def may_see_door(league: League, user) -> bool:
    """Whether ``user`` may know ``league`` exists: a reader, or someone invited to it by name
    (an invite link's holder is shown its door through the link itself)."""
    return may_read_league(league, user) or (
        _signed_in(user) and league.invitations.filter(user=user).exists()
    )


def visible_tournaments(user, tournaments: QuerySet[Tournament]) -> QuerySet[Tournament]:
    """``tournaments`` without those of clubs closed to ``user`` that they have no part in."""
    if _staff(user):
        return tournaments
    closed = Q(league__in=closed_leagues(user).values("pk"))
    if _signed_in(user):
        part = Q(pk__in=Tournament.objects.filter(organisers=user).values("pk")) | Q(
            pk__in=Tournament.objects.filter(entries__user=user).values("pk")
        )
        return tournaments.exclude(closed & ~part)
    return tournaments.exclude(closed)


def may_see_tournament(tournament: Tournament, user) -> bool:
    if tournament.league_id is None or _staff(user):
        return True
    if may_read_league(tournament.league, user):
        return True
    return _signed_in(user) and (
        tournament.organisers.filter(pk=user.pk).exists()
        or tournament.entries.filter(user=user).exists()
    )


def league_or_404(slug: str, user, *, door: bool = False) -> League:
    """The club ``slug``, or the 404 of a club that does not exist if ``user`` may not read it
    (with ``door``: nor answer an invitation to it)."""
    league = League.objects.filter(slug=slug).first()
    allowed = may_see_door if door else may_read_league
    if league is None or not allowed(league, user):
        raise Http404("No League matches the given query.")
    return league


def tournament_or_404(pk: int, user) -> Tournament:
    """The tournament ``pk``, or the 404 of one that does not exist if ``user`` may not see it."""
    tournament = Tournament.objects.select_related("league").filter(pk=pk).first()
    if tournament is None or not may_see_tournament(tournament, user):
        raise Http404("No Tournament matches the given query.")
    return tournament
