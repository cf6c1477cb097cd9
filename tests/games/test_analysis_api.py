"""GET /api/games/{id}/analysis/: 409 while active, 202 while computed, then 200; the task."""

from __future__ import annotations

import time

import pytest
from rest_framework.test import APIClient

from config.celery import app
from games import tasks
from games.models import Analysis, Game
from games.play import reads, services

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
        actions = reads.game_legal_actions(game=game, user=alice, seat=seat)
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
def test_the_first_request_starts_it_then_202_until_done_then_200(
    api, alice, make_user, small_budget
):
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
    # Any other member reads the same analysis, and starts nothing.
    carol = make_user("carol")
    other = APIClient()
    other.force_authenticate(carol)
    assert other.get(f"/api/games/{game.pk}/analysis/").json() == body
    assert Analysis.objects.get(game=game).requested_by == alice


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


# -- who may start one, and how many -----------------------------------------------------------


@pytest.mark.django_db
def test_a_visitor_who_is_not_signed_in_is_asked_to_and_starts_nothing(alice, small_budget):
    game = finished_game(alice)
    answer = APIClient().get(f"/api/games/{game.pk}/analysis/")
    assert answer.status_code == 401
    assert not Analysis.objects.exists()


def member(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


@pytest.mark.django_db
def test_a_member_has_two_analyses_computed_at_once_and_the_third_waits(alice, small_budget):
    games = [finished_game(alice) for _ in range(3)]
    # The test's transaction never commits: the tasks queued on commit do not run.
    answers = [member(alice).get(f"/api/games/{g.pk}/analysis/") for g in games]
    assert [a.status_code for a in answers] == [202, 202, 429]
    assert answers[2].json()["error"] == (
        "you have 2 analyses being computed; ask again once one is done"
    )
    assert answers[2]["Retry-After"] == "60"
    assert not Analysis.objects.filter(game=games[2]).exists()
    # One is done: the third may start.
    Analysis.objects.filter(game=games[0]).update(status=Analysis.DONE, result={})
    assert member(alice).get(f"/api/games/{games[2].pk}/analysis/").status_code == 202


@pytest.mark.django_db
def test_a_member_starts_so_many_an_hour_and_reading_one_is_always_free(
    alice, make_user, small_budget, settings
):
    settings.HADAL_ANALYSIS_LIMITS = {"at_once": 5, "per_hour": 2, "waiting": 30}
    games = [finished_game(alice) for _ in range(3)]
    for game in games[:2]:
        assert member(alice).get(f"/api/games/{game.pk}/analysis/").status_code == 202
        Analysis.objects.filter(game=game).update(status=Analysis.DONE, result={"seats": []})
    refused = member(alice).get(f"/api/games/{games[2].pk}/analysis/")
    assert refused.status_code == 429
    assert refused.json()["error"].startswith("you have started 2 analyses in the last hour")
    assert 0 < int(refused["Retry-After"]) <= 3601
    # What is done is read by anyone signed in, whatever their share.
    assert member(alice).get(f"/api/games/{games[0].pk}/analysis/").status_code == 200
    # Someone else starts the third: alice then reads it too, free.
    assert member(make_user("dave")).get(f"/api/games/{games[2].pk}/analysis/").status_code == 202
    assert member(alice).get(f"/api/games/{games[2].pk}/analysis/").status_code == 202


@pytest.mark.django_db
def test_the_queue_as_a_whole_has_a_length(alice, make_user, small_budget, settings):
    settings.HADAL_ANALYSIS_LIMITS = {"at_once": 2, "per_hour": 10, "waiting": 2}
    games = [finished_game(alice) for _ in range(3)]
    askers = [member(make_user(name)) for name in ("erin", "frank", "gina")]
    answers = [client.get(f"/api/games/{g.pk}/analysis/") for client, g in zip(askers, games)]
    assert [a.status_code for a in answers] == [202, 202, 503]
    assert "as many analyses as the service computes at once" in answers[2].json()["error"]


def test_analyses_go_to_their_own_queue():
    assert app.amqp.router.route({}, tasks.analyse_game.name)["queue"].name == "analysis"
    assert app.amqp.router.route({}, tasks.bot_move.name)["queue"].name == "celery"
