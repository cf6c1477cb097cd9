"""The seated answering: a person invited to a seat takes it or refuses it. At a game played
here, refusing calls it off; at a table log, each person seated agrees to the log (or refuses
it for good) while it is kept or after, and it is rated only once everyone has agreed.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from core.errors import Conflict, NotYourSeat
from games import events as game_events
from games import store
from games.models import Event, EventKind, Game, GameMode, GameStatus, Seat
from games.play import steps
from games.rules.base import State
from games.signals import consent_changed
from games.store import AppendResult, Head, NewEvent


def everyone_seated(seats) -> bool:
    """Every person has taken their seat: only then does a clock run."""
    return all(s.accepted or s.bot for s in seats)


def game_accept(*, game: Game | int, seat: int | str, user: AbstractUser) -> AppendResult:
    """The person invited to ``seat`` takes it; once everyone has, the clock starts. At a table
    log, the person seated agrees to it, while it is kept or after: its result may then be
    rated (games.tablelog.services)."""
    head, state, seat = _invited_seat(game, seat, user)
    events = [game_events.seat_accepted(seat=seat, actor_id=user.pk)]
    if head.mode == GameMode.LOG:
        return _log_seat_answered(game, head, events, accepted=True)
    appended, new = steps.append_and_project(
        head, head.version, events, state, seat_changes={seat: {"accepted": True}}
    )
    steps.update_row(game, new)
    return appended


def game_decline(*, game: Game | int, seat: int | str, user: AbstractUser) -> AppendResult:
    """The person invited to ``seat`` refuses it: the game is called off, nothing is rated. At
    a table log, the person seated refuses it: the log goes on (its scorekeeper keeps it), and
    it is never rated."""
    head, _, seat = _invited_seat(game, seat, user)
    if head.mode == GameMode.LOG:
        declined = [game_events.seat_declined(seat=seat, actor_id=user.pk)]
        return _log_seat_answered(game, head, declined, accepted=False)
    appended, new = store.write(
        head,
        head.version,
        [
            game_events.seat_declined(seat=seat, actor_id=user.pk),
            game_events.game_voided(reason="declined"),
        ],
        projection={"status": GameStatus.VOID, "current_player": None, "deadline": None},
    )
    steps.update_row(game, new)
    return appended


def _log_seat_answered(
    game: Game | int, head: Head, events: list[NewEvent], *, accepted: bool
) -> AppendResult:
    """A table log's seat accepted or declined: the event and, for a yes, the seat taken; the
    log itself is untouched (no state, no projection: it may be over already)."""
    seat = events[0].seat
    assert seat is not None
    appended, new = store.write(
        head,
        head.version,
        events,
        seat_changes={seat: {"accepted": True}} if accepted else None,
    )
    steps.update_row(game, new)
    if new.status == GameStatus.FINISHED:
        steps.announce(consent_changed, new)  # the ratings may take it in now, or never
    return appended


def _invited_seat(game: Game | int, seat: Any, user) -> tuple[Head, State, int]:
    head, state = steps.load(game)
    seat = steps.seat_number(head, seat)
    if seat not in head.seats_of(user):
        raise NotYourSeat(f"you do not hold seat {seat} in this game")
    if head.mode == GameMode.LOG:
        require_unanswered(head, seat)
        return head, state, seat
    steps.require_play_mode(head)
    if head.status != GameStatus.ACTIVE:
        raise Conflict(
            "the game is over" if head.status == GameStatus.FINISHED else "the game was called off"
        )
    if head.seats[seat].accepted:
        raise Conflict("you have already taken this seat; to leave the game, resign")
    return head, state, seat


def require_unanswered(head: Head, seat: int) -> None:
    """A seat of a table log is answered once: accepted, or declined (which refuses the log
    for good); either during the game or after it."""
    if head.status == GameStatus.VOID:
        raise Conflict("the game was called off")
    if head.seats[seat].accepted:
        raise Conflict("you have accepted this seat already: the log may be rated")
    if seats_declined(head) & {seat}:
        raise Conflict("you declined this seat: the log is never rated")


def seats_declined(game: Game | Head) -> set[int]:
    """The seats of a table log whose person refused it (SeatDeclined)."""
    return set(
        Event.objects.using(store.where(game))
        .filter(game_id=game.pk, kind=EventKind.SEAT_DECLINED)
        .values_list("seat", flat=True)
    )


def seat_answers(game: Game) -> dict[str, list[str]]:
    """Who at a table log has not agreed to it yet (``waiting``) and who refused it
    (``declined``), by name: it is rated only once nobody is waiting and nobody refused."""
    declined = seats_declined(game)
    people = [s for s in game.seats.all() if s.user_id is not None and not s.accepted]
    return {
        "waiting": [s.user.username for s in people if s.index not in declined],
        "declined": [s.user.username for s in people if s.index in declined],
    }


def log_seats_waiting(user) -> list[Seat]:
    """The table log seats ``user`` holds and has not answered, while the log is kept or after,
    newest first: the log is rated only once they accept."""
    if not user.is_authenticated:
        return []
    seats = list(
        Seat.objects.filter(user=user, accepted=False, game__mode=GameMode.LOG)
        .exclude(game__status=GameStatus.VOID)
        .select_related("game", "game__scorekeeper")
        .order_by("-game__created_at", "index")
    )
    declined = set(
        Event.objects.filter(
            game_id__in=[s.game_id for s in seats], kind=EventKind.SEAT_DECLINED
        ).values_list("game_id", "seat")
    )
    return [s for s in seats if (s.game_id, s.index) not in declined]
