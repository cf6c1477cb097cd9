"""Who may know that a game exists.

A game is anyone's to watch unless something above the games app closes it: a club for its
members only closes its games to whoever is not in it (league.visibility registers that with
:func:`close_with`). The games app never asks the league itself; every listing of games goes
through :func:`visible` and every read of one game through :func:`require_visible`, and what is
closed answers exactly as a game that does not exist (a 404), so an outsider learns nothing,
not even that there is something to be refused.

Whoever sits at a game, recorded it or keeps its table log always sees it (a member who left
the club keeps their own games); staff see everything.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Q, QuerySet
from django.http import Http404

from games.models import Game, Seat

# Each returns the ids of the games closed to ``user`` (a values("pk") queryset, used as a
# subquery): the games of circles they are not in. ``user`` may be anonymous.
Closer = Callable[[object], QuerySet]
_closers: list[Closer] = []


def close_with(closer: Closer) -> None:
    """Register a source of closed games (once: a second registration of the same is a no-op)."""
    if closer not in _closers:
        _closers.append(closer)


def sees_everything(user) -> bool:
    return bool(user is not None and user.is_authenticated and user.is_staff)


def _own(user) -> Q:
    """The games ``user`` is part of: seated, recorder or scorekeeper."""
    return (
        Q(pk__in=Seat.objects.filter(user=user).values("game"))
        | Q(created_by=user)
        | Q(scorekeeper=user)
    )


def visible(games: QuerySet[Game], user) -> QuerySet[Game]:
    """``games`` without those closed to ``user``."""
    if not _closers or sees_everything(user):
        return games
    signed_in = user is not None and user.is_authenticated
    for closer in _closers:
        closed = Q(pk__in=closer(user))
        games = games.exclude(closed & ~_own(user)) if signed_in else games.exclude(closed)
    return games


def is_own(game: Game, user) -> bool:
    """Whether ``user`` is part of ``game``, from what is loaded (no query when its seats are
    prefetched)."""
    if user is None or not user.is_authenticated:
        return False
    return (
        game.created_by_id == user.pk
        or game.scorekeeper_id == user.pk
        or any(seat.user_id == user.pk for seat in game.seats.all())
    )


def may_see(game: Game, user) -> bool:
    """Whether ``user`` may know ``game`` exists: no query for someone part of it or for a game
    of no closed circle when none is registered, one per registered source otherwise."""
    if not _closers or sees_everything(user) or is_own(game, user):
        return True
    return not any(closer(user).filter(pk=game.pk).exists() for closer in _closers)


def require_visible(game: Game, user) -> Game:
    """``game``, or the 404 of a game that does not exist."""
    if not may_see(game, user):
        raise Http404("No Game matches the given query.")
    return game


def hidden(pk: int, user) -> bool:
    """Whether the game ``pk`` is closed to ``user`` (or does not exist): for turning a refusal
    of an outsider ("not your seat") into the 404 it must be, on the refusal's path only."""
    game = (
        Game.objects.filter(pk=pk)
        .only("pk", "created_by_id", "scorekeeper_id")
        .prefetch_related("seats")
        .first()
    )
    return game is None or not may_see(game, user)
