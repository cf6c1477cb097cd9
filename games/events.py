"""The events of a game's log, one constructor per kind: the one place each event's data shape
is written.

The store (games.store) stores whatever a NewEvent carries and hashes its bytes into the log's
chain (games.logchain); replay, the rules and the readers take the data back as written
(``data["action"]``, ``data["result"]``, ``data["undoes"]``...). So a shape written here is kept
for good: a change of shape is a new schema version of its kind, with an upcaster that reads
the old shape as the new (games/eventschema.py), never a silent edit. The services decide when
a fact happens and append it; this module says what its event carries.

The kinds that name people take the names the services hold, where the first version put
them, and a ``people`` resolver (games.people.writer) that turns them into public ids and
seals a member's notes (a record's notes, a dispute's or a correction's reason) under their
key: the data written is the newest schema version, eventschema's upcast of the first, so
that no log holds a name or a member's words in the clear.

Each constructor is named for its EventKind and takes keyword arguments only. A key that some
events of a kind carry and others do not is an optional argument, left out of the data unless
given (a score sheet or a list of names: unless not empty); where such a key may hold None (a
bid, a time control), "not given" is :data:`UNSET`. A decision or a chance outcome takes what
games.play.steps.action_data says of it, ``**data``: the action and, when only some seats may
see it in full, ``private_to`` and its ``public`` form.
"""

from __future__ import annotations

from typing import Any

from games import eventschema
from games.models import EventKind
from games.store import NewEvent


class _Unset:
    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()
"""The default of an argument whose key may hold None: the key is left out of the data."""


def _named(kind: str, data: dict[str, Any], people: eventschema.Resolver, **rest: Any) -> NewEvent:
    # ``data`` in the first version's shape (names, notes in the clear), upcast: ids, sealed.
    return NewEvent(kind, eventschema.upcast(kind, data, people), **rest)


Action = dict[str, Any]
Results = list[dict[str, Any]]
Bid = dict[str, Any]


# -- a game played here or logged move by move ----------------------------------------------------


def game_created(
    *,
    game: str,
    num_players: int,
    seats: list[dict[str, Any]],
    actor_id: int | None,
    mode: str | None = None,
    rules_version: int | None = None,
    options: dict[str, Any] | None = None,
    scorekeeper: str | None = None,
    time_control: dict[str, Any] | None = UNSET,
    accepted: list[int] | None = None,
    rematch_of: int | None = None,
    people: eventschema.Resolver,
) -> NewEvent:
    """The game set up: played here (no ``mode``, a ``time_control``), a table log or a record."""
    data: dict[str, Any] = {"game": game}
    if mode is not None:
        data["mode"] = mode
    if rules_version is not None:
        data["rules_version"] = rules_version
    data["num_players"] = num_players
    if options is not None:
        data["options"] = options
    data["seats"] = seats
    if scorekeeper is not None:
        data["scorekeeper"] = scorekeeper
    if time_control is not UNSET:
        data["time_control"] = time_control
    if accepted is not None:
        data["accepted"] = accepted
    if rematch_of is not None:
        data["rematch_of"] = rematch_of
    return _named(EventKind.GAME_CREATED, data, people, actor_id=actor_id)


def action_applied(
    *,
    seat: int,
    action: Action,
    actor_id: int | None,
    private_to: list[int] | None = None,
    public: Action | None = None,
    timeout: bool = False,
) -> NewEvent:
    """A seat's decision (``timeout``: played by the random bot when the seat's clock ran out)."""
    data: dict[str, Any] = {"action": action}
    if private_to is not None:  # the seats that may see it in full; the others see ``public``
        data |= {"private_to": private_to, "public": public}
    if timeout:
        data["timeout"] = True
    return NewEvent(EventKind.ACTION_APPLIED, data, seat=seat, actor_id=actor_id)


def chance_resolved(
    *,
    action: Action,
    private_to: list[int] | None = None,
    public: Action | None = None,
    actor_id: int | None = None,
) -> NewEvent:
    """A chance outcome, drawn by the server or entered by a table log's scorekeeper."""
    data: dict[str, Any] = {"action": action}
    if private_to is not None:
        data |= {"private_to": private_to, "public": public}
    return NewEvent(EventKind.CHANCE_RESOLVED, data, actor_id=actor_id)


def seat_accepted(*, seat: int, actor_id: int) -> NewEvent:
    """The person invited to ``seat`` takes it (at a table log: agrees to the log)."""
    return NewEvent(EventKind.SEAT_ACCEPTED, {}, seat=seat, actor_id=actor_id)


def seat_declined(*, seat: int, actor_id: int) -> NewEvent:
    """The person invited to ``seat`` refuses it (at a table log: refuses the log)."""
    return NewEvent(EventKind.SEAT_DECLINED, {}, seat=seat, actor_id=actor_id)


def seat_joined(*, seat: int, user: str, actor_id: int, people: eventschema.Resolver) -> NewEvent:
    """The user named ``user`` takes the open ``seat``."""
    return _named(EventKind.SEAT_JOINED, {"user": user}, people, seat=seat, actor_id=actor_id)


def seat_resigned(*, seat: int, reason: str, actor_id: int | None) -> NewEvent:
    """``seat`` leaves the game, for ``reason``; its turns go to the random bot."""
    return NewEvent(EventKind.SEAT_RESIGNED, {"reason": reason}, seat=seat, actor_id=actor_id)


def game_finished(
    *,
    result: Results,
    reason: str,
    people: eventschema.Resolver,
    bid: Bid | None = UNSET,
    sheet: dict | None = None,
) -> NewEvent:
    """The game's final result; a game played at a table adds its ``bid`` and score ``sheet``."""
    data: dict[str, Any] = {"result": result, "reason": reason}
    if bid is not UNSET:
        data["bid"] = bid
    if sheet:
        data["sheet"] = sheet
    return _named(EventKind.GAME_FINISHED, data, people)


def game_voided(
    *, reason: str, seats: list[int] | None = None, actor_id: int | None = None
) -> NewEvent:
    """The game called off, nothing rated (``seats``: the seats never taken, if that is why)."""
    data: dict[str, Any] = {"reason": reason}
    if seats is not None:
        data["seats"] = seats
    return NewEvent(EventKind.GAME_VOIDED, data, actor_id=actor_id)


# -- the results of games played at a table --------------------------------------------------------


def result_recorded(
    *,
    results: Results,
    played_at: str,
    notes: str,
    bid: Bid | None,
    actor_id: int,
    people: eventschema.Resolver,
    sheet: dict | None = None,
) -> NewEvent:
    """A club record's result as recorded, ``played_at`` an ISO 8601 time, notes sealed."""
    data: dict[str, Any] = {"results": results, "played_at": played_at, "notes": notes, "bid": bid}
    if sheet:
        data["sheet"] = sheet
    return _named(EventKind.RESULT_RECORDED, data, people, actor_id=actor_id)


def result_reported(
    *, results: Results, bid: Bid | None, actor_id: int, people: eventschema.Resolver
) -> NewEvent:
    """A player at a tournament table reports its result."""
    data = {"results": results, "bid": bid}
    return _named(EventKind.RESULT_REPORTED, data, people, actor_id=actor_id)


def result_confirmed(
    *,
    actor_id: int,
    people: eventschema.Resolver,
    for_everyone: bool = False,
    on_behalf_of: list[str] | None = None,
) -> NewEvent:
    """The result waiting is confirmed: by the actor, for ``on_behalf_of`` or ``for_everyone``."""
    data: dict[str, Any] = {}
    if for_everyone:
        data["for_everyone"] = True
    if on_behalf_of:
        data["on_behalf_of"] = on_behalf_of
    return _named(EventKind.RESULT_CONFIRMED, data, people, actor_id=actor_id)


def result_disputed(
    *,
    results: Results | None,
    actor_id: int,
    people: eventschema.Resolver,
    reason: str | None = None,
    bid: Bid | None = UNSET,
) -> NewEvent:
    """The result waiting is wrong: a club member's ``reason``, or the result a player saw."""
    data: dict[str, Any] = {}
    if reason is not None:
        data["reason"] = reason
    data["results"] = results
    if bid is not UNSET:
        data["bid"] = bid
    return _named(EventKind.RESULT_DISPUTED, data, people, actor_id=actor_id)


def result_overridden(
    *,
    results: Results,
    bid: Bid | None,
    actor_id: int,
    people: eventschema.Resolver,
    reason: str | None = None,
) -> NewEvent:
    """The organiser settles a tournament table's result (a forfeit's with its ``reason``)."""
    data: dict[str, Any] = {"results": results, "bid": bid}
    if reason is not None:
        data["reason"] = reason
    return _named(EventKind.RESULT_OVERRIDDEN, data, people, actor_id=actor_id)


def result_adjudicated(
    *, results: Results, reason: str, actor_id: int, people: eventschema.Resolver
) -> NewEvent:
    """The organiser ends a game played here with the result they set, for ``reason``."""
    data = {"results": results, "reason": reason}
    return _named(EventKind.RESULT_ADJUDICATED, data, people, actor_id=actor_id)


def result_corrected(
    *,
    results: Results,
    actor_id: int,
    people: eventschema.Resolver,
    reason: str | None = None,
    bid: Bid | None = UNSET,
    sheet: dict | None = None,
) -> NewEvent:
    """A finished game's new result: a club record's (``reason``, ``sheet``) or a table's."""
    data: dict[str, Any] = {"results": results}
    if reason is not None:
        data["reason"] = reason
    if bid is not UNSET:
        data["bid"] = bid
    if sheet:
        data["sheet"] = sheet
    return _named(EventKind.RESULT_CORRECTED, data, people, actor_id=actor_id)


# -- table logs -----------------------------------------------------------------------------------


def log_started(
    *,
    scorekeeper: str,
    rules_version: int,
    options: dict[str, Any],
    actor_id: int,
    people: eventschema.Resolver,
) -> NewEvent:
    """A tournament table kept as a table log; its rules' setup, so the log alone replays it."""
    # The table's GameCreated, a record's, names no rules version: replay takes it from here
    # (games/records/verify.py).
    data = {"scorekeeper": scorekeeper, "rules_version": rules_version, "options": options}
    return _named(EventKind.LOG_STARTED, data, people, actor_id=actor_id)


def entry_undone(*, undoes: int, kind: str, actor_id: int) -> NewEvent:
    """The scorekeeper takes back the entry at seq ``undoes``, of ``kind``: replay skips it."""
    return NewEvent(EventKind.ENTRY_UNDONE, {"undoes": undoes, "kind": kind}, actor_id=actor_id)


# -- clocks stopped while a member is away from the board -----------------------------------------


def clock_paused(*, seat: int) -> NewEvent:
    """``seat``'s clock stops: its member is away (games.play.away). The time is the event's."""
    return NewEvent(EventKind.CLOCK_PAUSED, {}, seat=seat)


def clock_resumed(*, seat: int) -> NewEvent:
    """``seat``'s clock runs again with the time it had left: its member is back."""
    return NewEvent(EventKind.CLOCK_RESUMED, {}, seat=seat)
