"""A snapshot is a cache that the app's own database role may rewrite (issue 33, item 9): the
store uses one only if it was taken at the log's chain hash and its keyed check holds. Any
other is not used: the state is read from the events, a warning names the game once, and the
true state takes the row's place. Nothing read from a forged row is ever cached or shared."""

from __future__ import annotations

import json
import logging

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from games import logchain, store
from games.models import Event, Game, Snapshot
from games.play import reads, services
from games.rules import get_rules
from games.rules.base import state_from_json
from games.store import states
from tests.games.test_append_only import acting_as, app_role  # noqa: F401 - a fixture

pytestmark = pytest.mark.django_db

EVERY = 5


@pytest.fixture(autouse=True)
def _snapshots_often(settings):
    settings.HADAL_SNAPSHOT_EVERY = EVERY


@pytest.fixture
def game(alice, bob):
    """A game of Deep Sea Adventure whose head is a snapshot, with two older ones below it."""
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    play_until(game, lambda: game.version > 3 * EVERY and snapshot_at_head(game))
    return game


def users(game) -> dict[int, object]:
    return {s.index: s.user for s in game.seats.all()}


def play_until(game, done, limit: int = 200) -> None:
    """Whoever is to act plays their first legal move, until ``done()``."""
    seated = users(game)
    for _ in range(limit):
        game.refresh_from_db()
        if done():
            return
        seat = game.current_player
        action = reads.game_legal_actions(game=game, user=seated[seat], seat=seat)[0]
        services.game_action_append(
            game=game, seat=seat, expected_version=game.version, action=action, user=seated[seat]
        )
    raise AssertionError("the game did not get there")


def snapshot_at_head(game) -> bool:
    return Snapshot.objects.filter(game=game, version=game.version).exists()


def truth(game, at: int | None = None):
    """The state replayed from the events alone."""
    events = game.events.order_by("seq")
    return store.replay(game, events if at is None else events.filter(seq__lte=at))


def cold() -> None:
    """As another process would read: nothing of the game held in memory."""
    store.state_cache.clear()


def state_of(snapshot: Snapshot) -> dict:
    """The state's JSON form that a row holds as text."""
    return json.loads(snapshot.state)


def text(state_json: dict) -> str:
    return logchain.canonical_text(state_json)


def forge(snapshot: Snapshot, **fields) -> None:
    """What the app's role may do: rewrite a snapshot's row (an UPDATE of games_snapshot)."""
    Snapshot.objects.filter(pk=snapshot.pk).update(state=text({**state_of(snapshot), **fields}))


# A forgery that shows in the view (the air left) and in the legal actions (the dice due
# where a diver decides).
FORGED = {"_air": 3, "_phase": "roll"}


def warnings_of(caplog) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]


def test_a_forged_snapshot_is_not_served_as_the_state_view_or_actions(game, caplog):
    head = Snapshot.objects.get(game=game, version=game.version)
    seat = game.current_player
    true = truth(game)
    forge(head, **FORGED)
    client = APIClient()
    client.force_authenticate(users(game)[seat])
    with caplog.at_level(logging.WARNING, logger="games.store"):
        for _ in range(3):
            cold()
            assert store.load_state(game).to_json() == true.to_json()
            cold()
            view = client.get(f"/api/games/{game.pk}/state/?seat={seat}").json()
            assert view == {**true.view(seat), "version": game.version}
            cold()
            actions = client.get(f"/api/games/{game.pk}/actions/?seat={seat}").json()
            assert actions == true.legal_actions() != forged_actions(game, head)
    # Said once, naming the game: the first read put the true state in the row's place.
    assert warnings_of(caplog) == [
        f"game {game.pk}: snapshot at version {head.version} ignored: its keyed check does "
        "not match what it holds: the row was changed"
    ]
    replaced = Snapshot.objects.get(pk=head.pk)
    assert state_of(replaced) == true.to_json() and replaced.chain_hash == game.fingerprint


def forged_actions(game, snapshot) -> list:
    """What the forged row would have offered, had it been served."""
    return state_from_json(get_rules(game.slug), {**state_of(snapshot), **FORGED}).legal_actions()


def test_an_earlier_version_read_past_a_forged_snapshot_is_true(game, caplog):
    older = Snapshot.objects.filter(game=game).order_by("version")[1]
    forge(older, _air=1)
    at = older.version + 1
    cold()
    with caplog.at_level(logging.WARNING, logger="games.store"):
        state = store.load_state(game, at=at)
    assert state.to_json() == truth(game, at).to_json()
    assert f"snapshot at version {older.version} ignored" in caplog.text


def count_full_replays(monkeypatch) -> list[int]:
    calls: list[int] = []
    original = states.new_state
    monkeypatch.setattr(states, "new_state", lambda g: calls.append(g.pk) or original(g))
    return calls


def reseal(snapshot: Snapshot, *, secret=None, **fields) -> None:
    """A row rewritten by someone who holds a key: ``fields`` changed and sealed again."""
    row = {
        "game_id": snapshot.game_id,
        "version": snapshot.version,
        "rules_version": snapshot.rules_version,
        "chain_hash": snapshot.chain_hash,
        "state": snapshot.state,
        **fields,
    }
    mac = store.snapshot_mac(
        row["game_id"],
        row["version"],
        row["rules_version"],
        row["chain_hash"],
        row["state"],
        secret=secret,
    )
    Snapshot.objects.filter(pk=snapshot.pk).update(**row, mac=mac)


def newest(game) -> Snapshot:
    return Snapshot.objects.filter(game=game).latest("version")


def test_a_snapshot_sealed_by_the_key_is_used(game, monkeypatch, caplog):
    cold()
    replays = count_full_replays(monkeypatch)
    with caplog.at_level(logging.INFO, logger="games.store"):
        state = store.load_state(game)
    assert replays == [] and caplog.text == ""
    assert state.to_json() == truth(game).to_json()


def test_a_snapshot_sealed_with_a_key_since_rotated_out_is_still_used(game, settings, monkeypatch):
    true = truth(game).to_json()
    old = settings.SECRET_KEY
    settings.SECRET_KEY, settings.SECRET_KEY_FALLBACKS = "a-new-key-for-tests-only", [old]
    cold()
    replays = count_full_replays(monkeypatch)
    assert store.load_state(game).to_json() == true
    assert replays == []
    settings.SECRET_KEY_FALLBACKS = []  # the old key retired: its seals vouch for nothing
    cold()
    assert store.load_state(game).to_json() == true
    assert replays == [game.pk]


def lie_in_the_chain_hash(snapshot: Snapshot):
    # Sealed with the key, but claiming to be taken at another chain (the log rewritten
    # under it, or a backup of another database's games): only the chain hash gives it away.
    reseal(snapshot, chain_hash="0" * 64, state=text({**state_of(snapshot), **FORGED}))


def relabelled_to_another_version(snapshot: Snapshot):
    """An older true snapshot passed off as the newest, with the newest's chain hash."""
    older = Snapshot.objects.filter(game=snapshot.game_id, version__lt=snapshot.version)
    Snapshot.objects.filter(pk=snapshot.pk).delete()
    older.filter(pk=older.latest("version").pk).update(
        version=snapshot.version, chain_hash=snapshot.chain_hash
    )


@pytest.mark.parametrize(
    "tamper, says",
    [
        pytest.param(lie_in_the_chain_hash, "not the log's", id="chain-hash"),
        pytest.param(
            lambda s: reseal(s, secret="not our key", state=text({**state_of(s), **FORGED})),
            "keyed check",
            id="another-key",
        ),
        pytest.param(
            lambda s: Snapshot.objects.filter(pk=s.pk).update(
                state=text({**state_of(s), "_air": state_of(s)["_air"] - 1})
            ),
            "keyed check",
            id="state",
        ),
        pytest.param(relabelled_to_another_version, "keyed check", id="version"),
    ],
)
def test_a_snapshot_changed_in_any_part_is_refused(game, tamper, says, caplog, monkeypatch):
    snapshot = newest(game)
    tamper(snapshot)
    cold()
    with caplog.at_level(logging.WARNING, logger="games.store"):
        state = store.load_state(game)
    assert state.to_json() == truth(game).to_json()
    assert f"game {game.pk}: snapshot at version {snapshot.version} ignored" in caplog.text
    assert says in caplog.text


def test_a_snapshot_of_another_game_is_refused(game, alice, bob, caplog):
    other = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    theirs = newest(game)
    # The whole row, key and all, copied onto the other game at the same version.
    Snapshot.objects.create(
        game=other,
        version=1,
        rules_version=theirs.rules_version,
        state=theirs.state,
        chain_hash=theirs.chain_hash,
        mac=theirs.mac,
    )
    cold()
    with caplog.at_level(logging.WARNING, logger="games.store"):
        state = store.load_state(other)
    assert state.to_json() == truth(other).to_json()
    assert f"game {other.pk}: snapshot at version 1 ignored" in caplog.text


def test_a_row_written_before_snapshots_were_sealed_is_not_used_and_is_replaced(
    game, caplog, monkeypatch
):
    for snapshot in Snapshot.objects.filter(game=game):
        Snapshot.objects.filter(pk=snapshot.pk).update(
            chain_hash="", mac="", state=text({**state_of(snapshot), "_air": 0})
        )
    true = truth(game).to_json()
    cold()
    replays = count_full_replays(monkeypatch)
    with caplog.at_level(logging.INFO, logger="games.store"):
        state = store.load_state(game)
    assert state.to_json() == true and replays == [game.pk]
    assert warnings_of(caplog) == []  # expected after the upgrade: no alarm
    assert "unsealed, replaced" in caplog.text
    for snapshot in Snapshot.objects.filter(game=game):
        event = Event.objects.get(game=game, seq=snapshot.version)
        assert snapshot.chain_hash == event.hash and snapshot.mac
        assert state_of(snapshot) == truth(game, snapshot.version).to_json()
    cold()
    replays.clear()
    assert store.load_state(game).to_json() == state.to_json() and replays == []


def test_a_forged_row_planted_ahead_of_the_game_is_kept_out_when_reached(game, caplog):
    """A snapshot is written as before (ON CONFLICT DO NOTHING): a row planted at a version
    the game has not reached stays, and the first read of that version finds it out."""
    ahead = (game.version // EVERY + 1) * EVERY
    mine = newest(game)
    Snapshot.objects.create(
        game=game,
        version=ahead,
        rules_version=mine.rules_version,
        state=text({**state_of(mine), **FORGED}),
        chain_hash="f" * 64,
        mac="f" * 64,
    )
    play_until(game, lambda: game.version > ahead)
    cold()
    with caplog.at_level(logging.WARNING, logger="games.store"):
        assert store.load_state(game, at=ahead).to_json() == truth(game, ahead).to_json()
    assert f"snapshot at version {ahead} ignored" in caplog.text


def test_nothing_read_from_a_forged_snapshot_is_cached_or_shared(
    game, settings, django_capture_on_commit_callbacks
):
    settings.HADAL_SHARED_HEADS = True
    forge(newest(game), **FORGED)
    cold()
    seat = game.current_player
    with django_capture_on_commit_callbacks(execute=True):
        appended = services.game_action_append(
            game=game.pk,
            seat=seat,
            expected_version=game.version,
            action=truth(game).legal_actions()[0],
            user=users(game)[seat],
        )
    game.refresh_from_db()
    true = truth(game)
    _, kept = store.state_cache.get(store.where(game), game.pk, appended.version)
    assert kept.to_json() == true.to_json()
    store.state_cache._entries.clear()  # another process: only the shared head is left
    _, shared = store.state_cache.get(store.where(game), game.pk, appended.version)
    assert shared.to_json() == true.to_json()


def test_snapshots_of_another_rules_version_are_passed_over_without_alarm(
    game, monkeypatch, caplog
):
    # A game keeps its rules version for ever: a snapshot keyed by another is never its own.
    Snapshot.objects.filter(game=game).update(rules_version=game.rules_version + 1)
    true = truth(game).view(None)
    cold()
    replays = count_full_replays(monkeypatch)
    with caplog.at_level(logging.WARNING, logger="games.store"):
        assert store.load_state(game).view(None) == true
    assert replays == [game.pk] and warnings_of(caplog) == []


@pytest.mark.postgres
def test_the_app_role_may_rewrite_a_snapshot_but_its_forgery_is_not_served(
    game,
    app_role,  # noqa: F811
    caplog,
):
    head = newest(game)
    with acting_as(app_role):
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE games_snapshot SET state = jsonb_set(state::jsonb, '{_air}', '3')::text"
                " WHERE id = %s",
                [head.pk],
            )
            assert cursor.rowcount == 1  # the role may: snapshots are a cache
        cold()
        with caplog.at_level(logging.WARNING, logger="games.store"):
            state = store.load_state(Game.objects.get(pk=game.pk))
    assert state.to_json() == truth(game).to_json()
    assert f"game {game.pk}: snapshot at version {head.version} ignored" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_snapshots_from_before_the_migration_are_read_past_and_replaced(alice, bob, caplog):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    play_until(game, lambda: game.version > 2 * EVERY)
    count = Snapshot.objects.filter(game=game).count()
    assert count >= 2
    executor = MigrationExecutor(connection)
    executor.migrate([("games", "0019_game_chain_version")])  # as the rows were: JSON, unsealed
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    rows = Snapshot.objects.filter(game=game)
    assert rows.count() == count and not any(rows.values_list("mac", flat=True))
    cold()
    with caplog.at_level(logging.INFO, logger="games.store"):
        assert store.load_state(game).to_json() == truth(game).to_json()
    assert caplog.text.count("unsealed, replaced") == count and not warnings_of(caplog)
    assert all(rows.values_list("mac", flat=True))
