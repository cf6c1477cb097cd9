"""Idempotency keys that cannot be bent, and committed moves that stay answered as committed
(issue 12, items 3 and 4)."""

from __future__ import annotations

import datetime as dt
from unittest import mock

import pytest
from django.utils import timezone
from kombu.exceptions import OperationalError

from config.celery import app as celery_app
from games import store, tasks
from games.models import Event, EventKind, Game
from games.play import seating, services, steps

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )


def head(game: Game) -> Game:
    return Game.objects.get(pk=game.pk)


def move(game, user, action, key=None, seat=0):
    return services.game_action_append(
        game=head(game),
        seat=seat,
        user=user,
        action=action,
        expected_version=head(game).version,
        idempotency_key=key,
    )


# -- item 3: the cache only holds logged states ---------------------------------------------------


def test_a_request_that_loses_the_race_on_a_key_caches_nothing_of_its_own(
    game, alice, django_capture_on_commit_callbacks
):
    stale = store.load_head(game.pk)  # the loser read the head before the winner committed
    with django_capture_on_commit_callbacks(execute=True):
        won = move(game, alice, {"type": "continue"}, key="k")
    store.state_cache.clear()
    with (
        mock.patch.object(store, "load_head", return_value=stale),
        django_capture_on_commit_callbacks(execute=True),
    ):
        lost = services.game_action_append(
            game=game.pk,
            seat=0,
            user=alice,
            action={"type": "continue"},
            expected_version=1,
            idempotency_key="k",
        )
    assert lost.replayed and lost.version == won.version
    assert [e.pk for e in lost.events] == [e.pk for e in won.events]
    assert store.state_cache._entries == {}  # the loser's own state, dice and all, is nowhere
    logged = store.replay(game, Event.objects.filter(game=game, seq__lte=1).order_by("seq"))
    assert store.load_state(head(game), at=1).view(None) == logged.view(None)
    truth = store.replay(game, Event.objects.filter(game=game).order_by("seq"))
    assert store.load_state(head(game)).view(None) == truth.view(None)


# -- item 3: client keys never collide with the server's -------------------------------------------


def test_a_client_cannot_take_the_key_the_server_uses_when_a_clock_runs_out(
    alice, bob, make_user, api_for
):
    carol = make_user("carol")
    game = services.game_create(
        slug=DSA,
        seats=[{"user": "alice"}, {"user": "bob"}, {"user": "carol"}],
        options={},
        created_by=alice,
        time_control={"move_seconds": 5, "on_timeout": "random"},
    )
    for seat, user in ((1, bob), (2, carol)):
        seating.game_accept(game=head(game), seat=seat, user=user)
    version = head(game).version
    # Bob resigns under the key alice's timeout at the next version would use.
    resigned = api_for(bob).post(
        f"/api/games/{game.pk}/resign/",
        {"seat": 1, "idempotency_key": steps.server_key("timeout", 0, version + 1)},
        format="json",
    )
    assert resigned.status_code == 201, resigned.json()
    later = timezone.now() + dt.timedelta(seconds=60)
    with mock.patch("django.utils.timezone.now", return_value=later):
        timed_out = services.game_timeout(game_id=game.pk, seat=0, version=version + 1)
    assert timed_out is not None and not timed_out.replayed
    assert timed_out.events[0].kind == EventKind.ACTION_APPLIED
    assert timed_out.events[0].data["timeout"] is True


def test_a_client_cannot_take_the_key_of_a_bots_move(alice, api):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"bot": "random"}], options={}, created_by=alice
    )
    key = steps.server_key("bot", 1, 7)
    response = api.post(
        f"/api/games/{game.pk}/actions/",
        {"seat": 0, "expected_version": 1, "action": {"type": "continue"}, "idempotency_key": key},
        format="json",
    )
    assert response.status_code == 201
    assert not Event.objects.filter(game=game, idempotency_key=key).exists()
    assert store.batch_for_key(game, key) is None


# -- item 3: one key, one request -------------------------------------------------------------------


def test_a_key_sent_again_with_the_same_request_gets_the_first_result(game, api):
    body = {
        "seat": 0,
        "expected_version": 1,
        "action": {"type": "continue"},
        "idempotency_key": "once",
    }
    first = api.post(f"/api/games/{game.pk}/actions/", body, format="json")
    again = api.post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json() == first.json()


@pytest.mark.parametrize(
    "change",
    [
        {"action": {"type": "turn_back"}},
        {"seat": 1},
    ],
)
def test_a_key_reused_for_a_different_request_is_refused(game, api, api_for, bob, change):
    body = {
        "seat": 0,
        "expected_version": 1,
        "action": {"type": "continue"},
        "idempotency_key": "once",
    }
    assert api.post(f"/api/games/{game.pk}/actions/", body, format="json").status_code == 201
    client = api_for(bob) if change.get("seat") == 1 else api
    before = Event.objects.count()
    other = client.post(
        f"/api/games/{game.pk}/actions/", {**body, **change, "expected_version": 3}, format="json"
    )
    assert other.status_code == 422
    assert other.json()["error"] == "this idempotency_key was used for a different request"
    assert Event.objects.count() == before


def test_a_key_used_for_a_move_cannot_resign(game, api):
    body = {
        "seat": 0,
        "expected_version": 1,
        "action": {"type": "continue"},
        "idempotency_key": "once",
    }
    assert api.post(f"/api/games/{game.pk}/actions/", body, format="json").status_code == 201
    resign = api.post(
        f"/api/games/{game.pk}/resign/", {"seat": 0, "idempotency_key": "once"}, format="json"
    )
    assert resign.status_code == 422
    assert head(game).status == "active"


# -- item 4: a committed move is answered as committed, even with the broker down ------------------


@pytest.mark.after_commit_errors
def test_a_move_is_201_when_the_broker_is_down_and_the_sweep_recovers_the_bot(
    alice, api, settings, caplog, django_capture_on_commit_callbacks
):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"bot": "random"}], options={}, created_by=alice
    )
    refused = OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
    celery_app.conf.task_always_eager = False
    try:
        with (
            mock.patch.object(tasks.bot_move, "apply_async", side_effect=refused),
            django_capture_on_commit_callbacks(execute=True),
        ):
            for action in ({"type": "continue"}, {"type": "pass"}, {"type": "take"}):
                response = api.post(
                    f"/api/games/{game.pk}/actions/",
                    {"seat": 0, "expected_version": head(game).version, "action": action},
                    format="json",
                )
                if head(game).current_player == 1:
                    break
    finally:
        celery_app.conf.task_always_eager = True
    assert response.status_code == 201, response.json()
    assert head(game).current_player == 1  # the bot's move was never enqueued
    assert any("could not move for the bot" in r.getMessage() for r in caplog.records)
    settings.HADAL_BOT_STALL_SECONDS = 0
    with django_capture_on_commit_callbacks(execute=True):
        tasks.sweep_stalled_bots()
    assert head(game).current_player != 1 or head(game).version > response.json()["version"]


@pytest.mark.after_commit_errors
def test_a_record_is_201_when_rating_it_fails_and_the_sweep_rates_it_later(
    alice, bob, api, api_for, caplog, django_capture_on_commit_callbacks
):
    from league import tasks as league_tasks
    from league.models import RatedGame

    body = {
        "game": DSA,
        "played_at": "2026-11-01",
        "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
        "league": "club",
    }
    api.post("/api/leagues/", {"name": "Club"}, format="json")  # alice organises it
    api.post("/api/leagues/club/members/", {"player": "bob"}, format="json")
    api_for(bob).post("/api/leagues/club/accept/")  # bob agrees: her word stands for him
    with (
        mock.patch("league.tasks.rate_finished_games.delay", side_effect=OSError("broker")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        response = api.post("/api/matches/", body, format="json")
    assert response.status_code == 201
    assert not RatedGame.objects.exists()
    assert any("could not announce game" in r.getMessage() for r in caplog.records)
    league_tasks.sweep_unrated_games()
    assert RatedGame.objects.filter(game_id=response.json()["id"]).exists()
