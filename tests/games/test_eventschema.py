"""An event kind's shape changes by a schema version and an upcaster, applied as events are read,
never to the stored row: an event appended in the old shape (by code of before, still running
during an upgrade) is read as the new one, its hash still covers the bytes as stored, and its
game verifies."""

from __future__ import annotations

import pytest

from accounts.people import member_id
from games import eventschema, logchain, store
from games.models import Event, EventKind
from games.play import reads
from games.records import reads as record_reads
from games.records.export import bundle_of
from games.records.services import finish_if_confirmed, match_record
from games.records.verify import verify
from games.store import NewEvent

pytestmark = pytest.mark.django_db


class Names:
    def person(self, name, *, guest):
        return {"alice": "m-1", "bob": "m-2", "Mina": "g-1"}.get(name)

    def note(self, text):
        return {"plain": text, "by": "m-1"}


def test_version_1_of_a_result_is_read_as_version_2():
    old = {
        "results": [
            {"player": "alice", "score": 31, "rank": 1},
            {"player": "Mina", "score": 20, "rank": 2},
        ],
        "played_at": "2026-11-30T19:00:00+00:00",
        "notes": "at the club",
        "bid": {"player": "alice", "amount": 2},
    }
    kept = logchain.canonical_text(old)
    new = eventschema.upcast("ResultRecorded", old, Names())
    assert new == {
        "results": [
            {"player": "m-1", "score": 31, "rank": 1},
            {"player": "g-1", "score": 20, "rank": 2},
        ],
        "played_at": "2026-11-30T19:00:00+00:00",
        "notes": {"plain": "at the club", "by": "m-1"},
        "bid": {"player": "m-1", "amount": 2},
        "v": 2,
    }
    assert logchain.canonical_text(old) == kept  # the data read is a copy
    assert eventschema.upcast("ResultRecorded", new, Names()) is new  # already the newest


def test_a_guest_seat_is_read_as_a_guest_and_an_open_seat_stays_open():
    created = {"game": "oceans", "seats": [{"user": "alice"}, {"guest": "Mina"}]}
    assert eventschema.upcast("GameCreated", created, Names())["seats"] == [
        {"user": "m-1"},
        {"guest": "g-1"},
    ]
    open_seat = {"seats": [{"user": None, "bot": None, "open": True}]}
    assert eventschema.upcast("GameCreated", open_seat, Names())["seats"] == open_seat["seats"]


def test_a_kind_that_never_changed_is_read_as_it_is():
    data = {"action": {"type": "roll", "dice": [1, 2]}}
    assert eventschema.upcast("ChanceResolved", data, Names()) is data
    assert eventschema.version_of({"v": 2}) == 2 and eventschema.version_of({}) == 1


def test_every_kind_that_names_people_has_an_upcaster_to_its_newest_version():
    for kind, newest in eventschema.CURRENT.items():
        for version in range(1, newest):
            assert (kind, version) in eventschema.UPCASTERS
    assert set(eventschema.PEOPLE) <= set(EventKind)


@pytest.fixture
def old_confirmation(alice, bob):
    """A club record, and then a confirmation appended in the old shape, naming bob by name,
    as code of before still running during an upgrade appends it."""
    game = match_record(
        recorded_by=alice,
        slug="oceans",
        played_at="2026-11-30T19:00:00Z",
        results=[{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
    )
    store.append(
        game,
        game.version,
        [NewEvent(EventKind.RESULT_CONFIRMED, {"on_behalf_of": ["bob"]}, actor_id=alice.pk)],
    )
    finish_if_confirmed(game)  # what the service does next, reading the log as it stands
    game.refresh_from_db()
    return game


def test_an_event_of_the_old_shape_is_read_as_the_new_and_its_row_stays(old_confirmation, bob):
    event = Event.objects.get(game=old_confirmation, kind=EventKind.RESULT_CONFIRMED)
    assert event.data == {"on_behalf_of": ["bob"]}  # stored as it was appended
    ((_, _, data, _, _),) = reads.events_of_kinds(
        game_ids=[old_confirmation.pk], kinds=(EventKind.RESULT_CONFIRMED,)
    )
    assert data == {"on_behalf_of": [member_id(bob)], "v": 2}
    assert Event.objects.get(pk=event.pk).data == {"on_behalf_of": ["bob"]}
    # Read in names, it stands for bob as a new one would: the record is final.
    state = record_reads.result_state(old_confirmation)
    assert state["status"] == "final" and "bob" in state["confirmed_by"]


def test_an_event_of_the_old_shape_still_verifies(old_confirmation):
    assert store.verify_chain(old_confirmation) == old_confirmation.fingerprint
    checked = verify(logchain.dump_bundle(bundle_of(old_confirmation)))
    assert checked.fingerprint == old_confirmation.fingerprint
