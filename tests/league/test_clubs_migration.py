"""Migration league/0009 gives every club its owner: the organiser who has been one longest."""

from __future__ import annotations

import datetime as dt

import pytest
from django.db import connections
from django.db.migrations.executor import MigrationExecutor

from league.models import League, Membership

STORE = "store_sqlite"
BEFORE = [("league", "0008_consent_entries_and_held_games")]


@pytest.mark.django_db(transaction=True, databases=["default", STORE])
def test_the_longest_serving_organiser_becomes_the_owner():
    executor = MigrationExecutor(connections[STORE])
    executor.migrate(BEFORE)
    old = executor.loader.project_state(BEFORE).apps
    OldUser, OldLeague = old.get_model("auth", "User"), old.get_model("league", "League")
    OldMembership = old.get_model("league", "Membership")
    users = {n: OldUser.objects.using(STORE).create(username=n) for n in ("ann", "bea", "cy")}
    club = OldLeague.objects.using(STORE).create(name="Harbour", slug="harbour")
    quiet = OldLeague.objects.using(STORE).create(name="Quiet", slug="quiet")
    start = dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    for days, name, role in ((3, "ann", "organiser"), (1, "bea", "organiser"), (0, "cy", "member")):
        row = OldMembership.objects.using(STORE).create(league=club, user=users[name], role=role)
        OldMembership.objects.using(STORE).filter(pk=row.pk).update(
            joined_at=start + dt.timedelta(days=days)
        )
    OldMembership.objects.using(STORE).create(league=quiet, user=users["cy"], role="member")

    executor = MigrationExecutor(connections[STORE])
    executor.migrate(executor.loader.graph.leaf_nodes())

    roles = dict(
        Membership.objects.using(STORE)
        .filter(league__slug="harbour")
        .values_list("user__username", "role")
    )
    assert roles == {"bea": "owner", "ann": "organiser", "cy": "member"}
    assert not Membership.objects.using(STORE).filter(league__slug="quiet", role="owner").exists()
    assert League.objects.using(STORE).get(slug="harbour").visibility == "public"
