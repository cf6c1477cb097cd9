"""Shared helpers for the bot tests: seeded playthroughs and an Abyss state with hidden cards."""

from __future__ import annotations

import random

from games.bots.rewards import sample_outcome
from games.rules import abyss
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


def abyss_with_secrets(seed: int = 5, seat: int = 0) -> abyss.State:
    """A 2-player Abyss a few turns in where the other seat holds Allies ``seat`` cannot see,
    and ``seat`` has a real choice to make."""
    rng = random.Random(seed)
    for _ in range(200):
        found = play_to_decision(
            abyss.new_game(2),
            rng,
            until=lambda s: (
                s.current_player == seat
                and len(s.legal_actions()) > 1
                and sum(s._hands[1 - seat]) >= 2
                and rng.random() < 0.3
            ),
        )
        if found is not None:
            return found
    raise AssertionError("no such position found")


def poisoned(state: abyss.State, seat: int, rng: random.Random) -> abyss.State:
    """A copy whose cards hidden from ``seat`` (the other hands, the deck, the discard, the
    Council's values) are dealt again, until the other seat's hand really differs."""
    for _ in range(100):
        copy = state.resample_hidden(seat, rng)
        if copy._hands != state._hands:
            return copy
    raise AssertionError("no other dealing of the hidden cards found")


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
