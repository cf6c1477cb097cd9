"""CONTRIBUTING.md's walkthrough, done: a tiny game (tests/games/pearl_race.py) is registered,
passes every check of the shared conformance suite, and is played through the service and the
API like any other game. (Its page, drawn by the generic renderer, is checked in Chromium in
tests/games/test_browser_generic.py.)"""

from __future__ import annotations

import inspect
import random

import pytest

from games.bots import get_bot
from games.bots.evaluation import evaluator_for
from games.catalog import game_types
from games.rules import get_rules
from games.rules.base import _REGISTRY, register
from tests.games import pearl_race
from tests.games.rules import test_conformance

CHECKS = [
    check
    for name, check in vars(test_conformance).items()
    if name.startswith("test_") and "rules" in inspect.signature(check).parameters
]


@pytest.fixture
def pearl_race_registered():
    register(pearl_race.module)
    yield pearl_race.module
    _REGISTRY.pop(pearl_race.spec.slug, None)
    test_conformance.playthroughs.cache_clear()


def test_the_suite_has_checks_to_run():
    assert len(CHECKS) >= 8


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
def test_a_new_game_passes_the_conformance_suite(pearl_race_registered, check):
    check(pearl_race_registered)


@pytest.mark.parametrize("level", ["greedy", "mcts"])
def test_the_bots_play_a_new_game_without_an_evaluator_and_take_a_win_in_reach(
    pearl_race_registered, level
):
    state = pearl_race_registered.new_game(2)
    assert evaluator_for(state) is None
    state.apply({"type": "fill", "pearls": 6})
    state.apply({"type": "take", "pearls": 2})
    state.apply({"type": "take", "pearls": 2})  # two left: seat 0 takes both and wins
    bot = get_bot(level)
    for seed in range(5):
        assert bot.choose(state, 0, random.Random(seed)) == {"type": "take", "pearls": 2}


@pytest.mark.django_db
def test_a_new_game_is_played_through_the_service_and_listed(
    pearl_race_registered, alice, bob, api, api_for
):
    assert get_rules("pearl-race").module is pearl_race_registered
    assert game_types()["pearl-race"].name == "Pearl Race"
    assert "pearl-race" in [t["slug"] for t in api.get("/api/games/types/").json()]
    game = api.post(
        "/api/games/",
        {"game": "pearl-race", "seats": [{"user": "alice"}, {"user": "bob"}]},
        format="json",
    ).json()
    clients = {0: api, 1: api_for(bob)}
    while game["status"] == "active":
        seat = game["current_player"]
        actions = clients[seat].get(f"/api/games/{game['id']}/actions/?seat={seat}").json()
        moved = clients[seat].post(
            f"/api/games/{game['id']}/actions/",
            {"seat": seat, "expected_version": game["version"], "action": actions[0]},
            format="json",
        )
        assert moved.status_code == 201, moved.json()
        game = api.get(f"/api/games/{game['id']}/").json()
    assert game["status"] == "finished"
    assert sorted(r["rank"] for r in game["result"]) == [1, 2]
    kinds = [e["kind"] for e in api.get(f"/api/games/{game['id']}/events/").json()]
    assert kinds[:2] == ["GameCreated", "ChanceResolved"] and kinds[-1] == "GameFinished"
