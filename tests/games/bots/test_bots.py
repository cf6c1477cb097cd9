"""Every bot level on every registered game: legal choices, determinism, the registry."""

from __future__ import annotations

import random
import time

import pytest

from games.bots import BOTS, GreedyBot, MCTSBot, RandomBot, get_bot
from games.bots.rewards import rank_rewards, sample_outcome
from games.rules import registered

SLUGS = sorted(registered())
SMALL = {"random": {}, "greedy": {}, "mcts": {"iterations": 25}}


def make(level: str):
    return get_bot(level, **SMALL[level])


def playthrough(
    slug: str, level: str, seed: int, players: int = 2, decisions: int | None = None
) -> list[dict]:
    """A game where every seat is a bot of ``level``; each choice is checked to be legal."""
    rules = registered()[slug]
    state = rules.new_game(players)
    chance = random.Random(f"chance:{seed}")
    rngs = [random.Random(f"seat:{seed}:{s}") for s in range(players)]
    bot = make(level)
    chosen = []
    while not state.is_terminal() and (decisions is None or len(chosen) < decisions):
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), chance))
            continue
        seat = state.current_player
        legal = state.legal_actions()
        action = bot.choose(state, seat, rngs[seat])
        assert action in legal, (slug, level, action)
        state.apply(action)
        chosen.append(action)
    return chosen


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", sorted(BOTS))
def test_a_bot_only_chooses_legal_actions_through_a_whole_game(slug, level):
    for seed in (1, 2):
        playthrough(slug, level, seed)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", ["greedy", "mcts"])
def test_a_bot_plays_legally_with_more_than_two_seats(slug, level):
    playthrough(slug, level, 3, players=3, decisions=60)


@pytest.mark.parametrize("slug", SLUGS)
@pytest.mark.parametrize("level", sorted(BOTS))
def test_a_fixed_seed_gives_the_same_choices(slug, level):
    first = playthrough(slug, level, 7, decisions=40)
    assert playthrough(slug, level, 7, decisions=40) == first
    assert len(first) >= 20


def test_a_bot_refuses_to_move_for_a_seat_not_to_act():
    state = registered()["deep-sea-adventure"].new_game(2)
    for bot in (RandomBot(), GreedyBot(), MCTSBot(iterations=5)):
        with pytest.raises(ValueError):
            bot.choose(state, 1, random.Random(0))


def test_mcts_returns_a_forced_move_at_once():
    state = registered()["deep-sea-adventure"].new_game(2)  # in the submarine: only continue
    assert MCTSBot(iterations=10**9).choose(state, 0, random.Random(0)) == {"type": "continue"}


def test_get_bot_takes_a_budget_for_mcts_only():
    assert isinstance(get_bot("random"), RandomBot)
    assert get_bot("mcts", seconds=0.5).seconds == 0.5
    assert get_bot("mcts", iterations=300).iterations == 300
    assert get_bot("mcts").iterations > 0
    with pytest.raises(ValueError):
        get_bot("greedy", seconds=1)
    with pytest.raises(KeyError):
        get_bot("oracle")


def test_a_seconds_budget_stops_the_search_in_time():
    state = registered()["deep-vents"].new_game(2)
    chance = random.Random(0)
    while state.is_chance_node():
        state.apply(sample_outcome(state.chance_outcomes(), chance))
    started = time.perf_counter()
    MCTSBot(seconds=0.2).choose(state, state.current_player, random.Random(0))
    assert time.perf_counter() - started < 1.0


class _Finished:
    def __init__(self, ranks):
        self.ranks = ranks

    def result(self):
        return [{"score": 0, "rank": r} for r in self.ranks]


@pytest.mark.parametrize(
    "ranks, rewards",
    [
        ([1, 2], [1.0, 0.0]),
        ([1, 1], [0.5, 0.5]),
        ([2, 1, 3], [0.5, 1.0, 0.0]),
        ([1, 1, 3], [0.75, 0.75, 0.0]),
        ([1, 2, 2, 2], [1.0, 1 / 3, 1 / 3, 1 / 3]),
    ],
)
def test_rewards_run_from_1_for_first_to_0_for_last_with_ties_shared(ranks, rewards):
    assert rank_rewards(_Finished(ranks)) == pytest.approx(rewards)
