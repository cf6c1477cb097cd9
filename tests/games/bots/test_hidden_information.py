"""The bots never read what their seat cannot see: poisoning the hidden cards changes nothing.

In Abyss the other seat's hand, the deck, the discard and the Council's values are hidden from
the bot's seat. A copy with those cards dealt differently looks the same from the seat; with
the same generator seed a bot must choose the same action on both.
"""

from __future__ import annotations

import json
import random

import pytest

from games.bots import GreedyBot, MCTSBot
from tests.games.bots.helpers import abyss_with_secrets, poisoned


@pytest.mark.parametrize("seed", [5, 11, 23])
def test_the_poisoned_copy_differs_only_in_what_the_seat_cannot_see(seed):
    state = abyss_with_secrets(seed)
    other = poisoned(state, 0, random.Random(seed))
    assert json.dumps(other.view(0)) == json.dumps(state.view(0))
    assert other._hands[1] != state._hands[1]
    assert json.dumps(other.view(1)) != json.dumps(state.view(1))


@pytest.mark.parametrize("seed", [5, 11, 23])
@pytest.mark.parametrize(
    "bot",
    [GreedyBot(), MCTSBot(iterations=150), MCTSBot(iterations=100, rollout_depth=None)],
    ids=["greedy", "mcts", "mcts-full-rollouts"],
)
def test_a_bot_chooses_the_same_with_the_hidden_values_poisoned(bot, seed):
    state = abyss_with_secrets(seed)
    other = poisoned(state, 0, random.Random(seed))
    for rng_seed in range(3):
        assert bot.choose(state, 0, random.Random(rng_seed)) == bot.choose(
            other, 0, random.Random(rng_seed)
        )


class _Peeker(MCTSBot):
    """A cheat: searches the true state instead of a determinisation. The test must catch it.

    Its rollouts go to the end, where the true scores decide who won."""

    def choose(self, state, seat, rng):
        real = state.resample_hidden
        state.resample_hidden = lambda s, r: state.clone()
        try:
            return super().choose(state, seat, rng)
        finally:
            state.resample_hidden = real


def test_the_poison_test_catches_a_bot_that_peeks():
    bot = _Peeker(iterations=100, rollout_depth=None)
    differs = 0
    for seed in (5, 11, 23):
        state = abyss_with_secrets(seed)
        for poison in range(3):
            other = poisoned(state, 0, random.Random(poison))
            differs += bot.choose(state, 0, random.Random(poison)) != bot.choose(
                other, 0, random.Random(poison)
            )
    assert differs > 0
