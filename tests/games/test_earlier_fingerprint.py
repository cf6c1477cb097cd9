"""A game logged before logs named people by id has a new fingerprint since migration 0021; the
bundle carries the one before and what it covered, and the checker recomputes it, so that a
fingerprint copied onto a score slip before still checks (until a person it names is erased)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from games import eventschema, logchain
from games.records.verify import BundleError, verify

OLD = Path(__file__).resolve().parents[1] / "golden" / "bundle_v1" / "deep-vents.json"


class Ids:
    def person(self, name, *, guest):
        return "m-" + name

    def note(self, text):
        return {"plain": text, "by": None}


def moved_to_ids(old: dict) -> dict:
    """The bundle the service exports of ``old``'s game after migration 0021."""
    old = json.loads(json.dumps(old))  # a copy of its own: the tests change what it holds
    events, held, previous = [], {}, logchain.GENESIS
    for e in old["events"]:
        data = e["data"]
        if e["kind"] in eventschema.PEOPLE:
            held[str(e["seq"])] = data
            data = eventschema.upcast(e["kind"], data, Ids())
        previous = logchain.event_hash(
            previous, e["seq"], e["kind"], data, e["seat"], e["time"], chain=1
        )
        events.append({**e, "data": data, "actor": None, "hash": previous})
    return {
        **old,
        "format_version": 3,
        "chain_version": 1,
        "events": events,
        "fingerprint": previous,
        "people": {"m-alice": "alice", "m-bob": "bob"},
        "earlier": {
            "fingerprint": old["fingerprint"],
            "replaced_at": "2026-12-07T00:00:00.000000Z",
            "events": held,
        },
    }


@pytest.fixture
def old():
    return json.loads(OLD.read_text())


def test_the_fingerprint_from_before_the_move_still_checks(old):
    bundle = moved_to_ids(old)
    checked = verify(logchain.dump_bundle(bundle))
    assert checked.fingerprint != old["fingerprint"]
    assert checked.earlier == old["fingerprint"] and checked.earlier_checked
    summary = checked.summary()
    assert f"until 2026-12-07 was {logchain.short(old['fingerprint'])}" in summary
    assert "follows from the log as it was" in summary


def test_an_earlier_log_changed_fails(old):
    bundle = moved_to_ids(old)
    bundle["earlier"]["events"]["1"]["seats"][0]["user"] = "mallory"
    with pytest.raises(BundleError, match="earlier fingerprint does not follow"):
        verify(logchain.dump_bundle(bundle))
    bundle = moved_to_ids(old)
    bundle["earlier"]["events"]["999"] = {}
    with pytest.raises(BundleError, match="names events the log does not have: 999"):
        verify(logchain.dump_bundle(bundle))


def test_once_a_person_it_named_is_erased_it_says_it_can_no_longer_be_checked(old):
    bundle = moved_to_ids(old)
    bundle["earlier"]["events"] = None
    bundle["people"]["m-alice"] = None
    checked = verify(logchain.dump_bundle(bundle))
    assert checked.earlier_checked is None
    assert "covered a name since erased, so it can no longer be checked" in checked.summary()


def test_the_people_beside_the_log_are_exactly_those_it_names(old):
    bundle = moved_to_ids(old)
    bundle["people"]["m-carol"] = "carol"
    with pytest.raises(BundleError, match="not in the log m-carol"):
        verify(logchain.dump_bundle(bundle))
    del bundle["people"]["m-carol"], bundle["people"]["m-bob"]
    with pytest.raises(BundleError, match="missing m-bob"):
        verify(logchain.dump_bundle(bundle))
    # A name is not covered by the fingerprint, and the checker says so.
    bundle = moved_to_ids(old)
    bundle["people"]["m-bob"] = "robert"
    assert "not covered by the fingerprint" in verify(logchain.dump_bundle(bundle)).summary()


@pytest.mark.django_db
def test_the_page_shows_the_fingerprint_from_before_and_whether_it_still_checks(
    client, alice, bob, settings, tmp_path
):
    from django.utils import timezone

    from games.models import EarlierFingerprint
    from games.play import services
    from league.services import erasure
    from tests.games.test_fingerprint import play

    settings.HADAL_ERASURE_LEDGER = str(tmp_path / "ledger")
    game = play(
        services.game_create(
            slug="deep-sea-adventure",
            seats=[{"user": "alice"}, {"user": "bob"}],
            options=None,
            created_by=alice,
            seated=True,
        ),
        [alice, bob],
    )
    earlier = "ab12" * 16
    EarlierFingerprint.objects.create(
        game=game, fingerprint=earlier, replaced_at=timezone.now(), events={"1": {}}
    )
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert f'its fingerprint was <code title="{earlier}">{logchain.short(earlier)}</code>' in page
    assert "checks against both" in page
    erasure.member_erase(user=bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "it can no longer be checked" in page
