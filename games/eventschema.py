"""The shapes an event kind's data has had, and how each old shape is read as the next.

An event is never rewritten: its data stays as it was appended, and its hash covers those bytes
for ever (games/logchain.py). When a kind's shape changes, the change gets a number, the
kind's **schema version**, written into the new events' data as ``"v"`` (absent: version 1),
and an **upcaster** here turns data of each old version into the next. Readers ask for the
newest shape (:func:`upcast`) and never meet an old one; the stored row, and so its hash, stay
as they were. The one time stored rows were rewritten instead was the move to people's ids
(games migration 0021), in which the append-only triggers stood aside, as they did once for the
hash chain.

Version 2 of the kinds that name people names them by their public id (a member's, a bot's or
a guest's, ``m-…`` or ``g-…``: accounts.models.Person) and keeps what a member wrote in
their own words (a record's notes, a dispute's or a correction's reason) as a *note*, sealed
under a key of the writer's (``{"sealed": token, "by": id}``), so that erasing a member removes
their name and their key and leaves every log and every hash as it was. Version 1 named people
by username or guest name and held the notes in the clear: :func:`upcast` reads it with the
help of a :class:`Resolver` (who a name is, what a note becomes). Events are written the same
way: a constructor (games/events.py) puts the names a service holds where version 1 put them,
and upcasts with a resolver that seals notes, so that version 2 is by definition version 1
read by this module. A note read from an old event, which cannot be sealed as it is read, is
``{"plain": text, "by": id}``, and readers open it alike.

Pure Python: the offline checker (games/records/verify.py) reads bundles with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

VERSION_KEY = "v"

# Where each kind's data names people, and where it holds a member's own words, as paths:
# a key, "*" for every item of a list. A path may be missing or null in an event (no bid,
# no sheet, an open seat): it names nobody there.
RESULTS = ("results", "*", "player")
BID = ("bid", "player")
SHEET = ("sheet", "players", "*", "player")  # an Oceans score sheet's players
PEOPLE: dict[str, tuple[tuple[str, ...], ...]] = {
    "GameCreated": (("seats", "*", "user"), ("seats", "*", "guest"), ("scorekeeper",)),
    "SeatJoined": (("user",),),
    "LogStarted": (("scorekeeper",),),
    "ResultRecorded": (RESULTS, BID, SHEET),
    "ResultReported": (RESULTS, BID),
    "ResultConfirmed": (("on_behalf_of", "*"),),
    "ResultDisputed": (RESULTS, BID),
    "ResultOverridden": (RESULTS, BID),
    "ResultAdjudicated": (RESULTS,),
    "ResultCorrected": (RESULTS, BID, SHEET),
    "GameFinished": (("result", "*", "player"), BID, SHEET),
}
TEXTS: dict[str, tuple[str, ...]] = {
    "ResultRecorded": ("notes",),
    "ResultDisputed": ("reason",),
    "ResultCorrected": ("reason",),
    "ResultOverridden": ("reason",),
    "ResultAdjudicated": ("reason",),
}

# The newest schema version of each kind; a kind not listed has only ever had version 1.
CURRENT: dict[str, int] = {kind: 2 for kind in PEOPLE}


class Resolver(Protocol):
    """What turning names into ids needs to know of the world outside the event: who a name
    is, and what becomes of a note. A writer's seals the note under its writer's key; a
    reader's, meeting an event of the old shape, keeps it as it was written."""

    def person(self, name: str, *, guest: bool) -> str | None:
        """The public id of the member named ``name`` (a guest's, if ``guest``)."""

    def note(self, text: str) -> Any:
        """A note written by whoever appends (appended) the event, in the newest shape."""


def version_of(data: Any) -> int:
    version = data.get(VERSION_KEY, 1) if isinstance(data, dict) else 1
    return version if type(version) is int and version >= 1 else 1


def upcast(kind: str, data: Any, resolver: Resolver) -> Any:
    """``data`` of an event of ``kind`` in the newest shape of its kind (a copy where it
    changed; the stored value is never touched)."""
    version = version_of(data)
    while version < CURRENT.get(kind, 1):
        data = UPCASTERS[(kind, version)](data, resolver)
        version += 1
    return data


def people_in(kind: str, data: Any) -> list[str]:
    """Every person reference in ``data`` (the newest shape), in order, without repeats."""
    found: dict[str, None] = {}
    for path in PEOPLE.get(kind, ()):
        for value in _values(data, path):
            if isinstance(value, str):
                found[value] = None
    return list(found)


def map_people(
    kind: str,
    data: Any,
    person: Callable[[str, tuple[str, ...], Any], Any],
    text: Callable[[str, Any], Any] | None = None,
) -> Any:
    """A copy of ``data`` with every person reference replaced by ``person(value, path,
    item)`` (``item``: the object holding it) and every note by ``text(key, value)``."""
    if not isinstance(data, dict) or kind not in PEOPLE:
        return data
    out = _copy(data)
    for path in PEOPLE[kind]:
        _replace(out, path, (), person)
    if text is not None:
        for key in TEXTS.get(kind, ()):
            if key in out:
                out[key] = text(key, out[key])
    return out


def note_text(note: Any, opener: Callable[[str, str], str | None]) -> str | None:
    """What a note says: ``""`` for none, None where it can no longer be read (its writer's key
    was erased). ``opener(token, writer_id)`` opens a sealed one."""
    if note is None or isinstance(note, str):
        return note or ""
    if "plain" in note:
        return note["plain"]
    return opener(note["sealed"], note["by"])


# -- version 1 -> 2: people by their public ids, notes their writer's ---------------------------------


def _people_by_id(kind: str) -> Callable[[Any, Resolver], Any]:
    def up(data: Any, resolver: Resolver) -> Any:
        def person(value: Any, path: tuple[str, ...], item: Any) -> Any:
            if not isinstance(value, str):
                return value
            guest = path[-1] == "guest" or bool(isinstance(item, dict) and item.get("guest"))
            return resolver.person(value, guest=guest)

        def text(key: str, value: Any) -> Any:
            return resolver.note(value) if value else ""

        out = map_people(kind, data, person, text)
        out[VERSION_KEY] = 2
        return out

    return up


UPCASTERS: dict[tuple[str, int], Callable[[Any, Resolver], Any]] = {
    (kind, 1): _people_by_id(kind) for kind in PEOPLE
}


# -- walking paths ------------------------------------------------------------------------------


def _values(node: Any, path: tuple[str, ...]) -> list[Any]:
    if not path:
        return [node]
    head, rest = path[0], path[1:]
    if head == "*":
        return [v for item in node for v in _values(item, rest)] if isinstance(node, list) else []
    if isinstance(node, dict) and node.get(head) is not None:
        return _values(node[head], rest)
    return []


def _replace(node: Any, path: tuple[str, ...], done: tuple[str, ...], person) -> None:
    head, rest = path[0], path[1:]
    if head == "*":
        if isinstance(node, list):
            for i, item in enumerate(node):
                if rest:
                    _replace(item, rest, (*done, head), person)
                else:
                    node[i] = person(item, (*done, head), node)
        return
    if not isinstance(node, dict) or node.get(head) is None:
        return
    if rest:
        _replace(node[head], rest, (*done, head), person)
    else:
        node[head] = person(node[head], (*done, head), node)


def _copy(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value
