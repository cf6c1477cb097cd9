"""Invitations, open seats and rematches: how people come to sit at a game together.

- An invitation is a seat held for a named person who has not taken it yet (Seat.accepted is
  false): they accept or decline it (games.play.services), and one nobody answers within
  ``HADAL_INVITATION_HOURS`` lapses: the game is voided (a GameVoided event, nothing rated,
  nothing deleted). The same holds for a seat left open that nobody takes.
- An open seat (``{"open": true}`` when creating) is held for nobody: anyone signed in who
  does not already sit at the game may take it (:func:`game_join`). Two people taking the last
  seat at once: the store's version check lets one in, the other gets a 409.
- A rematch invites a finished game's seats to a new game of the same game, options and
  clock, the seats rotated by one so that someone else starts. The new game names the old one
  (Game.rematch_of, and its GameCreated event), so the finished game's log is left alone:
  its version is what its rating was taken at.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import IntegrityError, transaction
from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.utils import timezone

from accounts.bots import is_bot
from core import inputs
from core.errors import Conflict, InvalidInput, NotYourSeat
from games import audience, people, store
from games import events as game_events
from games.models import Game, GameMode, GameStatus, Seat
from games.play import clocks, services, steps
from games.store import AppendResult, VersionConflict

# -- reading --------------------------------------------------------------------------------------


def invitations_for(user) -> QuerySet[Seat]:
    """The seats ``user`` is invited to and has not answered, newest first."""
    if not user.is_authenticated:
        return Seat.objects.none()
    return (
        Seat.objects.filter(
            user=user,
            accepted=False,
            bot="",
            game__status=GameStatus.ACTIVE,
            game__mode=GameMode.PLAY,
        )
        .select_related("game", "game__created_by")
        .order_by("-game__created_at", "index")
    )


def open_games(user) -> QuerySet[Game]:
    """Active games with a seat left for anyone to take, newest first: of those ``user`` may
    know of (games.audience)."""
    free = Seat.objects.filter(user__isnull=True, guest="").values("game")
    games = Game.objects.filter(pk__in=free, status=GameStatus.ACTIVE, mode=GameMode.PLAY)
    return with_seats(audience.visible(games, user).order_by("-created_at", "-id"))


def live_games(user) -> QuerySet[Game]:
    """Games under way that everyone has sat down to: what ``user`` may watch."""
    waiting = Seat.objects.filter(accepted=False).values("game")
    games = Game.objects.filter(status=GameStatus.ACTIVE, mode=GameMode.PLAY).exclude(
        pk__in=waiting
    )
    return with_seats(audience.visible(games, user).order_by("-updated_at", "-id"))


def joinable_seats(game: Game, user) -> list[int]:
    """The open seats of ``game`` that ``user`` may take (signed in, not already seated)."""
    if not user.is_authenticated or is_bot(user) or game.status != GameStatus.ACTIVE:
        return []
    seats = list(game.seats.all())
    if any(s.user_id == user.pk for s in seats):
        return []
    return [s.index for s in seats if _is_open(s)]


def with_seats(games: QuerySet[Game]) -> QuerySet[Game]:
    # The users' profiles too: each seat says whether a bot account holds it (accounts.bots).
    return games.prefetch_related(Prefetch("seats", Seat.objects.select_related("user__profile")))


def rematch_of(game: Game) -> int | None:
    """The id of the game's rematch, if one was offered."""
    return Game.objects.filter(rematch_of=game).values_list("pk", flat=True).first()


# -- taking an open seat --------------------------------------------------------------------------

JOIN_ATTEMPTS = 3


def game_join(*, game: Game | int, seat: object, user: AbstractUser) -> AppendResult:
    """``user`` takes the open ``seat``. 409 for a seat taken, a game they already sit at, or
    one that is over; once every seat is taken the game starts (a bot's move, the clock)."""
    game_id = game if isinstance(game, int) else game.pk
    if is_bot(user):
        raise NotYourSeat("bots are seated by whoever creates the game")
    for _ in range(JOIN_ATTEMPTS):
        head = store.load_head(game_id)
        if head is None:
            raise Http404("no such game")
        if head.mode != GameMode.PLAY:
            raise Conflict("this game was played on a table: nobody can join it")
        index = inputs.seat(seat, head.num_players)
        if head.status != GameStatus.ACTIVE:
            raise Conflict(_not_active(head.status))
        if head.seats_of(user):
            raise Conflict("you already sit at this game")
        if not _is_open(head.seats[index]):
            raise Conflict("that seat is taken")
        seats = tuple(
            replace(s, user_id=user.pk, username=user.username, accepted=True)
            if s.index == index
            else s
            for s in head.seats
        )
        now = timezone.now()
        clock = clocks.after_append(
            head, now=now, seats=seats, to_play=head.current_player, acted=None, over=False
        )
        try:
            with transaction.atomic():
                appended, new = store.write(
                    head,
                    head.version,
                    [
                        game_events.seat_joined(
                            seat=index,
                            user=user.username,
                            actor_id=user.pk,
                            people=people.writer(seats=seats),
                        )
                    ],
                    projection=clock,
                    seat_changes={index: {"user_id": user.pk, "accepted": True}},
                    now=now,
                )
                steps.schedule_next(replace(new, seats=seats))
        except VersionConflict:
            continue  # the game moved meanwhile (perhaps someone took the seat): look again
        return appended
    raise Conflict("the game kept changing while you joined: try again")


def _is_open(seat) -> bool:
    return seat.user_id is None and not seat.guest


def _not_active(status: str) -> str:
    return "the game is over" if status == GameStatus.FINISHED else "the game was called off"


# -- invitations nobody answers -------------------------------------------------------------------


def lapse_invitations(*, now: datetime | None = None) -> int:
    """Void the games whose invitations or open seats have waited longer than
    ``HADAL_INVITATION_HOURS``; the number voided."""
    now = now or timezone.now()
    cutoff = now - timedelta(hours=settings.HADAL_INVITATION_HOURS)
    waiting = (
        Seat.objects.filter(
            accepted=False,
            bot="",
            game__status=GameStatus.ACTIVE,
            game__mode=GameMode.PLAY,
            game__created_at__lt=cutoff,
        )
        .values_list("game_id", flat=True)
        .distinct()
    )
    return sum(game_lapse(game_id=game_id) is not None for game_id in list(waiting))


def game_lapse(*, game_id: int) -> AppendResult | None:
    """Call off a game some seat of which was never taken. Anything else does nothing."""
    head = store.load_head(game_id)
    if head is None or head.status != GameStatus.ACTIVE or head.mode != GameMode.PLAY:
        return None
    waiting = [s.index for s in head.seats if not s.accepted and not s.bot]
    if not waiting:
        return None
    try:
        appended, _ = store.write(
            head,
            head.version,
            [game_events.game_voided(reason="lapsed", seats=waiting)],
            projection={"status": GameStatus.VOID, "current_player": None, "deadline": None},
            idempotency_key=steps.server_key("lapse", waiting[0], head.version),
        )
    except VersionConflict:
        return None
    return None if appended.replayed else appended


# -- calling off a game nobody has sat down to --------------------------------------------------


def game_cancel(*, game: Game | int, user: AbstractUser) -> AppendResult:
    """Whoever created a game calls it off while some invitation or open seat is still waiting:
    the game is voided, nothing rated. Once everyone has sat down, one resigns instead."""
    game_id = game if isinstance(game, int) else game.pk
    head = store.load_head(game_id)
    if head is None:
        raise Http404("no such game")
    created_by = Game.objects.filter(pk=game_id).values_list("created_by_id", flat=True).first()
    if created_by != user.pk:
        raise NotYourSeat("only whoever created the game may call it off")
    if head.status != GameStatus.ACTIVE:
        raise Conflict(_not_active(head.status))
    waiting = [s.index for s in head.seats if not s.accepted and not s.bot]
    if not waiting:
        raise Conflict("everyone has taken their seat: to leave the game, resign")
    try:
        appended, _ = store.write(
            head,
            head.version,
            [game_events.game_voided(reason="cancelled", actor_id=user.pk)],
            projection={"status": GameStatus.VOID, "current_player": None, "deadline": None},
        )
    except VersionConflict:
        raise Conflict("someone answered first; here is the game now") from None
    return appended


# -- rematch --------------------------------------------------------------------------------------


@transaction.atomic
def game_rematch(*, game: Game | int, user: AbstractUser) -> Game:
    """A new game for a finished one's seats, rotated by one, asked for by one of its people:
    they are seated, the others invited. 409 before the end or once a rematch was offered."""
    game_id = game if isinstance(game, int) else game.pk
    head = store.load_head(game_id)
    if head is None:
        raise Http404("no such game")
    if head.mode != GameMode.PLAY:
        raise Conflict("this game was played on a table: record the next one instead")
    if not head.seats_of(user):
        raise NotYourSeat("only the game's players may ask for a rematch")
    if head.status != GameStatus.FINISHED:
        raise Conflict("a rematch is offered once the game is over")
    row = Game.objects.get(pk=game_id)
    if rematch_of(row) is not None:
        raise Conflict("a rematch has already been offered")
    n = head.num_players
    seats: list[dict] = [{}] * n
    for s in head.seats:
        seats[(s.index + 1) % n] = {"bot": s.bot} if s.bot else {"user": s.username}
    try:
        return services.game_create(
            slug=head.slug,
            seats=seats,
            options=head.options,
            created_by=user,
            time_control=clocks.time_control_of(head),
            rematch_of=row,
        )
    except InvalidInput as exc:  # a player's account closed since, say
        raise Conflict(f"no rematch: {exc}") from None
    except IntegrityError:  # someone else asked at the same moment (Game.rematch_of is unique)
        raise Conflict("a rematch has already been offered") from None
