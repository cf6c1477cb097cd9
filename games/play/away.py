"""Clocks that wait for a member away from the board (accounts.vacations).

When a member's vacation begins (accounts.signals.away_started), each of their seats in an
active correspondence game (games.play.clocks.is_correspondence) gets a ClockPaused event: no
clock runs on its turns. When it ends, each seat paused gets a ClockResumed: its clock runs
again with the time it had left. Each is an append of its own, with only the seat, so the clock
columns follow from the log alone (clocks.from_log). A game whose tournament forbids
vacations (asked upward: games.signals.pause_forbidden) is left running.

And where a member has opted in (``Profile.away_auto``), a clock that runs out in a
correspondence game takes a day of their vacation instead (:func:`away_instead_of_timeout`),
while they have a day left and the game allows it. The member hears of each through their
inbox; their opponents read it on the game page (:func:`away_notes`).
"""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.urls import reverse
from django.utils import timezone

from accounts import vacations
from core.errors import Refused
from games import events as game_events
from games import store
from games.models import GameMode, GameStatus, Seat
from games.play import clocks, steps
from games.signals import pause_forbidden
from games.store import AppendResult, VersionConflict
from inbox import services as inbox

log = logging.getLogger(__name__)

ATTEMPTS = 5  # a game that moves meanwhile is read again this many times


def correspondence_seats(user_id: int) -> list[tuple[int, int]]:
    """(game id, seat) of ``user_id``'s seats in active correspondence games that allow a
    vacation and are not paused yet, in game order."""
    long = Q(game__move_seconds__gte=clocks.CORRESPONDENCE_SECONDS) | Q(
        game__bank_seconds__gte=clocks.CORRESPONDENCE_SECONDS
    )
    rows = (
        Seat.objects.filter(
            long,
            user_id=user_id,
            bot="",
            resigned=False,
            game__status=GameStatus.ACTIVE,
            game__mode=GameMode.PLAY,
        )
        .order_by("game_id", "index")
        .values_list("game_id", "index", "game__paused")
    )
    seats = [(g, i) for g, i, paused in rows if i not in (paused or {}).get("seats", [])]
    forbidden = forbidden_games({game_id for game_id, _ in seats})
    return [(game_id, seat) for game_id, seat in seats if game_id not in forbidden]


def forbidden_games(game_ids: set[int]) -> set[int]:
    """Those of ``game_ids`` whose clocks may not stop (the apps above answer)."""
    if not game_ids:
        return set()
    answers = pause_forbidden.send(sender=None, game_ids=game_ids)
    return set().union(*(answer or set() for _, answer in answers))


def seat_pause(*, game_id: int, seat: int, pause: bool, now: datetime | None = None):
    """Stop (``pause``) or start again ``seat``'s clock in the game: a ClockPaused or
    ClockResumed event, or None where there is nothing to do (no clock, the game over, the
    seat already so)."""
    for _ in range(ATTEMPTS):
        head = store.load_head(game_id)
        if head is None or head.status != GameStatus.ACTIVE or clocks.kind(head) is None:
            return None
        if (seat in clocks.paused_seats(head)) == pause:
            return None
        at = now or timezone.now()
        columns = clocks.after_pause(head, now=at, seats=head.seats, seat=seat, pause=pause)
        event = (game_events.clock_paused if pause else game_events.clock_resumed)(seat=seat)
        try:
            with transaction.atomic():
                appended, new = store.write(head, head.version, [event], projection=columns, now=at)
                steps.schedule_next(new)  # a clock started again is checked when it runs out
            return appended
        except VersionConflict:
            continue
    log.warning("game %s kept changing: seat %s's clock was not %s", game_id, seat, pause)
    return None


def member_pause(*, user_id: int, now: datetime | None = None) -> list[AppendResult]:
    """Stop the clocks of ``user_id``'s seats in their correspondence games."""
    done = []
    for game_id, seat in correspondence_seats(user_id):
        appended = seat_pause(game_id=game_id, seat=seat, pause=True, now=now)
        if appended is not None:
            done.append(appended)
    return done


def member_resume(*, user_id: int, now: datetime | None = None) -> list[AppendResult]:
    """Start again every clock of ``user_id``'s that waits for them, tournament or not."""
    paused = Seat.objects.filter(
        user_id=user_id, game__status=GameStatus.ACTIVE, game__paused__isnull=False
    ).values_list("game_id", "index", "game__paused")
    done = []
    for game_id, seat, state in paused:
        if seat in (state or {}).get("seats", []):
            appended = seat_pause(game_id=game_id, seat=seat, pause=False, now=now)
            if appended is not None:
                done.append(appended)
    return done


def members_away_pause() -> int:
    """Stop the clocks of the games members away joined since they left (a tournament's new
    round, an invitation accepted from a phone): the sweep's backstop. How many stopped."""
    away = vacations.members_away()
    return sum(len(member_pause(user_id=user_id)) for user_id in away)


def away_instead_of_timeout(head, seat: int) -> bool:
    """Where the clock of ``seat`` has run out: a day away taken for its member instead, if
    they opted in, the game is a correspondence game that allows it and they have a day left.
    True if it was (the seat's clock now waits). The move's time ran out all the same: the
    day is one more day to make it, and if it is still not made when the day is over, the
    clock runs out again (and another day is taken while any is left)."""
    user_id = head.seats[seat].user_id
    if (
        user_id is None
        or not clocks.is_correspondence(head)
        or head.id in forbidden_games({head.id})
    ):
        return False
    user = Seat.objects.filter(game_id=head.id, index=seat).select_related("user").first().user
    if not vacations.auto_on(user):
        return False
    try:
        vacations.vacation_away_now(user=user, auto=True)
    except Refused:
        return False
    return True


# -- what the member and their opponents are told ---------------------------------------------------


def on_away_started(*, user_id: int, vacation, **kwargs) -> None:
    stopped = len(member_pause(user_id=user_id))
    until = vacations.when(vacation.ends_at) if vacation.ends_at else "you are back"
    if stopped == 0:
        waiting = "none of your games has a clock to stop"
    elif stopped == 1:
        waiting = f"your clock in 1 game waits until {until}"
    else:
        waiting = f"your clocks in {stopped} games wait until {until}"
    if vacation.auto:
        text = f"Your clock ran out, so a day away was taken for you: {waiting}"
    elif vacation.ends_at is None:
        text = f"You are away from the board: {waiting}"
    else:
        text = f"Your vacation has begun: {waiting}"
    inbox.notify(user_id, "vacation", text, reverse("settings"), key=f"vacation:{vacation.pk}")


def on_away_ended(*, user_id: int, vacation, **kwargs) -> None:
    started = len(member_resume(user_id=user_id))
    text = "You are back at the board"
    if started == 1:
        text += ": your clock in 1 game runs again"
    elif started:
        text += f": your clocks in {started} games run again"
    inbox.notify(user_id, "vacation", text, reverse("settings"), key=f"vacation:{vacation.pk}:back")


def away_notes(game, viewer=None) -> list[str]:
    """For the game page: who is away, until when, their clock waiting (a Game row); the
    viewer's own seat in the second person."""
    frozen = clocks.paused_seats(game) if game.status == GameStatus.ACTIVE else []
    if not frozen:
        return []
    seats = {s.index: s for s in game.seats.all()}
    until = vacations.away_until({seats[i].user_id for i in frozen if i in seats})
    notes = []
    for index in frozen:
        seat = seats.get(index)
        if seat is None or seat.user_id is None:
            continue
        ends = until.get(seat.user_id)
        if viewer is not None and seat.user_id == viewer.pk:
            when = f"until {vacations.when(ends)}" if ends else "until you are back"
            notes.append(f"You are away {when}: your clock waits")
            continue
        when = f"until {vacations.when(ends)}" if ends else "until they are back"
        notes.append(f"{seat.player_name} is away {when}: the clock waits")
    return notes
