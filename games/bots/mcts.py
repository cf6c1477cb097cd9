"""The MCTS bot: information-set Monte Carlo tree search with determinisation.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012): one tree for the bot's own
seat, whose nodes are what that seat has seen happen. Each iteration

1. determinises: ``state.resample_hidden(seat, rng)`` redraws whatever the seat cannot see,
   consistently with its view, so the search never reads the true state's secrets;
2. selects down the tree in that world: at a decision the acting seat picks the child with the
   best UCB on *its own* mean reward (each node keeps a reward per seat, so it works for any
   number of players), counting a child's chances by how often it was available; at a chance
   node an outcome is drawn by its probability; an outcome private to other seats (its
   ``public_form`` differs) leads to the child for its public form, since the bot could not
   tell those apart;
3. expands one untried action, then rolls out: random decisions and chance drawn by its
   probabilities, to the end or for ``rollout_depth`` decisions at most and on to the next
   decision, where the game's evaluator (:mod:`games.bots.evaluation`, for each seat through
   a logistic) stands in for the result. The default depth is 0: where the game has an
   evaluation, the leaf is valued once the chance right after it is drawn. Random play
   misjudges these games (a random diver turns back at random), and in Deep Sea Adventure
   against the greedy bot rollouts of 4 or 20 random actions did worse than none at the same
   number of iterations. A game without an evaluation is always played out to the end;
4. backs the reward vector up the path.

Rewards from a finished game are by rank: 1 for first, 0 for last, linear between, ties
shared. The budget is a number of iterations or of seconds, whichever runs out first; the
move is the root action visited most. All randomness comes from the injected generator.
"""

from __future__ import annotations

import math
import random
import time

from games.bots.evaluation import evaluator_for
from games.bots.rewards import action_key, choices, rank_rewards, sample_outcome
from games.rules.base import Action, State

DEFAULT_ITERATIONS = 1000


class _Node:
    __slots__ = ("children", "visits", "available", "totals")

    def __init__(self, num_players: int):
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.available = 0  # iterations in which this node's move could have been chosen
        self.totals = [0.0] * num_players


class MCTSBot:
    name = "mcts"
    takes_budget = True

    def __init__(
        self,
        iterations: int | None = None,
        seconds: float | None = None,
        exploration: float = 0.7,
        rollout_depth: int | None = 0,
        evaluation_scale: float = 8.0,
    ):
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if iterations is not None and iterations < 1:
            raise ValueError("iterations must be at least 1")
        if seconds is not None and seconds <= 0:
            raise ValueError("seconds must be positive")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.rollout_depth = rollout_depth
        self.evaluation_scale = evaluation_scale

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = choices(state, seat)
        if len(actions) == 1:
            return actions[0]
        root = _Node(state.num_players)
        deadline = time.perf_counter() + self.seconds if self.seconds is not None else None
        done = 0
        while True:
            self._iterate(root, state.resample_hidden(seat, rng), seat, rng)
            done += 1
            if self.iterations is not None and done >= self.iterations:
                break
            if deadline is not None and time.perf_counter() >= deadline:
                break

        def merit(action: Action) -> tuple[int, float]:
            child = root.children.get(action_key(action))
            if child is None:
                return (0, 0.0)
            return (child.visits, child.totals[seat] / child.visits)

        best = max(merit(a) for a in actions)
        return rng.choice([a for a in actions if merit(a) == best])

    # -- one iteration ------------------------------------------------------------------------

    def _iterate(self, root: _Node, world: State, seat: int, rng: random.Random) -> None:
        node = root
        path = [root]
        n = world.num_players
        expanded = False
        while not expanded and not world.is_terminal():
            if world.is_chance_node():
                outcome = sample_outcome(world.chance_outcomes(), rng)
                seen_by = world.private_to(outcome)
                key = action_key(
                    outcome if seen_by is None or seat in seen_by else world.public_form(outcome)
                )
                world.apply(outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(n)
            else:
                player = world.current_player
                legal = world.legal_actions()
                keys = [action_key(a) for a in legal]
                untried = []
                for i, key in enumerate(keys):
                    known = node.children.get(key)
                    if known is None:
                        untried.append(i)
                    else:
                        known.available += 1
                if untried:
                    i = rng.choice(untried)
                    child = node.children[keys[i]] = _Node(n)
                    child.available = 1
                    expanded = True
                else:
                    i = self._select(node, keys, player, rng)
                    child = node.children[keys[i]]
                world.apply(legal[i])
            node = child
            path.append(node)
        rewards = self._rollout(world, rng)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(n):
                totals[s] += rewards[s]

    def _select(self, node: _Node, keys: list[tuple], player: int, rng: random.Random) -> int:
        c = self.exploration
        best: list[int] = []
        best_score = float("-inf")
        for i, key in enumerate(keys):
            child = node.children[key]
            score = child.totals[player] / child.visits + c * math.sqrt(
                math.log(child.available) / child.visits
            )
            if score > best_score:
                best, best_score = [i], score
            elif score == best_score:
                best.append(i)
        return best[0] if len(best) == 1 else rng.choice(best)

    def _rollout(self, world: State, rng: random.Random) -> list[float]:
        judge = evaluator_for(world)
        limit = self.rollout_depth if judge is not None else None
        decisions = 0
        while not world.is_terminal():
            # Chance is always played out first: a dice roll about to happen is not judged
            # as if it had not (a diver who just turned back has not moved yet).
            if world.is_chance_node():
                world.apply(sample_outcome(world.chance_outcomes(), rng))
                continue
            if judge is not None and limit is not None and decisions >= limit:
                scale = self.evaluation_scale
                return [_logistic(judge(world, s) / scale) for s in range(world.num_players)]
            world.apply(rng.choice(world.legal_actions()))
            decisions += 1
        return rank_rewards(world)


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))
