"""Bot moves through Celery: eager on SQLite, and against a real worker on Redis in CI."""

from __future__ import annotations

import time

import pytest

from games import store, tasks
from games.models import Event, Game
from games.play import services

DSA = "deep-sea-adventure"


def bot_first_game(alice, bob=None):
    seats = [{"bot": "random"}, {"user": "alice"}]
    return services.game_create(slug=DSA, seats=seats, options={}, created_by=alice)


@pytest.mark.django_db
def test_a_duplicate_bot_task_does_nothing(alice):
    game = bot_first_game(alice)  # no on_commit here: nothing has moved yet
    assert game.version == 1 and game.current_player == 0
    first = tasks.bot_move.apply(args=(game.pk, 0, 1)).get()
    game.refresh_from_db()
    assert first == game.version > 1
    assert tasks.bot_move.apply(args=(game.pk, 0, 1)).get() is None
    assert Game.objects.get(pk=game.pk).version == game.version
    assert Event.objects.filter(game=game, idempotency_key="bot:0:1").count() == 1


@pytest.mark.django_db
def test_a_bot_task_for_a_human_seat_or_a_finished_game_does_nothing(alice):
    game = bot_first_game(alice)
    tasks.bot_move.apply(args=(game.pk, 0, 1))
    game.refresh_from_db()
    if game.current_player == 1:
        assert tasks.bot_move.apply(args=(game.pk, 1, game.version)).get() is None
    assert tasks.bot_move.apply(args=(999999, 0, 1)).get() is None


@pytest.mark.django_db
def test_the_sweep_re_enqueues_a_stalled_bot_seat(alice, settings):
    settings.HADAL_BOT_STALL_SECONDS = 0
    game = bot_first_game(alice)  # the on-commit enqueue never ran: a lost task
    assert tasks.sweep_stalled_bots.apply().get() == 1
    game.refresh_from_db()
    assert game.version > 1 and game.current_player in (0, 1)


def wait_until(predicate, timeout: float = 120.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_bot_only_game_plays_to_the_end_on_the_real_worker(alice):
    game = services.game_create(
        slug=DSA, seats=[{"bot": "random"}] * 3, options={}, created_by=alice
    )
    assert wait_until(lambda: Game.objects.get(pk=game.pk).status == "finished")
    game.refresh_from_db()
    replayed = store.replay(game, game.events.order_by("seq"))
    assert replayed.is_terminal()
    assert [r["rank"] for r in game.result] == [r["rank"] for r in replayed.result()]


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_duplicate_deliveries_to_the_real_worker_move_once(alice):
    game = bot_first_game(alice)
    for _ in range(3):
        tasks.bot_move.delay(game.pk, 0, 1)
    assert wait_until(lambda: Game.objects.get(pk=game.pk).current_player == 1)
    time.sleep(1.0)  # let the duplicates arrive and find the version stale
    game.refresh_from_db()
    assert Event.objects.filter(game=game, idempotency_key="bot:0:1").count() == 1
    assert list(game.events.values_list("seq", flat=True)) == list(range(1, game.version + 1))
    assert game.current_player == 1


@pytest.mark.django_db
@pytest.mark.parametrize("level", ["greedy", "mcts"])
def test_every_bot_level_moves_through_the_task(alice, settings, level):
    settings.HADAL_BOT_BUDGETS = {"mcts": {"iterations": 30}}
    game = services.game_create(
        slug=DSA, seats=[{"bot": level}, {"user": "alice"}], options={}, created_by=alice
    )
    assert tasks.bot_move.apply(args=(game.pk, 0, 1)).get() is not None
    move = Event.objects.get(game=game, seq=2)
    assert move.kind == "ActionApplied" and move.seat == 0
    assert move.actor.username == f"bot-{level}"
