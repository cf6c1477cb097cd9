"""Who a game's log names, both ways: the names a service holds become public ids as an event is
written, and ids become the names shown as a log is read (games/eventschema.py says where in
each kind of event people are named).

Within one game a name stands for one person: a record refuses a name twice, and a member who
holds several seats at a hot-seat table is one person. So a game's seats are all it takes to
turn its names into ids, and back; a member named who holds no seat (a table log's scorekeeper,
someone taking an open seat) is found by username.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.auth import get_user_model

from accounts import people as accounts_people
from accounts.people import FORMER_MEMBER
from games import eventschema
from games.models import EarlierFingerprint, Event, Game, ScoreSheet, Seat

User = get_user_model()


def _seat_people(seats) -> tuple[dict[str, str], dict[str, str]]:
    """The ids of the members (by username) and guests (by name) at ``seats``: Seat rows with
    their users selected, or a head's SeatInfo."""
    usernames: dict[int, str] = {}
    guests: set[str] = set()
    for seat in seats:
        if seat.user_id:
            usernames[seat.user_id] = (
                seat.username if hasattr(seat, "username") else seat.user.username
            )
        elif seat.guest:
            guests.add(seat.guest)
    ids = accounts_people.member_ids(usernames) if usernames else {}
    members = {name: ids[pk] for pk, name in usernames.items()}
    return members, accounts_people.guest_ids(guests) if guests else {}


class Writer:
    """Turns the names in events about to be appended to a game into ids, and seals the notes
    its ``author`` writes (eventschema.Resolver)."""

    def __init__(self, seats, author=None):
        self.members, self.guests = _seat_people(seats)
        self.author = author

    def person(self, name: str, *, guest: bool) -> str | None:
        if guest or (name in self.guests and name not in self.members):
            return self.guests.get(name) or accounts_people.guest_ids([name])[name]
        found = self.members.get(name)
        if found is None:  # a member holding no seat here: a scorekeeper, a newcomer
            pk = User.objects.values_list("pk", flat=True).get(username=name)
            found = self.members[name] = accounts_people.member_ids([pk])[pk]
        return found

    def note(self, text: str) -> Any:
        if self.author is None:
            raise ValueError("a note needs its writer")
        return accounts_people.seal(self.author, text)


def writer(game=None, *, seats=None, author=None) -> Writer:
    """The writer for ``game``'s events (or for a table whose ``seats`` are not saved yet)."""
    if seats is None:
        seats = game.seats.select_related("user").all()
    return Writer(seats, author)


class Reader:
    """Reads events appended in an old shape (names, notes in the clear), as old code still
    running during an upgrade may append, for one game: the names of its ``seats``, or any
    member's. It asks the database only when an event names someone."""

    def __init__(self, seats):
        self.seats = seats
        self._writer: Writer | None = None

    def person(self, name: str, *, guest: bool) -> str | None:
        if self._writer is None:
            self._writer = Writer(self.seats)
        try:
            return self._writer.person(name, guest=guest)
        except User.DoesNotExist:
            return None  # a name no one has any more: the log names nobody we know

    def current(self, kind: str, data: Any, actor_id: int | None) -> Any:
        """``data`` of an event of this game in the newest shape of its kind
        (eventschema.upcast): the same object when it is already, as every event written
        since the move to ids is."""
        if eventschema.version_of(data) >= eventschema.CURRENT.get(kind, 1):
            return data
        return eventschema.upcast(kind, data, _Appended(self, actor_id))


class _Appended:
    """A reader of one event: its notes were written by its actor."""

    def __init__(self, reader: Reader, actor_id: int | None):
        self.reader, self.actor_id = reader, actor_id

    def person(self, name: str, *, guest: bool) -> str | None:
        return self.reader.person(name, guest=guest)

    def note(self, text: str) -> Any:
        by = None
        if self.actor_id is not None:
            by = accounts_people.member_ids([self.actor_id])[self.actor_id]
        return {"plain": text, "by": by}


def current_rows(rows: list[tuple]) -> list[tuple]:
    """Rows ``(game_id, kind, data, ..., actor_id)`` with each data in the newest shape: the
    seats are read (one query) only for the games that have an event of an old shape."""
    old = {
        row[0]
        for row in rows
        if eventschema.version_of(row[2]) < eventschema.CURRENT.get(row[1], 1)
    }
    if not old:
        return rows
    seats: dict[int, list] = {pk: [] for pk in old}
    for seat in Seat.objects.filter(game_id__in=old).select_related("user"):
        seats[seat.game_id].append(seat)
    readers = {pk: Reader(seats[pk]) for pk in old}
    return [
        (row[0], row[1], readers[row[0]].current(row[1], row[2], row[-1]), *row[3:])
        if row[0] in old
        else row
        for row in rows
    ]


# -- reading: ids to the names shown ------------------------------------------------------------


class Shown:
    """Events' data as readers of names see them: each id by the name shown for it ("a former
    member" once erased), each note by its text (None once its writer is erased). The names and
    keys of every event given are read at once: two queries, and none for events that name
    nobody (moves, chance), so a stream's message for a move costs nothing here."""

    def __init__(self, events: Iterable[tuple[str, Any]]):
        ids: set[str] = set()
        for kind, data in events:
            ids.update(eventschema.people_in(kind, data))
            for key in eventschema.TEXTS.get(kind, ()):
                note = data.get(key) if isinstance(data, dict) else None
                if isinstance(note, dict) and note.get("by"):
                    ids.add(note["by"])
        self.names = accounts_people.names(ids) if ids else {}
        self.opener = accounts_people.Opener()
        if ids:
            self.opener.want(ids)

    def __call__(self, kind: str, data: Any) -> Any:
        if kind not in eventschema.PEOPLE:
            return data

        def person(value: Any, path, item) -> Any:
            return self.names.get(value, FORMER_MEMBER) if isinstance(value, str) else value

        def text(key: str, value: Any) -> Any:
            return eventschema.note_text(value, self.opener)

        return eventschema.map_people(kind, data, person, text)


# -- erasure: the names in the projections ----------------------------------------------------------


def forget_member(user, old_name: str, new_name: str) -> int:
    """``user``'s name as the projections hold it (a finished game's result, a score sheet)
    replaced by ``new_name``, and the earlier fingerprints of every game that names them or
    holds a note of theirs emptied of what they covered (it named them): the logs themselves
    name people by id and stay as they are. Returns how many games were touched."""
    seated = set(Seat.objects.filter(user=user).values_list("game_id", flat=True))
    touched = (
        seated
        | set(Event.objects.filter(actor=user).values_list("game_id", flat=True).distinct())
        | set(Game.objects.filter(scorekeeper=user).values_list("pk", flat=True))
    )
    _rename(seated, old_name, new_name)
    EarlierFingerprint.objects.filter(game_id__in=touched).update(events=None)
    return len(touched)


def forget_guest(old_name: str, new_name: str) -> int:
    """A guest's name replaced in the seats and projections that hold it, and the earlier
    fingerprints over it emptied, as for a member."""
    seated = set(Seat.objects.filter(guest=old_name).values_list("game_id", flat=True))
    Seat.objects.filter(guest=old_name).update(guest=new_name)
    _rename(seated, old_name, new_name)
    EarlierFingerprint.objects.filter(game_id__in=seated).update(events=None)
    return len(seated)


def _rename(game_ids: set[int], old: str, new: str) -> None:
    def renamed(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
        return [dict(line, player=new) if line.get("player") == old else line for line in lines]

    for pk, result in Game.objects.filter(pk__in=game_ids, result__isnull=False).values_list(
        "pk", "result"
    ):
        if renamed(result) != result:
            Game.objects.filter(pk=pk).update(result=renamed(result))
    for pk, sheet in ScoreSheet.objects.filter(game_id__in=game_ids).values_list("pk", "sheet"):
        players = renamed(sheet.get("players", []))
        if players != sheet.get("players", []):
            ScoreSheet.objects.filter(pk=pk).update(sheet={**sheet, "players": players})
