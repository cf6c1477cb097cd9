"""Shared helpers for the bot tests: seeded playthroughs and a DSA state with hidden values."""

from __future__ import annotations

import random

from games.bots.rewards import sample_outcome
from games.rules import deep_sea_adventure as dsa


def play_to_decision(state, rng: random.Random, *, until):
    """Random legal play (chance by probability) until ``until(state)`` holds at a decision;
    the state then, or None if the game ended first."""
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), rng))
            continue
        if until(state):
            return state
        state.apply(rng.choice(state.legal_actions()))
    return None


def dsa_with_secrets(seed: int = 5, seat: int = 0) -> dsa.State:
    """A 2-player DSA in round 2 or 3 where the other seat has scored chips ``seat`` cannot
    see, and ``seat`` has a real choice to make."""
    rng = random.Random(seed)
    for _ in range(200):
        found = play_to_decision(
            dsa.new_game(2),
            rng,
            until=lambda s: (
                s._round >= 2
                and s.current_player == seat
                and len(s.legal_actions()) > 1
                and any(s._scored[other] for other in range(2) if other != seat)
            ),
        )
        if found is not None:
            return found
    raise AssertionError("no such position found")


def poisoned(state: dsa.State, seat: int, rng: random.Random) -> dsa.State:
    """A copy whose values hidden from ``seat`` (other seats' scored chips and the unrevealed
    pools) are dealt again at random, with the same chips per level, until another seat's
    scored values really differ from the true ones."""
    for _ in range(100):
        copy = state.clone()
        for level in (1, 2, 3, 4):
            unknown = list(state._unrevealed[level])
            for s in range(state.num_players):
                if s != seat:
                    unknown += [v for lv, v in state._scored[s] if lv == level]
            rng.shuffle(unknown)
            dealt = iter(unknown)
            for s in range(state.num_players):
                if s != seat:
                    copy._scored[s] = [
                        (lv, next(dealt) if lv == level else v) for lv, v in copy._scored[s]
                    ]
            copy._unrevealed[level] = sorted(dealt)
        if copy._scored != state._scored:
            return copy
    raise AssertionError("no other dealing of the hidden values found")


def diver_to_act(*, position, held, air, trail=None, phase="decide"):
    """Seat 0 of a 2-player DSA at ``position`` holding ``held``; seat 1 still in the submarine."""
    state = dsa.new_game(2)
    if trail is not None:
        state._trail = list(trail)
    state._positions[0] = position
    state._held[0] = list(held)
    state._air = air
    state._current = 0
    state._phase = phase
    return state
