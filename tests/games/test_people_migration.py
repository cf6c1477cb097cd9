"""Migration 0021 moves the logs written before to people's ids, the one time logs are rewritten:
no name and no note stays in the clear, every chain verifies again, and the fingerprint players
may have copied still follows from the log as it was, kept with the data each rewritten event
held."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from accounts.models import Person
from accounts.people import Opener
from games import eventschema, logchain, store
from games.models import EarlierFingerprint, Event, Game, Snapshot
from tests.games.test_store_conformance import backend

BEFORE = [("games", "0020_snapshot_seal"), ("accounts", "0001_profile")]
GOLDEN_V1 = Path(__file__).resolve().parents[1] / "golden" / "bundle_v1"


def plant(
    apps,
    alias: str,
    bundle: dict,
    *,
    notes: dict[int, str] | None = None,
    actors: dict[int, str] | None = None,
) -> tuple[int, str]:
    """The bundle's game written as the code of its time wrote it (names in its events), with
    ``notes`` put into its events of those seqs and ``actors`` (usernames) as theirs (its chain
    recomputed over them); returns the game's id and its fingerprint."""
    User, Game_, Seat, Event_ = (
        apps.get_model("auth", "User"),
        apps.get_model("games", "Game"),
        apps.get_model("games", "Seat"),
        apps.get_model("games", "Event"),
    )
    created = bundle["events"][0]["data"]
    users = {}
    for seat in created["seats"]:
        if seat.get("user"):
            users[seat["user"]] = User.objects.using(alias).get_or_create(username=seat["user"])[0]
    game = Game_.objects.using(alias).create(
        slug=bundle["rules"]["slug"],
        mode=bundle["game"]["mode"],
        rules_version=bundle["rules"]["version"],
        options=created.get("options", {}),
        num_players=created["num_players"],
        status=bundle["game"]["status"],
        version=len(bundle["events"]),
        chain_version=bundle.get("chain_version", 1),
    )
    for index, seat in enumerate(created["seats"]):
        Seat.objects.using(alias).create(
            game=game,
            index=index,
            user=users.get(seat.get("user")),
            guest=seat.get("guest", ""),
            bot=seat.get("bot") or "",
        )
    actor_ids = {seq: users[name].pk for seq, name in (actors or {}).items()}
    previous, rows = logchain.GENESIS, []
    for e in bundle["events"]:
        e = dict(e, actor=actor_ids.get(e["seq"], e.get("actor")))
        data = dict(e["data"], notes=notes[e["seq"]]) if e["seq"] in (notes or {}) else e["data"]
        previous = logchain.event_hash(
            previous,
            e["seq"],
            e["kind"],
            data,
            e["seat"],
            e["time"],
            actor=e.get("actor"),
            chain=bundle.get("chain_version", 1),
        )
        rows.append(
            Event_(
                game=game,
                seq=e["seq"],
                kind=e["kind"],
                data=data,
                seat=e["seat"],
                actor_id=e.get("actor"),
                created_at=datetime.fromisoformat(e["time"].replace("Z", "+00:00")),
                batch=e["seq"],
                hash=previous,
            )
        )
    Event_.objects.using(alias).bulk_create(rows)
    Game_.objects.using(alias).filter(pk=game.pk).update(fingerprint=previous)
    return game.pk, previous


@pytest.fixture(
    params=[
        backend("store_sqlite"),
        backend("store_postgres", pytest.mark.postgres),
    ]
)
def migrated(request):
    """The logs of three games of the time (a club record with a guest and a note, a played
    game, a table log) planted before the migration, on SQLite and on PostgreSQL (whose
    triggers the migration must stand aside and put back), then migrated."""
    alias = request.param
    executor = MigrationExecutor(connections[alias])
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    record = json.loads((GOLDEN_V1 / "oceans-record.json").read_text())
    record["events"][1]["data"]["results"][1]["player"] = "Mina"  # a guest, seated as one
    record["events"][3]["data"]["result"][1]["player"] = "Mina"
    record["events"][0]["data"]["seats"][1] = {"guest": "Mina"}
    planted = {
        "record": plant(
            old,
            alias,
            record,
            notes={2: "played at the harbour, Mina's first game"},
            actors={1: "alice", 2: "alice"},
        ),
        "play": plant(old, alias, json.loads((GOLDEN_V1 / "deep-vents.json").read_text())),
        "log": plant(
            old, alias, json.loads((GOLDEN_V1 / "deep-sea-adventure-table-log.json").read_text())
        ),
    }
    executor = MigrationExecutor(connections[alias])
    executor.migrate(executor.loader.graph.leaf_nodes())
    return alias, planted


def test_no_log_names_anyone_after_the_move_and_every_chain_verifies(migrated):
    alias, migrated = migrated
    names = {"alice", "bob", "Mina", "carol"}
    for game_id, _ in migrated.values():
        game = Game.objects.using(alias).get(pk=game_id)
        for event in Event.objects.using(alias).filter(game=game):
            text = logchain.canonical_text(event.data)
            assert not any(f'"{name}"' in text for name in names), (event.kind, text)
            if event.kind in eventschema.PEOPLE:
                assert eventschema.version_of(event.data) == 2
        assert store.verify_chain(game) == game.fingerprint


def test_the_fingerprint_before_still_follows_from_the_log_as_it_was(migrated):
    alias, migrated = migrated
    for game_id, old_fingerprint in migrated.values():
        game = Game.objects.using(alias).get(pk=game_id)
        earlier = EarlierFingerprint.objects.using(alias).get(game=game)
        assert earlier.fingerprint == old_fingerprint != game.fingerprint
        previous = logchain.GENESIS
        for event in Event.objects.using(alias).filter(game=game).order_by("seq"):
            previous = logchain.event_hash(
                previous,
                event.seq,
                event.kind,
                earlier.events.get(str(event.seq), event.data),
                event.seat,
                logchain.time_text(event.created_at),
                actor=event.actor_id,
                chain=game.chain_version,
            )
        assert previous == old_fingerprint


def test_names_become_persons_and_the_notes_their_writers(migrated):
    alias, migrated = migrated
    game_id, _ = migrated["record"]
    created, recorded = Event.objects.using(alias).filter(game_id=game_id).order_by("seq")[:2]
    alice = Person.objects.using(alias).get(user__username="alice")
    mina = Person.objects.using(alias).get(user__isnull=True, guest_name="Mina")
    assert created.data["seats"] == [{"user": alice.public_id}, {"guest": mina.public_id}]
    assert [r["player"] for r in recorded.data["results"]] == [alice.public_id, mina.public_id]
    note = recorded.data["notes"]
    assert note["by"] == alice.public_id and "harbour" not in note["sealed"]  # the recorder's
    keys = Opener()
    keys._keys.update(Person.objects.using(alias).values_list("public_id", "key"))
    assert eventschema.note_text(note, keys) == "played at the harbour, Mina's first game"


def test_the_snapshots_sealed_over_the_old_chain_are_gone(migrated):
    alias, _ = migrated
    assert not Snapshot.objects.using(alias).exists()
