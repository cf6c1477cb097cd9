"""Committed heads shared between the app's processes through the cache (games.store.sharing):
a move served by a process that did not write the last one reads nothing of the game, and
nothing uncommitted, stale or unreadable is ever served from the cache."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games import store
from games.play import services
from games.rules import get_rules
from games.store import heads
from games.store import sharing as head_sharing
from tests.tokens import key_for

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _shared(settings):
    settings.HADAL_SHARED_HEADS = True


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )


def another_process() -> None:
    """This process forgets what it wrote itself; the shared cache stays."""
    store.state_cache._entries.clear()


def move(game, user, version: int):
    return services.game_action_append(
        game=game.pk, seat=0, expected_version=version, action={"type": "continue"}, user=user
    )


def next_move(game):
    """Whoever is to act plays their first legal move."""
    head = store.load_head(game.pk)
    state = store.load_state(head)
    seat = state.current_player
    return services.game_action_append(
        game=game.pk,
        seat=seat,
        expected_version=head.version,
        action=state.legal_actions()[0],
        user=game.seats.get(index=seat).user,
    )


def game_reads(queries) -> list[str]:
    return [
        q["sql"]
        for q in queries
        if q["sql"].lstrip().upper().startswith("SELECT")
        and any(
            t in q["sql"] for t in ("games_game", "games_seat", "games_snapshot", "games_event")
        )
    ]


def test_a_committed_move_is_served_to_another_process_without_reading_the_game(
    game, alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        appended = move(game, alice, 1)
    another_process()
    hit = store.state_cache.get(store.where(game), game.pk, appended.version)
    assert hit is not None
    head, state = hit
    assert head == store.load_head(game.pk)
    replayed = store.replay(game, game.events.order_by("seq"))
    assert state.view(None) == replayed.view(None)
    assert state.to_json() == replayed.to_json()  # the dice to come too, not only the view

    # A move through the API, in a process that never saw the game: no read of it at all.
    seat = state.current_player
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for([alice, bob][seat])}")
    another_process()
    body = {"seat": seat, "expected_version": appended.version, "action": state.legal_actions()[0]}
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/games/{game.pk}/actions/", body, format="json")
    assert response.status_code == 201, response.content
    assert game_reads(queries.captured_queries) == []


def test_a_rolled_back_move_is_never_shared(game, alice):
    with pytest.raises(RuntimeError):
        with transaction.atomic():
            move(game, alice, 1)
            raise RuntimeError("the request failed after the append")
    another_process()
    assert store.state_cache.get(store.where(game), game.pk, 2) is None


def test_an_entry_made_under_other_rules_is_ignored(
    game, alice, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        appended = move(game, alice, 1)
    another_process()
    rules = get_rules(game.slug)
    newer = mock.patch.object(rules, "spec", mock.Mock(wraps=rules.spec, version=99))
    with newer:
        assert store.state_cache.get(store.where(game), game.pk, appended.version) is None


def test_a_head_of_another_shape_is_not_read(game, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        appended = move(game, alice, 1)
    another_process()
    older = head_sharing.shape_of(("db", "id", "version"))
    assert head_sharing.shared(older, store.where(game), game.pk, appended.version) is None
    assert head_sharing.shared(heads.HEAD_SHAPE, store.where(game), game.pk, appended.version)


def test_a_cache_that_fails_costs_a_read_not_the_move(
    game, alice, django_capture_on_commit_callbacks, caplog
):
    broken = mock.Mock(**{"get.side_effect": OSError("down"), "set.side_effect": OSError("down")})
    with mock.patch.object(head_sharing, "caches", {"default": broken}):
        with django_capture_on_commit_callbacks(execute=True):
            appended = move(game, alice, 1)
        another_process()
        with django_capture_on_commit_callbacks(execute=True):
            again = next_move(game)
    assert again.version > appended.version
    assert "could not share" in caplog.text and "could not read" in caplog.text


def test_forgetting_reads_nothing_shared_before(game, alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        appended = move(game, alice, 1)
    store.state_cache.clear()
    assert store.state_cache.get(store.where(game), game.pk, appended.version) is None


@pytest.mark.redis_cache
def test_heads_are_shared_through_redis(game, alice, settings, django_capture_on_commit_callbacks):
    assert "Redis" in settings.CACHES["default"]["BACKEND"]
    with django_capture_on_commit_callbacks(execute=True):
        appended = move(game, alice, 1)
    another_process()
    head, _ = store.state_cache.get(store.where(game), game.pk, appended.version)
    assert head == store.load_head(game.pk)
