"""A game keeps the rules version it was created under: played on after the rules changed, it
finishes under its own version, is shown as that version shows it, exports naming it, and
verifies under it; a new game takes the newest."""

from __future__ import annotations

import json

import pytest

from games import logchain, store
from games.models import Event, EventKind, Game
from games.play import reads, services
from games.records.export import bundle_of, public_fingerprint
from games.records.verify import BundleError, verify
from games.rules import get_rules, registered
from tests.games.test_fingerprint import play

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def game_of_version_1(users):
    """A game created while Deep Sea Adventure's newest rules were version 1, as they were."""
    module = registered()[DSA]
    newest = module.spec
    module.spec = newest.at(1)
    try:
        return services.game_create(
            slug=DSA,
            seats=[{"user": u.username} for u in users],
            options=None,
            created_by=users[0],
            seated=True,
        )
    finally:
        module.spec = newest


def new_game(users):
    return services.game_create(
        slug=DSA,
        seats=[{"user": u.username} for u in users],
        options=None,
        created_by=users[0],
        seated=True,
    )


def reveals(game):
    return [
        e.data
        for e in Event.objects.filter(game=game, kind=EventKind.CHANCE_RESOLVED).order_by("seq")
        if e.data["action"]["type"] == "reveal"
    ]


def test_a_game_of_version_1_plays_on_and_finishes_under_version_1(alice, bob):
    old = game_of_version_1([alice, bob])
    assert old.rules_version == 1
    created = Event.objects.get(game=old, seq=1)
    assert created.data["rules_version"] == 1
    assert get_rules(DSA).spec.version == 2  # the rules have moved on while it is played
    store.state_cache.clear()  # and the service restarts: nothing cached
    play(old, [alice, bob])
    old.refresh_from_db()
    assert old.status == "finished" and old.rules_version == 1
    # Version 1's reveals were for their diver alone: the log says so for every one.
    logged = reveals(old)
    assert logged and all(r["private_to"] == [r["action"]["seat"]] for r in logged)
    assert all("value" not in r["public"] for r in logged)
    # A new game now takes version 2: its reveals are public.
    new = play(new_game([alice, bob]), [alice, bob])
    assert new.rules_version == 2
    assert reveals(new) and all("private_to" not in r for r in reveals(new))


def test_while_it_runs_version_1_hides_a_revealed_chip_from_the_other_diver(alice, bob):
    game = game_of_version_1([alice, bob])
    users = [alice, bob]
    while not reveals(game):
        game.refresh_from_db()
        seat = game.current_player
        actions = reads.game_legal_actions(game=game, user=users[seat], seat=seat)
        action = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        services.game_action_append(
            game=game, seat=seat, expected_version=game.version, action=action, user=users[seat]
        )
    game.refresh_from_db()
    holder = reveals(game)[0]["action"]["seat"]
    other = 1 - holder
    state = store.load_state(game)
    assert state.rules_version == 1
    assert state.view(holder)["divers"][holder]["scored"]
    assert state.view(other)["divers"][holder]["scored"] is None
    seen = reads.events_seen_from(game=game, seats={other}, events=game.events.order_by("seq"))
    theirs = [
        e["data"]["action"]
        for e in seen
        if e["kind"] == "ChanceResolved"
        and e["data"]["action"]["type"] == "reveal"
        and e["data"]["action"]["seat"] == holder
    ]
    assert theirs and all("value" not in action for action in theirs)
    # Version 1 has hidden information: no fingerprint while it runs.
    assert public_fingerprint(game) is None


def test_a_finished_game_of_version_1_exports_naming_it_and_verifies(alice, bob):
    game = game_of_version_1([alice, bob])
    play(game, [alice, bob])
    game.refresh_from_db()
    bundle = bundle_of(game)
    assert bundle["rules"]["version"] == 1
    raw = logchain.dump_bundle(bundle)
    checked = verify(raw)
    assert checked.replayed and checked.fingerprint == game.fingerprint
    # The same log is not a game of rules this copy never had.
    bundle = json.loads(raw)
    bundle["rules"]["version"] = 7
    with pytest.raises(BundleError, match="rules version"):
        verify(logchain.dump_bundle(bundle))
    assert Game.objects.get(pk=game.pk).result == game.result  # nothing changed
