"""A data migration changes the database it migrates, not the default one: a second database
(the store conformance suite's, or a deployment's own) is migrated with its own rows."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from games.models import Game

STORE = "store_sqlite"


@pytest.mark.django_db(transaction=True, databases=["default", STORE])
def test_the_clock_migration_sets_the_deadlines_of_the_database_it_migrates():
    before = [("games", "0014_event_foreign_keys_unchecked")]
    executor = MigrationExecutor(connections[STORE])
    executor.migrate(before)
    old = executor.loader.project_state(before).apps
    OldGame, OldSeat = old.get_model("games", "Game"), old.get_model("games", "Seat")
    OldUser = old.get_model("auth", "User")
    moved = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
    ann = OldUser.objects.using(STORE).create(username="ann")
    bea = OldUser.objects.using(STORE).create(username="bea")
    game = OldGame.objects.using(STORE).create(
        slug="deep-sea-adventure",
        rules_version=1,
        num_players=2,
        version=3,
        status="active",
        mode="play",
        move_seconds=60,
        current_player=0,
        moved_at=moved,
    )
    for index, user in enumerate((ann, bea)):
        OldSeat.objects.using(STORE).create(game=game, index=index, user=user, accepted=True)

    executor = MigrationExecutor(connections[STORE])
    executor.migrate(executor.loader.graph.leaf_nodes())

    assert Game.objects.using(STORE).get(pk=game.pk).deadline == moved + timedelta(seconds=60)
