"""Clocks: a deadline per move, or a time bank per seat with an increment per turn (Fischer).

A game's clock is part of its row, written by the same statement as the append that changes it
(games.play.services._append_and_project), so it is always the clock of the version the row is at:

- ``move``: the seat to play has ``move_seconds`` from the last append.
- ``bank``: every seat starts with ``bank_seconds``. ``banks`` holds each seat's time left at
  ``moved_at``; the seat to play spends from the moment of the last append, and the append that
  ends its turn (the turn passes to another seat) charges the time spent and adds
  ``increment_seconds``. Time spent is the difference of two append times, both the events'
  ``created_at``, so the banks can be derived from the log alone.

``deadline`` is when the seat to play runs out, or null while no clock runs: before every
person has taken their seat, on a bot's or a resigned seat's turn, and once the game is over.
When it passes, the random bot plays for the seat (``on_timeout`` "random") or the seat forfeits
("forfeit"); either is a new event. Rulings: a move the random bot makes on a timeout earns the
increment like any other, so a seat out of time plays on the increment alone; with no increment
the random bot plays its turns from then on.

A **correspondence** game is one whose clock gives a move a day or more: a move clock of at
least :data:`CORRESPONDENCE_SECONDS`, or a bank of at least that. Only there may a member away
from the board (accounts.Vacation) stop their clock: a ClockPaused event for their seat, and a
ClockResumed when they are back, each appended on its own, each carrying only the seat. While a
seat is paused (``paused``: ``{"seats": [...], "left": s}``) no clock runs on its turn, so the
time away is never charged: a bank is charged up to the pause and runs again from the resume; a
move clock stopped in the middle of a turn keeps the time that move had left (``left``) and
gives it back on the resume, and a turn that reaches a paused seat starts in full once it is
back. A paused seat that moves all the same is not charged for the move and earns no
increment. Like every other column, these follow from the log alone (:func:`from_log`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from core.errors import InvalidInput

TIMEOUT_RULES = ("random", "forfeit")
MOST_SECONDS = 7 * 86400
CORRESPONDENCE_SECONDS = 86400  # a day a move (or in the bank): a correspondence game
PAUSE_KINDS = ("ClockPaused", "ClockResumed")
KEYS = {"move_seconds", "bank_seconds", "increment_seconds", "on_timeout"}
SHAPE = (
    'time_control must be {"move_seconds": n} or {"bank_seconds": n, "increment_seconds": m},'
    ' with "on_timeout": "random" or "forfeit"'
)


def parse_time_control(value: Any) -> dict[str, Any]:
    """A time control checked, as Game fields; no clock for None."""
    fields: dict[str, Any] = {
        "move_seconds": None,
        "bank_seconds": None,
        "increment_seconds": 0,
        "on_timeout": "random",
    }
    if value is None:
        return fields
    if not isinstance(value, dict) or set(value) - KEYS:
        raise InvalidInput(SHAPE)
    if ("move_seconds" in value) == ("bank_seconds" in value):
        raise InvalidInput(SHAPE + ": one of move_seconds and bank_seconds")
    for name, least in (("move_seconds", 5), ("bank_seconds", 5), ("increment_seconds", 0)):
        if name not in value:
            continue
        seconds = value[name]
        if isinstance(seconds, bool) or not isinstance(seconds, int):
            raise InvalidInput(f"time_control.{name} must be a whole number of seconds")
        if not least <= seconds <= MOST_SECONDS:
            raise InvalidInput(
                f"time_control.{name} must be a whole number from {least} to {MOST_SECONDS}"
            )
        fields[name] = seconds
    if "increment_seconds" in value and fields["move_seconds"] is not None:
        raise InvalidInput("time_control.increment_seconds goes with a time bank (bank_seconds)")
    on_timeout = value.get("on_timeout", "random")
    if on_timeout not in TIMEOUT_RULES:
        raise InvalidInput('time_control.on_timeout must be "random" or "forfeit"')
    fields["on_timeout"] = on_timeout
    return fields


def time_control_of(game) -> dict[str, Any] | None:
    """The time control as it was given (the GameCreated event's and the tournament's form)."""
    if game.bank_seconds is not None:
        return {
            "bank_seconds": game.bank_seconds,
            "increment_seconds": game.increment_seconds,
            "on_timeout": game.on_timeout,
        }
    if game.move_seconds is not None:
        return {"move_seconds": game.move_seconds, "on_timeout": game.on_timeout}
    return None


def kind(game) -> str | None:
    if game.bank_seconds is not None:
        return "bank"
    return "move" if game.move_seconds is not None else None


def is_correspondence(game) -> bool:
    """Whether ``game``'s clock gives a move a day or more (a move clock, or a bank)."""
    allowed = game.bank_seconds if game.bank_seconds is not None else game.move_seconds
    return allowed is not None and allowed >= CORRESPONDENCE_SECONDS


def paused_seats(game) -> list[int]:
    """The seats whose clock is stopped while their member is away."""
    paused = getattr(game, "paused", None)
    return list(paused["seats"]) if paused else []


def runs_for(seats, to_play: int | None) -> bool:
    """Whether a clock runs for ``to_play``: a person's turn, once every person is seated."""
    if to_play is None or to_play < 0 or not all(s.accepted or s.bot for s in seats):
        return False
    seat = seats[to_play]
    return not seat.bot and not seat.resigned


def after_append(
    game,
    *,
    now: datetime,
    seats,
    to_play: int | None,
    acted: int | None,
    over: bool,
) -> dict[str, Any]:
    """The clock columns after an append at ``now`` to ``game`` (the row or head before it):
    ``seats`` as they are after it, ``to_play`` the seat to play then, ``acted`` the seat whose
    decision it is (None for anything else), ``over`` whether it ends the game."""
    clock = kind(game)
    if clock is None:
        return {}
    banks = None
    if clock == "bank":
        banks = list(game.banks) if game.banks else [float(game.bank_seconds)] * len(seats)
        running = game.current_player
        if game.deadline is not None and running is not None:
            left = banks[running] - (now - game.moved_at).total_seconds()
            banks[running] = round(max(0.0, left), 3)
            if acted == running and to_play != running:
                banks[running] += game.increment_seconds
    deadline = None
    frozen = paused_seats(game)
    if not over and runs_for(seats, to_play) and to_play not in frozen:
        assert to_play is not None
        allowed = game.move_seconds if banks is None else banks[to_play]
        deadline = now + timedelta(seconds=allowed)
    columns: dict[str, Any] = {"banks": banks, "deadline": deadline}
    if game.paused is not None:
        # A move stopped mid-turn keeps its time left only while that same turn goes on.
        same_turn = not over and to_play == game.current_player and acted is None
        left = game.paused.get("left") if same_turn else None
        columns["paused"] = _paused(frozen, left)
    return columns


def after_pause(game, *, now: datetime, seats, seat: int, pause: bool) -> dict[str, Any]:
    """The clock columns after a ClockPaused (``pause``) or ClockResumed of ``seat`` at
    ``now``; ``seats`` as they are. The seat to play's time runs to ``now``; if it is the
    seat paused, its clock stops there, and if it is the seat resumed, it starts again with
    the time it had left. Another seat's running clock is left as it was."""
    clock = kind(game)
    if clock is None:
        return {}
    frozen = set(paused_seats(game))
    left = game.paused.get("left") if game.paused else None
    banks = None
    if clock == "bank":
        banks = list(game.banks) if game.banks else [float(game.bank_seconds)] * len(seats)
    running = game.current_player if game.deadline is not None else None
    if banks is not None and running is not None:
        spent = (now - game.moved_at).total_seconds()
        banks[running] = round(max(0.0, banks[running] - spent), 3)
    deadline = game.deadline
    to_play = game.current_player
    if pause:
        frozen.add(seat)
        if seat == running:
            assert game.deadline is not None
            deadline = None
            if banks is None:
                left = round(max(0.0, (game.deadline - now).total_seconds()), 3)
    else:
        frozen.discard(seat)
        if seat == to_play and deadline is None and runs_for(seats, to_play):
            if banks is not None:
                allowed = banks[seat]
            else:
                allowed = left if left is not None else float(game.move_seconds)
            deadline = now + timedelta(seconds=allowed)
            left = None
    return {"banks": banks, "deadline": deadline, "paused": _paused(sorted(frozen), left)}


def _paused(frozen, left: float | None) -> dict[str, Any] | None:
    if not frozen and left is None:
        return None
    return {"seats": list(frozen), "left": left}


def from_log(control: dict[str, Any] | None, events, state) -> dict[str, Any]:
    """The clock columns derived from the log alone, as :func:`after_append` wrote them append
    by append: ``control`` is the GameCreated event's time_control, ``events`` the log in order
    (with seat, kind, data, created_at and batch), ``state`` a fresh rule state to replay them
    on. The times spent are the differences of the events' created_at."""
    fields = parse_time_control(control)
    if kind_of(fields) is None:
        return {}
    created, *rest = events
    seats = [
        _LogSeat(bot=bool(s["bot"]), accepted=i in created.data["accepted"], resigned=False)
        for i, s in enumerate(created.data["seats"])
    ]
    clock = _LogClock(**fields, num_players=len(seats))
    for batch in _batches([created, *rest]):
        first = batch[0]
        if first.kind in PAUSE_KINDS:
            pause = first.kind == PAUSE_KINDS[0]
            columns = after_pause(
                clock, now=first.created_at, seats=seats, seat=first.seat, pause=pause
            )
            clock.banks, clock.deadline = columns["banks"], columns["deadline"]
            clock.paused, clock.moved_at = columns["paused"], first.created_at
            continue
        for event in batch:
            if event.kind in ("ActionApplied", "ChanceResolved"):
                state.apply(event.data["action"])
            elif event.kind in ("SeatAccepted", "SeatJoined"):
                seats[event.seat].accepted = True
            elif event.kind == "SeatResigned":
                seats[event.seat].resigned = True
        over = batch[-1].kind in ("GameFinished", "GameVoided")
        to_play = None if over else state.current_player
        columns = after_append(
            clock,
            now=first.created_at,
            seats=seats,
            to_play=to_play,
            acted=first.seat if first.kind == "ActionApplied" else None,
            over=over,
        )
        clock.banks, clock.deadline = columns["banks"], columns["deadline"]
        clock.paused = columns.get("paused", clock.paused)
        clock.current_player, clock.moved_at = to_play, first.created_at
    derived: dict[str, Any] = {"banks": clock.banks, "deadline": clock.deadline}
    if clock.paused is not None:
        derived["paused"] = clock.paused
    return derived


def kind_of(fields: dict[str, Any]) -> str | None:
    if fields["bank_seconds"] is not None:
        return "bank"
    return "move" if fields["move_seconds"] is not None else None


@dataclass
class _LogSeat:
    bot: bool
    accepted: bool
    resigned: bool


@dataclass
class _LogClock:
    """The clock columns of a game row, as :func:`from_log` folds them over the log."""

    move_seconds: int | None
    bank_seconds: int | None
    increment_seconds: int
    on_timeout: str
    num_players: int = 0
    banks: list[float] | None = None
    deadline: datetime | None = None
    paused: dict[str, Any] | None = None
    current_player: int | None = None
    moved_at: datetime | None = None


def _batches(events) -> list[list]:
    out: list[list] = []
    for event in events:
        if out and out[-1][0].batch == event.batch:
            out[-1].append(event)
        else:
            out.append([event])
    return out


def clock_out(game, now: datetime) -> dict[str, Any] | None:
    """The API's ``clock``: its kind, when the seat to play runs out, each seat's time left."""
    clock = kind(game)
    if clock is None:
        return None
    n = game.num_players
    if clock == "move":
        remaining = [float(game.move_seconds)] * n
    else:
        remaining = list(game.banks) if game.banks else [float(game.bank_seconds)] * n
    deadline = game.deadline if game.status == "active" else None
    if deadline is not None and game.current_player is not None:
        remaining[game.current_player] = round(max(0.0, (deadline - now).total_seconds()), 3)
    frozen = paused_seats(game) if game.status == "active" else []
    left = game.paused.get("left") if game.paused else None
    if left is not None and game.current_player in frozen:
        remaining[game.current_player] = left
    out = {
        "kind": clock,
        "deadline": deadline.isoformat() if deadline is not None else None,
        "running": game.current_player if deadline is not None else None,
        "seats": [{"remaining": r} for r in remaining],
    }
    if frozen:
        out["paused"] = frozen
    return out


def readable(seconds: float) -> str:
    """A time left as a clock shows it: 4:05, 1:02:09."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def describe(control: dict[str, Any] | None) -> str:
    """A time control in people's words: "60 s a move, then the random bot moves"."""
    if not control:
        return ""
    then = "forfeit" if control.get("on_timeout") == "forfeit" else "the random bot moves"
    if control.get("bank_seconds") is not None:
        plus = control.get("increment_seconds") or 0
        more = f" + {plus} s a turn" if plus else ""
        return f"{readable(control['bank_seconds'])} each{more}, then {then}"
    return f"{control['move_seconds']} s a move, then {then}"
