"""GET /api/games/{id}/analysis/: 409 while active, 202 while computed, then 200; the task."""

from __future__ import annotations

import time

import pytest

from games import services, tasks
from games.models import Analysis, Game

DSA = "deep-sea-adventure"
SMALL = {"iterations": 8, "luck_samples": 1}


def finished_game(alice) -> Game:
    """A two-seat game alice plays both seats of, turning back at once with what she holds."""
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "alice"}], options={}, created_by=alice
    )
    for _ in range(2000):
        game.refresh_from_db()
        if game.status == "finished":
            return game
        seat = game.current_player
        actions = services.game_legal_actions(game=game, user=alice, seat=seat)
        action = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=alice
        )
    raise AssertionError("the game did not finish")


@pytest.fixture
def small_budget(settings):
    settings.HADAL_ANALYSIS = SMALL


@pytest.mark.django_db
def test_an_active_game_has_no_analysis_yet(api, alice, small_budget):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "alice"}], options={}, created_by=alice
    )
    answer = api.get(f"/api/games/{game.pk}/analysis/")
    assert answer.status_code == 409
    assert "still being played" in answer.json()["error"]
    assert not Analysis.objects.exists()


@pytest.mark.django_db
def test_unknown_games_and_recorded_games(api, alice, small_budget):
    assert api.get("/api/games/999999/analysis/").status_code == 404
    record = Game.objects.create(
        slug=DSA, mode="record", rules_version=0, num_players=2, status="finished"
    )
    answer = api.get(f"/api/games/{record.pk}/analysis/")
    assert answer.status_code == 409
    assert "no moves" in answer.json()["error"]
    assert not Analysis.objects.exists()


@pytest.mark.django_db
def test_the_first_request_starts_it_then_202_until_done_then_200(api, alice, small_budget):
    game = finished_game(alice)
    # The test's transaction never commits, so the task queued on commit has not run.
    first = api.get(f"/api/games/{game.pk}/analysis/")
    assert first.status_code == 202
    assert first.json() == {"status": "running", "progress": 0.0}
    assert api.get(f"/api/games/{game.pk}/analysis/").status_code == 202
    assert Analysis.objects.filter(game=game).count() == 1

    assert tasks.analyse_game.apply(args=(game.pk,)).get() is True
    assert tasks.analyse_game.apply(args=(game.pk,)).get() is False  # a duplicate delivery
    done = api.get(f"/api/games/{game.pk}/analysis/")
    assert done.status_code == 200
    body = done.json()
    assert [s["seat"] for s in body["seats"]] == [0, 1]
    moves = game.events.filter(kind="ActionApplied")
    judged = {d["version"] for d in body["decisions"]}
    assert judged and judged <= set(moves.values_list("seq", flat=True))
    for decision in body["decisions"]:
        assert decision["loss"] >= 0
        assert decision["seat"] == moves.get(seq=decision["version"]).seat
    for seat in body["seats"]:
        assert 0 <= seat["accuracy"] <= 100
    chance = set(game.events.filter(kind="ChanceResolved").values_list("seq", flat=True))
    assert {entry["version"] for entry in body["luck"]} == chance
    # Anyone who may watch the game may read it, signed in or not.
    from rest_framework.test import APIClient

    assert APIClient().get(f"/api/games/{game.pk}/analysis/").json() == body


@pytest.mark.django_db(transaction=True)
def test_eager_mode_computes_it_on_the_first_request(api, alice, small_budget):
    game = finished_game(alice)
    answer = api.get(f"/api/games/{game.pk}/analysis/")
    assert answer.status_code == 200
    assert Analysis.objects.get(game=game).status == Analysis.DONE


@pytest.mark.django_db
def test_the_schema_documents_the_analysis(api):
    schema = api.get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/games/{id}/analysis/"]["get"]
    assert {"200", "202", "404", "409"} <= set(operation["responses"])


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_the_real_worker_computes_it_with_progress(api, alice, settings):
    game = finished_game(alice)
    first = api.get(f"/api/games/{game.pk}/analysis/")
    assert first.status_code == 202
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        answer = api.get(f"/api/games/{game.pk}/analysis/")
        if answer.status_code == 200:
            break
        assert answer.status_code == 202 and 0 <= answer.json()["progress"] <= 1
        time.sleep(0.5)
    else:
        raise AssertionError("the worker did not finish the analysis")
    assert answer.json()["decisions"]
