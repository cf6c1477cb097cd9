"""``games.bots.mcts.search``: the root statistics the bot and the post-game analysis share."""

from __future__ import annotations

import json
import random

import pytest

from games.bots.mcts import Budget, MCTSBot, RootStat, Settings, search
from games.bots.rewards import action_key, sample_outcome
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


def ventlife_tile_step(seed: int, turns: int = 3):
    """A seeded 2-player Ventlife position at a tile step with many placements."""
    rng = random.Random(seed)
    state = get_rules("ventlife").new_game(2)
    while True:
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        legal = state.legal_actions()
        if legal[0]["type"] == "place_tile":
            if turns == 0:
                return state
            turns -= 1
        state.apply(rng.choice(legal))


SPLIT = Settings(split=("place_tile", ("q", "r")), rollout_depth=2)


def test_a_split_tile_is_searched_position_first_and_only_legal_placements_come_out():
    state = ventlife_tile_step(4)
    seat = state.current_player
    legal = state.legal_actions()
    positions = {(a["q"], a["r"]) for a in legal}
    assert len(positions) < len(legal)  # some positions take several rotations
    stats = search(state, seat, random.Random(1), 120, SPLIT)
    assert [s.action for s in stats] == legal
    assert sum(s.visits for s in stats) == 120
    # The chosen action is a legal one, whole (position and rotation).
    choice = MCTSBot(iterations=60, split=SPLIT.split).choose(state, seat, random.Random(2))
    assert choice in legal


def test_a_split_search_keys_its_root_by_position_then_by_the_whole_action():
    from games.bots.mcts import _Search

    state = ventlife_tile_step(5)
    seat = state.current_player
    searcher = _Search(SPLIT, seat, state.num_players, random.Random(3))
    for _ in range(40):
        searcher.iterate(state.resample_hidden(seat, random.Random(7)))
    legal = state.legal_actions()
    positions = {("split", a["q"], a["r"]) for a in legal}
    assert set(searcher.root.children) == positions
    for key, group in searcher.root.children.items():
        inside = [a for a in legal if ("split", a["q"], a["r"]) == key]
        assert {k for k in group.children} == {action_key(a) for a in inside}
        # A position's visits are those of its rotations.
        assert group.visits == sum(c.visits for c in group.children.values())
    assert searcher.root.visits == 40


@pytest.mark.parametrize("slug", ["deep-sea-adventure", "abyss", "ventlife"])
def test_the_cheap_root_judges_every_legal_action(slug):
    state = ventlife_tile_step(6) if slug == "ventlife" else decision(slug, 3, skip=4)
    seat = state.current_player
    cheap = Settings(root="cheap", root_top=2)
    stats = search(state, seat, random.Random(0), 1, cheap)
    assert [s.action for s in stats] == state.legal_actions()
    # One iteration visits one action; every other has its judged prior as its value, none
    # left at the 0.5 of an action the search never listed.
    assert sum(s.visits for s in stats) == 1
    from games.bots.mcts import _Search

    searcher = _Search(cheap, seat, state.num_players, random.Random(0))
    searcher.iterate(state.resample_hidden(seat, random.Random(0)))
    assert all(searcher.root_child(a) is not None for a in state.legal_actions())


def test_the_cheap_root_looks_whole_at_fewer_moves_than_greedy_does():
    from games.bots import mcts

    state = ventlife_tile_step(6)
    seat = state.current_player
    looked: list[int] = []
    real = mcts.GreedyBot.values

    def counting(self, world, actions, player, rng):
        looked.append(len(actions))
        return real(self, world, actions, player, rng)

    mcts.GreedyBot.values = counting  # type: ignore[method-assign]
    try:
        search(state, seat, random.Random(0), 5, Settings(root="cheap", root_top=3))
        cheap = sum(looked)
        looked.clear()
        search(state, seat, random.Random(0), 5, Settings())
        full = sum(looked)
    finally:
        mcts.GreedyBot.values = real  # type: ignore[method-assign]
    assert cheap == 6  # the 3 best one step ahead and 3 drawn at random
    assert full == len(state.legal_actions())


def test_an_unknown_root_judging_is_refused():
    with pytest.raises(ValueError):
        Settings(root="oracle")


def test_a_turn_rollout_stops_when_the_searching_seat_is_to_decide_again():
    from games.bots.mcts import _Search

    state = ventlife_tile_step(7)
    seat = state.current_player
    searcher = _Search(Settings(rollout_depth=1000, rollout_turn=True), seat, 2, random.Random(5))
    searcher.iterate(state.resample_hidden(seat, random.Random(5)))  # judges the evaluator
    world = state.resample_hidden(seat, random.Random(6))
    deciders: list[int] = []
    step = searcher._greedy_step

    def recording(world_, legal, judge):
        deciders.append(world_.current_player)
        return step(world_, legal, judge)

    searcher._greedy_step = recording  # type: ignore[method-assign]
    searcher._rollout(world)
    assert deciders[0] == seat and seat != deciders[-1]
    # The searching seat's turn, then the other's, and no further.
    changes = sum(1 for a, b in zip(deciders, deciders[1:]) if a != b)
    assert changes == 1
    assert world.current_player == seat and not world.is_terminal()
