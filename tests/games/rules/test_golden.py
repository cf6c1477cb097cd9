"""Refactors of the rule modules and bots change nothing a player or a bot can observe.

Seeded games are played to the end (random choices, and some by the greedy and MCTS bots,
whose choices depend on the evaluators) and every state along the way is digested: its
current player, every seat's and the spectator's view, its legal actions, chance
probabilities and, at the end, the result. The digests were pinned in ``golden.json`` before
the rule modules were reorganised (Abyss into a package, the shared hex grid, Deep Vents' named
hex fields, the evaluators out of the States); a refactor must leave them byte for byte as
they were. A deliberate change of behaviour regenerates them:

    python -m tests.games.rules.test_golden
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.bots import get_bot
from games.bots.rewards import sample_outcome
from games.rules import get_rules
from games.rules.base import State

PINNED = Path(__file__).with_name("golden.json")
MAX_ACTIONS = 20_000

# (game, who decides, how many seeds): random play for breadth, bots where they are cheap.
PLANS = [
    ("abyss", "random", 30),
    ("abyss", "greedy", 3),
    ("abyss", "mcts", 1),
    ("deep-vents", "random", 10),
    ("deep-vents", "greedy", 2),
    ("deep-vents", "mcts", 1),
    ("ventlife", "random", 10),
    ("ventlife", "mcts", 1),
    ("deep-sea-adventure", "random", 10),
    ("deep-sea-adventure", "greedy", 2),
    ("deep-sea-adventure", "mcts", 1),
]
CASES = [f"{slug}/{player}/{seed}" for slug, player, count in PLANS for seed in range(count)]


def _record(state: State) -> str:
    seats: list[int | None] = [None, *range(state.num_players)]
    record: dict[str, Any] = {
        "player": state.current_player,
        "views": [state.view(seat) for seat in seats],
        "legal": state.legal_actions(),
    }
    if state.is_chance_node():
        record["chance"] = [p for _, p in state.chance_outcomes()]
    if state.is_terminal():
        record["result"] = state.result()
    return json.dumps(record, sort_keys=True)


def play_digest(case: str) -> str:
    """The digest of one seeded game: every state's record, chained in order."""
    slug, player, seed = case.split("/")
    rng = random.Random(f"golden/{case}")
    rules = get_rules(slug)
    num_players = rng.randint(rules.spec.min_players, rules.spec.max_players)
    state = rules.new_game(num_players)
    bot = None if player == "random" else get_bot(player, **_budget(player))
    digest = hashlib.sha256(f"{slug} {num_players} {seed}".encode())
    for _ in range(MAX_ACTIONS):
        digest.update(_record(state).encode())
        if state.is_terminal():
            return digest.hexdigest()
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
        elif bot is None:
            action = rng.choice(state.legal_actions())
        else:
            action = bot.choose(state, state.current_player, rng)
        state.apply(action)
    raise AssertionError(f"{case} did not end in {MAX_ACTIONS} actions")


def _budget(player: str) -> dict[str, Any]:
    return {"iterations": 20} if player == "mcts" else {}


@pytest.mark.parametrize("case", CASES)
def test_every_state_is_as_it_was_before_the_refactor(case):
    pinned = json.loads(PINNED.read_text())
    assert play_digest(case) == pinned[case]


def test_every_case_is_pinned():
    assert sorted(json.loads(PINNED.read_text())) == sorted(CASES)


if __name__ == "__main__":
    PINNED.write_text(json.dumps({case: play_digest(case) for case in CASES}, indent=1) + "\n")
