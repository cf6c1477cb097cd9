"""MCTS beats the random bot in a clear majority of short seeded matches."""

from __future__ import annotations

import pytest

from games.bots.arena import parse_entrant, run_match
from games.rules import get_rules


@pytest.mark.slow
@pytest.mark.parametrize(
    "slug, budget, games",
    [
        ("deep-sea-adventure", 60, 12),
        ("deep-vents", 40, 6),
    ],
)
def test_mcts_beats_random_in_a_clear_majority(slug, budget, games):
    mcts, random_bot = parse_entrant(f"mcts:{budget}"), parse_entrant("random")
    match = run_match(get_rules(slug), [mcts, random_bot], games=games, seed=2024, players=2)
    assert match.tallies[mcts.name].wins >= 0.75 * games
    assert match.tallies[mcts.name].score > match.tallies["random"].score
