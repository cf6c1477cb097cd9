"""``games.bots.mcts.search``: the root statistics the bot and the post-game analysis share."""

from __future__ import annotations

import json
import random

import pytest

from games.bots.mcts import Budget, MCTSBot, RootStat, Settings, search
from games.bots.rewards import sample_outcome
from games.rules import get_rules
from tests.games.bots.helpers import abyss_with_secrets, poisoned


def decision(slug: str, seed: int, skip: int = 0):
    """A seeded 2-player position where the seat to act has a real choice."""
    rng = random.Random(seed)
    state = get_rules(slug).new_game(2)
    while True:
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        if len(legal) > 1:
            if skip == 0:
                return state
            skip -= 1
        state.apply(rng.choice(legal))


@pytest.mark.parametrize("slug", ["deep-sea-adventure", "deep-vents", "abyss", "ventlife"])
def test_search_gives_one_row_per_legal_action_with_the_visits_adding_up(slug):
    state = decision(slug, 3, skip=4)
    before = json.dumps(state.to_json(), sort_keys=True)
    stats = search(state, state.current_player, random.Random(0), 60)
    assert [s.action for s in stats] == state.legal_actions()
    assert all(isinstance(s, RootStat) and 0.0 <= s.value <= 1.0 for s in stats)
    # Every iteration goes through exactly one root action.
    assert sum(s.visits for s in stats) == 60
    assert json.dumps(state.to_json(), sort_keys=True) == before  # the state is untouched


def test_search_is_deterministic_for_a_seed_and_takes_a_budget_object():
    state = decision("deep-vents", 5, skip=2)
    seat = state.current_player
    first = search(state, seat, random.Random(4), Budget(iterations=40))
    assert search(state, seat, random.Random(4), 40) == first


def test_the_bot_plays_the_most_visited_root_action():
    state = decision("deep-vents", 8, skip=3)
    seat = state.current_player
    stats = search(state, seat, random.Random(1), 80)
    top = max(s.visits for s in stats)
    assert MCTSBot(iterations=80).choose(state, seat, random.Random(1)) in [
        s.action for s in stats if s.visits == top
    ]


def test_the_search_reads_no_hidden_information():
    state = abyss_with_secrets(11)
    other = poisoned(state, 0, random.Random(11))
    assert search(state, 0, random.Random(2), 80) == search(other, 0, random.Random(2), 80)


@pytest.mark.parametrize(
    "budget",
    [{"iterations": 0}, {"seconds": 0}, {}],
)
def test_a_budget_must_give_something_to_spend(budget):
    with pytest.raises(ValueError):
        Budget(**budget)


def test_settings_reach_the_search():
    state = decision("deep-sea-adventure", 2, skip=3)
    seat = state.current_player
    wide = search(state, seat, random.Random(0), 80, Settings(exploration=50.0))
    narrow = search(state, seat, random.Random(0), 80, Settings(exploration=0.0))
    # With huge exploration the visits spread out; with none they pile on one action.
    assert max(s.visits for s in narrow) >= max(s.visits for s in wide)
    assert min(s.visits for s in wide) > 0
