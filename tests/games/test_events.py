"""Each event kind's data, written out as a log holds it. The store hashes these bytes into the
chain and replay reads them back, so a constructor that builds anything else (a key more or
less, another order, another type) changes every log written after: these cases must not move.
No database: a constructor only builds a NewEvent, and the people it names are turned into ids
by the resolver it is given (here :class:`Table`, whose ids are made from the names).

The kinds that name people are at schema version 2 ("v": 2, games/eventschema.py): people by
id, a member's notes sealed."""

from __future__ import annotations

import inspect
import json

import pytest

from games import events
from games.models import EventKind, GameMode
from games.store import NewEvent

SCORES = [
    {"player": "alice", "score": 31, "rank": 1},
    {"player": "bob", "score": 24, "rank": 2},
]
SCORE_IDS = [
    {"player": "m-alice", "score": 31, "rank": 1},
    {"player": "m-bob", "score": 24, "rank": 2},
]
BID = {"player": "alice", "amount": 3}
BID_ID = {"player": "m-alice", "amount": 3}
SHEET = {"rows": [[12, 9], [19, 15]]}
OPEN_SEAT = {"user": None, "bot": None, "open": True}


class Table:
    """Who sits at the table: a member's id is "m-" and their name, a guest's (a name with a
    capital) "g-" and theirs; a note is "sealed" in angle brackets, by "m-writer"."""

    def person(self, name, *, guest):
        return ("g-" if guest or name[:1].isupper() else "m-") + name.lower()

    def note(self, text):
        return {"sealed": f"<{text}>", "by": "m-writer"}


PEOPLE = Table()
TIME_CONTROL = {"move_seconds": 60, "on_timeout": "random"}

# (what a site builds, kind, data, seat, actor), one case for each shape a kind is appended in.
CASES = {
    "a game created to be played here": (
        events.game_created(
            people=PEOPLE,
            game="abyss",
            rules_version=3,
            num_players=2,
            options={},
            seats=[{"user": "alice", "bot": None}, {"user": "hadal-bot-1", "bot": "random"}],
            time_control=None,
            accepted=[0, 1],
            actor_id=7,
        ),
        "GameCreated",
        {
            "game": "abyss",
            "rules_version": 3,
            "num_players": 2,
            "options": {},
            "seats": [
                {"user": "m-alice", "bot": None},
                {"user": "m-hadal-bot-1", "bot": "random"},
            ],
            "time_control": None,
            "accepted": [0, 1],
            "v": 2,
        },
        None,
        7,
    ),
    "a rematch with a clock and an open seat": (
        events.game_created(
            people=PEOPLE,
            game="deep-sea-adventure",
            rules_version=2,
            num_players=2,
            options={"rounds": 3},
            seats=[{"user": "alice", "bot": None}, OPEN_SEAT],
            time_control=TIME_CONTROL,
            accepted=[0],
            rematch_of=41,
            actor_id=7,
        ),
        "GameCreated",
        {
            "game": "deep-sea-adventure",
            "rules_version": 2,
            "num_players": 2,
            "options": {"rounds": 3},
            "seats": [{"user": "m-alice", "bot": None}, OPEN_SEAT],
            "time_control": {"move_seconds": 60, "on_timeout": "random"},
            "accepted": [0],
            "rematch_of": 41,
            "v": 2,
        },
        None,
        7,
    ),
    "a game created by nobody, nobody's seat taken yet": (
        events.game_created(
            people=PEOPLE,
            game="abyss",
            rules_version=3,
            num_players=2,
            options={},
            seats=[{"user": "alice", "bot": None}, {"user": "bob", "bot": None}],
            time_control=None,
            accepted=[],
            actor_id=None,
        ),
        "GameCreated",
        {
            "game": "abyss",
            "rules_version": 3,
            "num_players": 2,
            "options": {},
            "seats": [{"user": "m-alice", "bot": None}, {"user": "m-bob", "bot": None}],
            "time_control": None,
            "accepted": [],
            "v": 2,
        },
        None,
        None,
    ),
    "a table log created": (
        events.game_created(
            people=PEOPLE,
            game="deep-sea-adventure",
            mode=GameMode.LOG,
            rules_version=2,
            num_players=2,
            options={},
            seats=[{"user": "alice"}, {"guest": "Carol"}],
            scorekeeper="alice",
            accepted=[0, 1],
            actor_id=7,
        ),
        "GameCreated",
        {
            "game": "deep-sea-adventure",
            "mode": "log",
            "rules_version": 2,
            "num_players": 2,
            "options": {},
            "seats": [{"user": "m-alice"}, {"guest": "g-carol"}],
            "scorekeeper": "m-alice",
            "accepted": [0, 1],
            "v": 2,
        },
        None,
        7,
    ),
    "a club record created": (
        events.game_created(
            people=PEOPLE,
            game="oceans",
            mode=GameMode.RECORD,
            num_players=2,
            seats=[{"user": "alice"}, {"guest": "Carol"}],
            actor_id=7,
        ),
        "GameCreated",
        {
            "game": "oceans",
            "mode": "record",
            "num_players": 2,
            "seats": [{"user": "m-alice"}, {"guest": "g-carol"}],
            "v": 2,
        },
        None,
        7,
    ),
    "a tournament table created": (
        events.game_created(
            people=PEOPLE,
            game="abyss",
            mode=GameMode.RECORD,
            num_players=2,
            options={},
            seats=[{"user": "alice"}, {"user": "bob"}],
            actor_id=None,
        ),
        "GameCreated",
        {
            "game": "abyss",
            "mode": "record",
            "num_players": 2,
            "options": {},
            "seats": [{"user": "m-alice"}, {"user": "m-bob"}],
            "v": 2,
        },
        None,
        None,
    ),
    "a decision": (
        events.action_applied(seat=1, action={"type": "take"}, actor_id=8),
        "ActionApplied",
        {"action": {"type": "take"}},
        1,
        8,
    ),
    "a decision only some seats may see": (
        events.action_applied(
            seat=0,
            action={"type": "keep", "card": 12},
            private_to=[0],
            public={"type": "keep"},
            actor_id=None,
        ),
        "ActionApplied",
        {"action": {"type": "keep", "card": 12}, "private_to": [0], "public": {"type": "keep"}},
        0,
        None,
    ),
    "a decision the random bot made when the clock ran out": (
        events.action_applied(seat=1, action={"type": "turn"}, actor_id=None, timeout=True),
        "ActionApplied",
        {"action": {"type": "turn"}, "timeout": True},
        1,
        None,
    ),
    "a hidden decision made when the clock ran out": (
        events.action_applied(
            seat=1,
            action={"type": "keep", "card": 3},
            private_to=[1],
            public={"type": "keep"},
            actor_id=None,
            timeout=True,
        ),
        "ActionApplied",
        {
            "action": {"type": "keep", "card": 3},
            "private_to": [1],
            "public": {"type": "keep"},
            "timeout": True,
        },
        1,
        None,
    ),
    "a chance outcome the server drew": (
        events.chance_resolved(action={"type": "roll", "dice": [2, 3]}),
        "ChanceResolved",
        {"action": {"type": "roll", "dice": [2, 3]}},
        None,
        None,
    ),
    "a hidden draw": (
        events.chance_resolved(
            action={"type": "draw", "card": 7}, private_to=[0, 2], public={"type": "draw"}
        ),
        "ChanceResolved",
        {"action": {"type": "draw", "card": 7}, "private_to": [0, 2], "public": {"type": "draw"}},
        None,
        None,
    ),
    "a chance outcome a scorekeeper entered": (
        events.chance_resolved(action={"type": "roll", "dice": [1, 1]}, actor_id=7),
        "ChanceResolved",
        {"action": {"type": "roll", "dice": [1, 1]}},
        None,
        7,
    ),
    "a seat taken": (events.seat_accepted(seat=1, actor_id=8), "SeatAccepted", {}, 1, 8),
    "a seat refused": (events.seat_declined(seat=1, actor_id=8), "SeatDeclined", {}, 1, 8),
    "an open seat joined": (
        events.seat_joined(people=PEOPLE, seat=1, user="bob", actor_id=8),
        "SeatJoined",
        {"user": "m-bob", "v": 2},
        1,
        8,
    ),
    "a resignation": (
        events.seat_resigned(seat=0, reason="resigned", actor_id=7),
        "SeatResigned",
        {"reason": "resigned"},
        0,
        7,
    ),
    "a seat forfeited when its clock ran out": (
        events.seat_resigned(seat=1, reason="timeout", actor_id=None),
        "SeatResigned",
        {"reason": "timeout"},
        1,
        None,
    ),
    "a game the rules ended": (
        events.game_finished(people=PEOPLE, result=SCORES, reason="rules"),
        "GameFinished",
        {"result": SCORE_IDS, "reason": "rules", "v": 2},
        None,
        None,
    ),
    "a record confirmed, with its bid and sheet": (
        events.game_finished(
            people=PEOPLE, result=SCORES, reason="confirmed", bid=BID, sheet=SHEET
        ),
        "GameFinished",
        {
            "result": SCORE_IDS,
            "reason": "confirmed",
            "bid": {"player": "m-alice", "amount": 3},
            "sheet": {"rows": [[12, 9], [19, 15]]},
            "v": 2,
        },
        None,
        None,
    ),
    "a record imported, with no bid and no sheet": (
        events.game_finished(people=PEOPLE, result=SCORES, reason="recorded", bid=None, sheet=None),
        "GameFinished",
        {"result": SCORE_IDS, "reason": "recorded", "bid": None, "v": 2},
        None,
        None,
    ),
    "a game voided when a seat was refused": (
        events.game_voided(reason="declined"),
        "GameVoided",
        {"reason": "declined"},
        None,
        None,
    ),
    "a game voided when its invitations lapsed": (
        events.game_voided(reason="lapsed", seats=[1, 2]),
        "GameVoided",
        {"reason": "lapsed", "seats": [1, 2]},
        None,
        None,
    ),
    "a game called off by its creator": (
        events.game_voided(reason="cancelled", actor_id=7),
        "GameVoided",
        {"reason": "cancelled"},
        None,
        7,
    ),
    "a club record's result": (
        events.result_recorded(
            people=PEOPLE,
            results=SCORES,
            played_at="2026-11-30T19:00:00+00:00",
            notes="at the club",
            bid=None,
            sheet=SHEET,
            actor_id=7,
        ),
        "ResultRecorded",
        {
            "results": SCORE_IDS,
            "played_at": "2026-11-30T19:00:00+00:00",
            "notes": {"sealed": "<at the club>", "by": "m-writer"},
            "bid": None,
            "sheet": {"rows": [[12, 9], [19, 15]]},
            "v": 2,
        },
        None,
        7,
    ),
    "a club record's result without a sheet": (
        events.result_recorded(
            people=PEOPLE,
            results=SCORES,
            played_at="2026-11-30T19:00:00+00:00",
            notes="",
            bid=BID,
            actor_id=7,
        ),
        "ResultRecorded",
        {
            "results": SCORE_IDS,
            "played_at": "2026-11-30T19:00:00+00:00",
            "notes": "",
            "bid": {"player": "m-alice", "amount": 3},
            "v": 2,
        },
        None,
        7,
    ),
    "a table's result reported": (
        events.result_reported(people=PEOPLE, results=SCORES, bid=None, actor_id=8),
        "ResultReported",
        {"results": SCORE_IDS, "bid": None, "v": 2},
        None,
        8,
    ),
    "a result confirmed": (
        events.result_confirmed(people=PEOPLE, actor_id=8),
        "ResultConfirmed",
        {"v": 2},
        None,
        8,
    ),
    "a result confirmed for other members too": (
        events.result_confirmed(people=PEOPLE, on_behalf_of=["bob", "carol"], actor_id=7),
        "ResultConfirmed",
        {"on_behalf_of": ["m-bob", "m-carol"], "v": 2},
        None,
        7,
    ),
    "a result confirmed for everyone waited for": (
        events.result_confirmed(people=PEOPLE, for_everyone=True, actor_id=7),
        "ResultConfirmed",
        {"for_everyone": True, "v": 2},
        None,
        7,
    ),
    "a club record disputed": (
        events.result_disputed(people=PEOPLE, reason="bob scored 25", results=None, actor_id=8),
        "ResultDisputed",
        {"reason": {"sealed": "<bob scored 25>", "by": "m-writer"}, "results": None, "v": 2},
        None,
        8,
    ),
    "a club record disputed without a reason": (
        events.result_disputed(people=PEOPLE, reason="", results=None, actor_id=8),
        "ResultDisputed",
        {"reason": "", "results": None, "v": 2},
        None,
        8,
    ),
    "a table's result disputed": (
        events.result_disputed(people=PEOPLE, results=SCORES, actor_id=8),
        "ResultDisputed",
        {"results": SCORE_IDS, "v": 2},
        None,
        8,
    ),
    "a table's result disputed, stating there was no bid": (
        events.result_disputed(people=PEOPLE, results=SCORES, bid=None, actor_id=8),
        "ResultDisputed",
        {"results": SCORE_IDS, "bid": None, "v": 2},
        None,
        8,
    ),
    "a table's result settled by the organiser": (
        events.result_overridden(people=PEOPLE, results=SCORES, bid=BID, actor_id=7),
        "ResultOverridden",
        {"results": SCORE_IDS, "bid": {"player": "m-alice", "amount": 3}, "v": 2},
        None,
        7,
    ),
    "a table's result settled by the organiser for a forfeit": (
        events.result_overridden(
            people=PEOPLE, results=SCORES, bid=None, reason="no-show", actor_id=7
        ),
        "ResultOverridden",
        {
            "results": SCORE_IDS,
            "bid": None,
            "reason": {"sealed": "<no-show>", "by": "m-writer"},
            "v": 2,
        },
        None,
        7,
    ),
    "a game played here adjudicated by the organiser": (
        events.result_adjudicated(
            people=PEOPLE, results=SCORES, reason="the venue closed", actor_id=7
        ),
        "ResultAdjudicated",
        {
            "results": SCORE_IDS,
            "reason": {"sealed": "<the venue closed>", "by": "m-writer"},
            "v": 2,
        },
        None,
        7,
    ),
    "a club record corrected": (
        events.result_corrected(
            people=PEOPLE, results=SCORES, reason="a slip", sheet=SHEET, actor_id=7
        ),
        "ResultCorrected",
        {
            "results": SCORE_IDS,
            "reason": {"sealed": "<a slip>", "by": "m-writer"},
            "sheet": {"rows": [[12, 9], [19, 15]]},
            "v": 2,
        },
        None,
        7,
    ),
    "a club record corrected without a sheet": (
        events.result_corrected(people=PEOPLE, results=SCORES, reason="", sheet=None, actor_id=7),
        "ResultCorrected",
        {"results": SCORE_IDS, "reason": "", "v": 2},
        None,
        7,
    ),
    "a finished table's result corrected by the organiser": (
        events.result_corrected(people=PEOPLE, results=SCORES, bid=None, actor_id=7),
        "ResultCorrected",
        {"results": SCORE_IDS, "bid": None, "v": 2},
        None,
        7,
    ),
    "a tournament table voided when its round is paired again": (
        events.game_voided(reason="round paired again", actor_id=7),
        "GameVoided",
        {"reason": "round paired again"},
        None,
        7,
    ),
    "a tournament table kept as a table log": (
        events.log_started(
            people=PEOPLE, scorekeeper="alice", rules_version=2, options={"rounds": 3}, actor_id=7
        ),
        "LogStarted",
        {"scorekeeper": "m-alice", "rules_version": 2, "options": {"rounds": 3}, "v": 2},
        None,
        7,
    ),
    "an entry taken back": (
        events.entry_undone(undoes=12, kind="ActionApplied", actor_id=7),
        "EntryUndone",
        {"undoes": 12, "kind": "ActionApplied"},
        None,
        7,
    ),
    # A member away from the board: the seat and the event's time, nothing else.
    "a clock stopped": (events.clock_paused(seat=1), "ClockPaused", {}, 1, None),
    "a clock running again": (events.clock_resumed(seat=1), "ClockResumed", {}, 1, None),
}


@pytest.mark.parametrize(
    ("built", "kind", "data", "seat", "actor"), CASES.values(), ids=list(CASES)
)
def test_each_event_carries_exactly_its_data(built, kind, data, seat, actor):
    assert built == NewEvent(kind, data, seat=seat, actor_id=actor)
    # The same bytes, key order included, as the log stores them.
    assert json.dumps(built.data) == json.dumps(data)


def test_a_recorded_game_keeps_its_mode_as_the_model_gives_it():
    created = events.game_created(
        people=PEOPLE, game="oceans", mode=GameMode.RECORD, num_players=2, seats=[], actor_id=None
    )
    assert created.data["mode"] is GameMode.RECORD


def test_every_kind_has_its_constructor_and_every_case_above():
    constructors = {
        name: f
        for name, f in inspect.getmembers(events, inspect.isfunction)
        if f.__module__ == events.__name__ and not name.startswith("_")
    }
    assert sorted(constructors) == sorted(kind.name.lower() for kind in EventKind)
    assert {case[1] for case in CASES.values()} == set(EventKind)


@pytest.mark.parametrize("kind", list(EventKind), ids=lambda kind: kind.name.lower())
def test_a_constructor_takes_keywords_only_and_says_what_it_is(kind):
    constructor = getattr(events, kind.name.lower())
    parameters = inspect.signature(constructor).parameters.values()
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters)
    assert constructor.__doc__ and "\n" not in constructor.__doc__
