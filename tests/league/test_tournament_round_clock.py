"""The round clock at a venue: the organiser pauses and resumes it (the time left kept),
extends the round, and gives one table extra time, shown at that table on the page, the
printed round and the projector. Each change is logged; a bad request changes nothing."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.utils import timezone

from league.models import Round, Table, TournamentEvent
from tests.league.tournament_steps import kinds

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_one(api_for, make_user):
    """Five players on tables of two, round 1 paired, its 45-minute clock started."""
    org = api_for(make_user("org"))
    for name in ("ann", "ben", "cat", "dan", "eve"):
        make_user(name)
    body = {
        "name": "Harbour night",
        "game": "deep-sea-adventure",
        "format": "swiss",
        "table_size": 2,
        "rounds": 2,
        "mode": "table",
        "players": ["ann", "ben", "cat", "dan", "eve"],
        "round_minutes": 45,
    }
    tid = org.post("/api/tournaments/", body, format="json").json()["id"]
    tables = org.post(f"/api/tournaments/{tid}/rounds/").json()["tables"]
    assert org.post(f"/api/tournaments/{tid}/rounds/1/start/", {}, format="json").status_code == 201
    return org, tid, tables


def at(minutes: float):
    """The service's clock, ``minutes`` from now."""
    return mock.patch(
        "django.utils.timezone.now",
        return_value=timezone.now() + dt.timedelta(minutes=minutes),
    )


def test_a_paused_round_keeps_the_time_it_had_left(round_one):
    org, tid, _ = round_one
    ends = Round.objects.get(tournament_id=tid).started_at + dt.timedelta(minutes=45)
    with at(10):
        paused = org.post(f"/api/tournaments/{tid}/rounds/1/pause/")
    assert paused.status_code == 201 and paused.json()["paused_at"] is not None
    with at(25):  # a quarter of an hour stopped for a fire alarm
        resumed = org.post(f"/api/tournaments/{tid}/rounds/1/resume/")
    assert resumed.status_code == 201 and resumed.json()["paused_at"] is None
    round_ = Round.objects.get(tournament_id=tid)
    later = round_.started_at + dt.timedelta(minutes=round_.minutes)
    assert abs((later - ends).total_seconds() - 15 * 60) < 2
    assert kinds(tid)[-2:] == ["RoundPaused", "RoundResumed"]


def test_pause_and_resume_only_in_turn(round_one):
    org, tid, _ = round_one
    not_paused = org.post(f"/api/tournaments/{tid}/rounds/1/resume/")
    assert not_paused.status_code == 422 and "not paused" in not_paused.json()["error"]
    org.post(f"/api/tournaments/{tid}/rounds/1/pause/")
    twice = org.post(f"/api/tournaments/{tid}/rounds/1/pause/")
    assert twice.status_code == 422 and "already paused" in twice.json()["error"]
    assert org.post(f"/api/tournaments/{tid}/rounds/7/pause/").status_code == 404


def test_extending_the_round_adds_minutes(round_one):
    org, tid, _ = round_one
    response = org.post(f"/api/tournaments/{tid}/rounds/1/extend/", {"minutes": 10}, format="json")
    assert response.status_code == 201 and response.json()["minutes"] == 55
    assert TournamentEvent.objects.filter(tournament_id=tid).last().data == {
        "round": 1,
        "minutes": 10,
    }


@pytest.mark.parametrize("minutes", [0, -5, 500, "ten", None])
def test_a_bad_extension_is_refused_and_changes_nothing(round_one, minutes):
    org, tid, tables = round_one
    before = TournamentEvent.objects.count()
    for url in ("rounds/1/extend/", f"tables/{tables[0]['id']}/extra-time/"):
        response = org.post(f"/api/tournaments/{tid}/{url}", {"minutes": minutes}, format="json")
        assert response.status_code == 400 and "minutes" in str(response.json())
    assert TournamentEvent.objects.count() == before
    assert Round.objects.get(tournament_id=tid).minutes == 45


def test_extra_time_for_one_table_is_shown_at_that_table(round_one, client):
    org, tid, tables = round_one
    late = tables[1]
    response = org.post(
        f"/api/tournaments/{tid}/tables/{late['id']}/extra-time/", {"minutes": 5}, format="json"
    )
    assert response.status_code == 201 and response.json()["extra_minutes"] == 5
    org.post(
        f"/api/tournaments/{tid}/tables/{late['id']}/extra-time/", {"minutes": 3}, format="json"
    )
    assert Table.objects.get(pk=late["id"]).extra_minutes == 8
    assert kinds(tid)[-1] == "TableExtraTime"
    for url in (f"/tournaments/{tid}/", f"/tournaments/{tid}/rounds/1/print/"):
        html = client.get(url).content.decode()
        assert html.count("+8 minutes") == 1, url
    projector = client.get(f"/tournaments/{tid}/projector/").content.decode()
    assert "+8 min" in projector


def test_only_organisers_change_the_clock(round_one, api_for, django_user_model):
    org, tid, tables = round_one
    player = api_for(django_user_model.objects.get(username="ann"))
    before = TournamentEvent.objects.count()
    for url, body in (
        ("rounds/1/pause/", {}),
        ("rounds/1/extend/", {"minutes": 5}),
        (f"tables/{tables[0]['id']}/extra-time/", {"minutes": 5}),
    ):
        response = player.post(f"/api/tournaments/{tid}/{url}", body, format="json")
        assert response.status_code == 403, url
    assert TournamentEvent.objects.count() == before


def test_the_clock_must_have_started(api_for, make_user):
    org = api_for(make_user("org"))
    for name in ("ann", "ben"):
        make_user(name)
    body = {
        "name": "Quiet night",
        "game": "deep-sea-adventure",
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "mode": "table",
        "players": ["ann", "ben"],
    }
    tid = org.post("/api/tournaments/", body, format="json").json()["id"]
    org.post(f"/api/tournaments/{tid}/rounds/")
    response = org.post(f"/api/tournaments/{tid}/rounds/1/pause/")
    assert response.status_code == 422 and "has not started" in response.json()["error"]
