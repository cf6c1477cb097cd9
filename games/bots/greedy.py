"""The greedy bot: one move of look-ahead on an evaluation.

For each legal action it plays the action on a copy and values what follows from its own
seat's side; where chance moves next it takes the expectation over the chance outcomes (all of
them when there are few, a sample drawn by probability when there are many). The best value
wins, ties broken by the injected random generator.

A move the rules split into steps (Deep Vents: take a hex, then place it) is looked at whole:
where the same seat decides again straight after, with no chance or other seat between, the
value is that of its best next step, for up to ``steps`` steps in all.

The value is the game's evaluator (:mod:`games.bots.evaluation`). Without one, the default
knows only finished games: a win is worth 1, last place -1, places between linear (ties
shared); every unfinished position is worth 0. So on such a game greedy takes a move that wins
at once, avoids one that loses at once, and otherwise chooses at random (the random tie-break
among equal values stands in for a tiny random term).

Hidden information: the look-ahead runs on ``state.resample_hidden(seat, rng)``, a copy in
which whatever the seat cannot see is redrawn, never on the true state's secrets.
"""

from __future__ import annotations

import random

from games.bots.evaluation import evaluate
from games.bots.rewards import choices, sample_outcome
from games.rules.base import Action, State

_TIE = 1e-9  # values closer than this are equal: float noise must not decide between moves


class GreedyBot:
    name = "greedy"

    def __init__(self, steps: int = 2, chance_outcomes: int = 12, chance_samples: int = 8):
        # Up to ``chance_outcomes`` outcomes are enumerated; more are sampled
        # ``chance_samples`` times.
        self.steps = steps
        self.chance_outcomes = chance_outcomes
        self.chance_samples = chance_samples

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = choices(state, seat)
        if len(actions) == 1:
            return actions[0]
        world = state.resample_hidden(seat, rng)
        best, _ = self._best(world, actions, seat, self.steps, rng)
        return rng.choice(best)

    def values(
        self, world: State, actions: list[Action], seat: int, rng: random.Random
    ) -> list[float]:
        """What greedy thinks of each action in ``world`` (a determinisation already): the
        value it maximises, looked at whole over ``steps`` steps and over the chance after.
        MCTS takes these as its root's prior."""
        values = []
        for action in actions:
            after = world.clone()
            after.apply(action)
            values.append(self._value_after(after, seat, self.steps - 1, rng))
        return values

    def _best(
        self, world: State, actions: list[Action], seat: int, steps: int, rng: random.Random
    ) -> tuple[list[Action], float]:
        """The actions of best value (within _TIE of each other) and that value."""
        best: list[Action] = []
        best_value = float("-inf")
        for action in actions:
            after = world.clone()
            after.apply(action)
            value = self._value_after(after, seat, steps - 1, rng)
            if value > best_value + _TIE:
                best, best_value = [action], value
            elif value >= best_value - _TIE:
                best.append(action)
        return best, best_value

    def _value_after(self, state: State, seat: int, steps: int, rng: random.Random) -> float:
        if steps > 0 and state.current_player == seat:
            return self._best(state, state.legal_actions(), seat, steps, rng)[1]
        if not state.is_chance_node():
            return evaluate(state, seat)
        outcomes = state.chance_outcomes()
        if len(outcomes) <= self.chance_outcomes:
            weighted = outcomes
        else:
            share = 1 / self.chance_samples
            weighted = [(sample_outcome(outcomes, rng), share) for _ in range(self.chance_samples)]
        total = 0.0
        for outcome, probability in weighted:
            after = state.clone()
            after.apply(outcome)
            total += probability * evaluate(after, seat)
        return total
