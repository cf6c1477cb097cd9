"""The MCTS bot: information-set Monte Carlo tree search guided by the game's evaluation.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, 2012) with the AlphaZero-style PUCT
rule, its prior taken from the hand-written evaluation instead of a network. One tree for the
searching seat, whose nodes are sequences of what that seat has seen happen. Each iteration

1. determinises: ``state.resample_hidden(seat, rng)`` redraws whatever the seat cannot see,
   consistently with its view, so the search never reads the true state's secrets (Abyss
   hands, the deck, unrevealed chips);
2. selects down the tree in that world. At a decision the acting seat takes the child with
   the best ``Q + c * P * sqrt(N) / (1 + n)`` on *its own* mean reward (each node keeps a
   reward per seat, so it works for any number of players). ``P`` is a softmax of the
   evaluation one action ahead, and a child not yet visited counts that same value as its
   ``Q``. At the root the value is the greedy bot's own (:meth:`GreedyBot.values`: the
   evaluator after the move, a move of several steps looked at whole, chance after it
   averaged), so with no search at all the bot would play as greedy does and the search only
   has to improve on that; below the root it is the acting seat's evaluator after the
   action, the chance that follows drawn once. Only the children whose actions are legal in
   this world compete, so a node is the set of worlds the seat cannot tell apart. Where a
   node below the root has many actions (Ventlife's tile step: several hundred) only a sample
   of them is judged when it is first expanded, and the sample widens with the node's visits
   (progressive widening). Chance is open-loop by default: an outcome is drawn by its
   probability and the tree does not branch on it, so the statistics below a dice roll
   gather over every roll instead of splitting into one thin subtree per outcome
   (``chance_branching`` makes chance with few outcomes branch, keyed by what the seat sees
   of the outcome);
3. a node reached for the first time is a leaf (it is expanded on its next visit, so the
   one-ply judging is paid only where the search comes back): from there a short rollout
   plays ``rollout_depth`` decisions, each the best of a few sampled actions on the
   evaluation (a cheap greedy policy), chance drawn by its probabilities, and the evaluator
   (per seat, through a logistic) values where it stops. A game without an evaluator, or
   ``rollout_depth=None``, plays random rollouts to the end instead;
4. backs the reward vector up the path.

Three options serve games with large moves (Ventlife's tile step). ``root="cheap"`` judges
every root move one step ahead and only ``root_top`` of the best of those, and as many drawn
at random, as greedy judges a move: the root costs a fraction of greedy's look, and every
legal move still has a judged value. ``split`` makes a move of one type two steps in the tree
only (a tile's position, then its rotation): a position's node gathers the statistics of all
its rotations, its prior the sum of theirs. ``rollout_turn`` ends a rollout where the
searching seat is to decide again after another seat has, so a leaf is valued after the
others' replies.

The settings are per game (:data:`GAME_SETTINGS`), as measured against the greedy bot.
Rewards from a finished game are by rank: 1 for first, 0 for last, linear between, ties
shared. The budget is a number of iterations or of seconds, whichever runs out first; the
move is the root action visited most (ties: the better mean). All randomness comes from the
injected generator.

:func:`search` is the pure entry point the bot and the post-game analysis share: it returns
the root's statistics, one :class:`RootStat` per legal action.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any, NamedTuple

from games.bots.evaluation import evaluator_for
from games.bots.evaluation.registry import Evaluator
from games.bots.greedy import GreedyBot
from games.bots.rewards import action_key, choices, rank_rewards, sample_outcome
from games.rules import registered
from games.rules.base import Action, State

DEFAULT_ITERATIONS = 300


@dataclass(frozen=True)
class Budget:
    """How long a search runs: ``iterations``, ``seconds``, or both (whichever ends first)."""

    iterations: int | None = None
    seconds: float | None = None

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise ValueError("a budget needs iterations or seconds")
        if self.iterations is not None and self.iterations < 1:
            raise ValueError("iterations must be at least 1")
        if self.seconds is not None and self.seconds <= 0:
            raise ValueError("seconds must be positive")


@dataclass(frozen=True)
class Settings:
    """The search's knobs; the defaults are the ones measured best (README, *Bots*)."""

    exploration: float = 1.0  # c in PUCT
    temperature: float = 1.5  # the prior's softmax temperature, in evaluation points
    evaluation_scale: float = 8.0  # evaluation points to a reward: logistic(points / scale)
    rollout_depth: int | None = (
        2  # greedy rollout decisions before the evaluation; None: random to the end
    )
    rollout_width: int = 6  # actions a rollout decision compares
    widening: int = 24  # actions judged when a non-root node is expanded
    widening_growth: float = 4.0  # ... and more as it is visited: widening + growth * sqrt(visits)
    chance_branching: int = 0  # chance with at most this many outcomes branches the tree
    # The rollout also stops where the searching seat is to decide again after another seat
    # has (its next turn: every leaf is valued after the others' replies); rollout_depth caps it.
    rollout_turn: bool = False
    # How the root's moves are judged: "greedy" (every one as greedy judges a move) or "cheap"
    # (every one by the evaluation one step ahead, and greedy's whole look only for the
    # ``root_top`` best of those and ``root_top`` more drawn at random).
    root: str = "greedy"
    root_top: int = 8
    # A large action split into steps inside the search only: (action type, the fields of
    # its first step). ("place_tile", ("q", "r")): a tile's position, then its rotation.
    split: tuple[str, tuple[str, ...]] | None = None

    def __post_init__(self) -> None:
        if self.root not in ("greedy", "cheap"):
            raise ValueError(f"root judging is 'greedy' or 'cheap', not {self.root!r}")


# Per game, where its evaluation and turn structure want other settings than the defaults.
GAME_SETTINGS: dict[str, Settings] = {
    "deep-vents": Settings(rollout_depth=0),
    # Ventlife's tile step lists a few hundred placements: judged cheaply at the root, searched
    # position first, then rotation; a rollout plays to the searcher's next turn (the other
    # seats' replies included), at most 12 decisions.
    "ventlife": Settings(
        root="cheap",
        root_top=16,
        split=("place_tile", ("q", "r")),
        rollout_depth=12,
        rollout_width=6,
        rollout_turn=True,
    ),
}


class RootStat(NamedTuple):
    """One root action after a search: how often it was tried and its mean reward for the
    searching seat (0 = certain last place, 1 = certain first)."""

    action: Action
    visits: int
    value: float


class _Node:
    __slots__ = ("children", "visits", "totals", "weight", "first")

    def __init__(self, num_players: int, weight: float = 1.0, first: float = 0.5):
        self.children: dict[tuple, _Node] = {}
        self.visits = 0
        self.totals = [0.0] * num_players
        self.weight = weight  # unnormalised prior: exp(one-ply value / temperature)
        self.first = first  # the acting seat's one-ply reward, the Q of an unvisited child


def search(
    state: State,
    seat: int,
    rng: random.Random,
    budget: Budget | int,
    settings: Settings | None = None,
) -> list[RootStat]:
    """Search from ``seat``'s view of ``state`` and return every legal action's statistics.

    ``budget`` is a :class:`Budget` or a number of iterations. ``state`` is not changed and
    its hidden parts are never read: every iteration works on ``state.resample_hidden(seat,
    rng)``. The list follows ``state.legal_actions()``; an action never tried has 0 visits
    and its one-ply value.
    """
    if isinstance(budget, int):
        budget = Budget(iterations=budget)
    actions = choices(state, seat)
    search_ = _Search(settings or settings_for(state), seat, state.num_players, rng)
    deadline = time.perf_counter() + budget.seconds if budget.seconds is not None else None
    done = 0
    while True:
        search_.iterate(state.resample_hidden(seat, rng))
        done += 1
        if budget.iterations is not None and done >= budget.iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
    stats = []
    for action in actions:
        child = search_.root_child(action)
        if child is None:
            stats.append(RootStat(action, 0, 0.5))
        elif child.visits == 0:
            stats.append(RootStat(action, 0, child.first))
        else:
            stats.append(RootStat(action, child.visits, child.totals[seat] / child.visits))
    return stats


class MCTSBot:
    name = "mcts"
    takes_budget = True

    def __init__(
        self, iterations: int | None = None, seconds: float | None = None, **settings: Any
    ):
        """``settings`` override the game's :data:`GAME_SETTINGS` (any :class:`Settings`
        field: ``rollout_depth=None`` plays random rollouts to the end)."""
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        self.budget = Budget(iterations, seconds)  # validates
        self.iterations = iterations
        self.seconds = seconds
        unknown = set(settings) - {f.name for f in fields(Settings)}
        if unknown:
            raise TypeError(f"unknown MCTS settings: {', '.join(sorted(unknown))}")
        self.overrides = settings

    def settings_for(self, state: State) -> Settings:
        return replace(settings_for(state), **self.overrides)

    def choose(self, state: State, seat: int, rng: random.Random) -> Action:
        actions = choices(state, seat)
        if len(actions) == 1:
            return actions[0]
        stats = search(state, seat, rng, self.budget, self.settings_for(state))
        best = max((s.visits, s.value) for s in stats)
        return rng.choice([s.action for s in stats if (s.visits, s.value) == best])


def settings_for(state: State) -> Settings:
    """The settings measured best for ``state``'s game (:data:`GAME_SETTINGS`), else the
    defaults."""
    for slug, rules in registered().items():
        if rules.State is type(state):
            return GAME_SETTINGS.get(slug, Settings())
    return Settings()


class _Search:
    def __init__(self, settings: Settings, seat: int, num_players: int, rng: random.Random):
        self.settings = settings
        self.seat = seat
        self.n = num_players
        self.rng = rng
        self.root = _Node(num_players)
        self.judge: Evaluator | None = None
        self.judged = False
        self.greedy = GreedyBot()
        self.root_values: dict[tuple, float] = {}

    def root_child(self, action: Action) -> _Node | None:
        """The root's node of ``action``, under its first step's node if it is split."""
        children = self.root.children
        split = self.settings.split
        if split is not None and action.get("type") == split[0]:
            group = children.get(("split",) + tuple(action.get(f) for f in split[1]))
            if group is not None:
                return group.children.get(action_key(action))
        return children.get(action_key(action))

    # -- one iteration ------------------------------------------------------------------------

    def iterate(self, world: State) -> None:
        if not self.judged:
            self.judge = evaluator_for(world)
            self.judged = True
        node = self.root
        path = [node]
        rewards: list[float] | None = None
        while rewards is None:
            if world.is_terminal():
                rewards = rank_rewards(world)
                break
            if world.is_chance_node():
                outcomes = world.chance_outcomes()
                outcome = sample_outcome(outcomes, self.rng)
                if len(outcomes) > self.settings.chance_branching:
                    world.apply(outcome)
                    continue  # open loop: the tree does not branch on this chance
                seen_by = world.private_to(outcome)
                seen = outcome if seen_by is None or self.seat in seen_by else None
                key = ("chance", action_key(seen or world.public_form(outcome)))
                world.apply(outcome)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(self.n)
                node = child
                path.append(node)
                continue
            if node.visits == 0 and node is not self.root:
                rewards = self._rollout(world)
                break
            player = world.current_player
            legal = world.legal_actions()
            chosen, passed = self._descend(node, world, legal, player)
            path += passed
            node = passed[-1]
            world.apply(chosen)
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for s in range(self.n):
                totals[s] += rewards[s]

    def _descend(
        self, node: _Node, world: State, legal: list[Action], player: int
    ) -> tuple[Action, list[_Node]]:
        """``player``'s action at ``node`` and the nodes passed to it: one, or with a split
        action, its first step's node then the action's."""
        keys = [action_key(a) for a in legal]
        split = self.settings.split
        if split is None or len(legal) < 2 or any(a.get("type") != split[0] for a in legal):
            i = self._select(
                node, keys, lambda wanted: self._judge(node, world, legal, wanted, player), player
            )
            return legal[i], [node.children[keys[i]]]
        fields_ = split[1]
        groups: dict[tuple, list[int]] = {}
        for i, action in enumerate(legal):
            groups.setdefault(("split",) + tuple(action.get(f) for f in fields_), []).append(i)
        group_keys = list(groups)
        members = list(groups.values())

        def judge_groups(wanted: list[int]) -> list[_Node]:
            flat = [i for g in wanted for i in members[g]]
            judged = dict(zip(flat, self._judge(node, world, legal, flat, player)))
            made = []
            for g in wanted:
                group = _Node(self.n, 0.0, 0.0)
                for i in members[g]:
                    child = group.children[keys[i]] = judged[i]
                    group.weight += child.weight
                    group.first = max(group.first, child.first)
                made.append(group)
            return made

        g = self._select(node, group_keys, judge_groups, player)
        group = node.children[group_keys[g]]
        inside = members[g]
        j = self._select(
            group,
            [keys[i] for i in inside],
            lambda wanted: self._judge(node, world, legal, [inside[w] for w in wanted], player),
            player,
            widen=False,
        )
        return legal[inside[j]], [group, group.children[keys[inside[j]]]]

    def _judge(
        self, node: _Node, world: State, legal: list[Action], wanted: list[int], player: int
    ) -> list[_Node]:
        """New nodes for ``legal[i]``, ``i`` in ``wanted``, their priors judged: at the root as
        :attr:`Settings.root` says, below it one step ahead."""
        if node is not self.root:
            return [self._judged_child(world, legal[i], player) for i in wanted]
        if self.judge is None:
            return [self._node_for(0.0) for _ in wanted]
        values = self._root_values(world, legal, player)
        return [self._node_for(values[action_key(legal[i])]) for i in wanted]

    def _select(
        self,
        node: _Node,
        keys: list[tuple],
        judge: Callable[[list[int]], list[_Node]],
        player: int,
        widen: bool = True,
    ) -> int:
        """The index in ``keys`` PUCT picks at ``node``, children made by ``judge`` as needed
        (all of them at the root, a widening sample below it)."""
        children = node.children
        settings = self.settings
        missing = [i for i, key in enumerate(keys) if key not in children]
        if missing:
            if widen and node is not self.root:
                considered = len(keys) - len(missing)
                cap = settings.widening + settings.widening_growth * math.sqrt(node.visits)
                allowed = max(1 if considered == 0 else 0, int(cap) - considered)
                if allowed < len(missing):
                    missing = self.rng.sample(missing, allowed)
            for i, made in zip(missing, judge(missing)):
                children[keys[i]] = made
        c = settings.exploration
        total = 0.0
        candidates = []
        for i, key in enumerate(keys):
            child = children.get(key)
            if child is not None:
                candidates.append((i, child))
                total += child.weight
        root_n = math.sqrt(node.visits + 1)
        best_score = float("-inf")
        best: list[int] = []
        for i, child in candidates:
            q = child.totals[player] / child.visits if child.visits else child.first
            score = q + c * (child.weight / total) * root_n / (1 + child.visits)
            if score > best_score:
                best, best_score = [i], score
            elif score == best_score:
                best.append(i)
        return best[0] if len(best) == 1 else self.rng.choice(best)

    def _judged_child(self, world: State, action: Action, player: int) -> _Node:
        if self.judge is None:
            return _Node(self.n)
        return self._node_for(self._points_after(world, action, player, self.judge))

    def _root_values(self, world: State, legal: list[Action], player: int) -> dict[tuple, float]:
        """The root's value of each of ``legal`` (judged once, in the first world that lists
        it): greedy's, or with the cheap root the evaluation one step ahead for all and
        greedy's for the few best of those and a few drawn at random."""
        values = self.root_values
        new = [a for a in legal if action_key(a) not in values]
        if not new:
            return values
        judge = self.judge
        assert judge is not None
        if self.settings.root == "greedy":
            looked = new
        else:
            ahead = [self._points_after(world, a, player, judge) for a in new]
            for action, points in zip(new, ahead):
                values[action_key(action)] = points
            top = self.settings.root_top
            order = sorted(range(len(new)), key=lambda i: -ahead[i])
            chosen = order[:top]
            rest = order[top:]
            chosen += self.rng.sample(rest, min(top, len(rest)))
            looked = [new[i] for i in sorted(chosen)]
        for action, value in zip(looked, self.greedy.values(world, looked, player, self.rng)):
            values[action_key(action)] = value
        return values

    def _node_for(self, points: float) -> _Node:
        settings = self.settings
        weight = math.exp(max(-50.0, min(50.0, points / settings.temperature)))
        return _Node(self.n, weight, _logistic(points / settings.evaluation_scale))

    def _points_after(self, world: State, action: Action, player: int, judge: Evaluator) -> float:
        """``player``'s evaluation one action ahead, the chance after it drawn once."""
        after = world.clone()
        after.apply(action)
        while after.is_chance_node():
            after.apply(sample_outcome(after.chance_outcomes(), self.rng))
        if after.is_terminal():
            # A finished game is worth more than any lead: far out on the logistic.
            return (2 * rank_rewards(after)[player] - 1) * 4 * self.settings.evaluation_scale
        return judge(after, player)

    def _rollout(self, world: State) -> list[float]:
        judge = self.judge
        settings = self.settings
        rng = self.rng
        limit = settings.rollout_depth if judge is not None else None
        decisions = 0
        others_decided = False
        while not world.is_terminal():
            # Chance is always played out first: a dice roll about to happen is not judged
            # as if it had not (a diver who just turned back has not moved yet).
            if world.is_chance_node():
                world.apply(sample_outcome(world.chance_outcomes(), rng))
                continue
            legal = world.legal_actions()
            if judge is None or limit is None:
                world.apply(rng.choice(legal))
                continue
            player = world.current_player
            if decisions >= limit or (others_decided and player == self.seat):
                scale = settings.evaluation_scale
                return [_logistic(judge(world, s) / scale) for s in range(self.n)]
            world.apply(self._greedy_step(world, legal, judge))
            decisions += 1
            others_decided = others_decided or (settings.rollout_turn and player != self.seat)
        return rank_rewards(world)

    def _greedy_step(self, world: State, legal: list[Action], judge: Evaluator) -> Action:
        """The best on the evaluation of a few sampled actions (all, if there are few)."""
        if len(legal) == 1:
            return legal[0]
        width = self.settings.rollout_width
        sample = legal if len(legal) <= width else self.rng.sample(legal, width)
        player = world.current_player
        best, best_points = sample[0], float("-inf")
        for action in sample:
            points = self._points_after(world, action, player, judge)
            if points > best_points:
                best, best_points = action, points
        return best


def _logistic(x: float) -> float:
    if x < -60:
        return 0.0
    return 1.0 / (1.0 + math.exp(-x))
