"""The analysis of a finished game: how good each decision was, and how lucky each chance event.

Pure Python over the rule interface, like the bots. Given the game's first state and its log
(the decisions and chance outcomes, in order), it walks the game once:

- At a **decision** with a real choice (two or more legal actions), it runs the MCTS bot's
  search (:func:`games.bots.mcts.search`) from the acting seat's own information set: every
  iteration starts from ``state.resample_hidden(seat, rng)``, so nothing the seat could not
  see at that moment enters it, and the generator is seeded from the game's seed, the
  position in the log and the seat only. ``best`` is the root action visited most; the value
  of an action is its mean reward in the search, or for one the search never tried, its
  one-ply value (the evaluation just after it, which the search uses as its prior). Values
  are expected results in 0..1 (1 a certain first place, 0 a certain last), as MCTS counts
  them. ``loss = max(0, value(best) - value(played))``.
- At a **chance** event, for every seat, the expected result just before the outcome (the
  mean over the possible outcomes, weighted by their probability; a sample of
  ``luck_outcomes`` drawn by probability where there are more) and just after it (the outcome
  that happened). ``swing = after - before``: positive when the dice, draw or reveal helped
  the seat. A position is valued a few turns ahead for each seat, so that what a draw offers
  counts before it is played: from it the game goes on, each decision the best of up to
  ``luck_moves`` moves on the acting seat's evaluation, chance drawn by its probabilities,
  and each seat is valued (the evaluation through the logistic MCTS uses; a finished game by
  place) once its own turns in ``luck_turns`` turns at the table have passed, averaged over
  ``luck_samples`` such look-aheads. A Ventlife tile drawn into a hand is worth what its
  holder makes of it next turn; a Deep Vents hex joins the market at its dearest end and is
  taken only several takes later, as the row slides, so Deep Vents looks eight turns ahead
  (four each at two seats, two each at four). Every outcome is looked at with the same random
  draws, so what differs between them is the outcome. The chances are the true ones (the deck
  as it really was): the luck report is a judgement with hindsight, shown only once the game
  is over, when every hand is public.
- A seat's **accuracy** is ``100 * (1 - mean loss)`` over its decisions with a real choice:
  100 when every move was the one the search preferred or as good, and one point less per
  percentage point of expected result given away on average.

The budget (:class:`Budget`) is a number of iterations per decision, never seconds, so an
analysis is the same on any machine and under any load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from games.bots import mcts
from games.bots.evaluation import evaluator_for
from games.bots.rewards import action_key, rank_rewards, sample_outcome
from games.rules.base import Action, State

DEFAULT_ITERATIONS = 60
DEFAULT_LUCK_SAMPLES = 2
DEFAULT_LUCK_MOVES = 12
DEFAULT_LUCK_OUTCOMES = 8
DEFAULT_LUCK_TURNS = 1


@dataclass(frozen=True)
class Budget:
    """The work per step: search iterations at a decision; at a chance event, the look-aheads
    from each outcome, the moves each of their decisions compares, and the outcomes looked at
    where there are more."""

    iterations: int = DEFAULT_ITERATIONS
    luck_samples: int = DEFAULT_LUCK_SAMPLES
    luck_moves: int = DEFAULT_LUCK_MOVES
    luck_outcomes: int = DEFAULT_LUCK_OUTCOMES
    # Turns at the table (all seats together, one each at least) a look-ahead plays.
    luck_turns: int = DEFAULT_LUCK_TURNS
    # How the search judges a decision's moves before it searches (mcts.Settings.root):
    # None keeps the game's bot setting; "cheap" judges every move one step ahead and only a
    # few as greedy does (Ventlife's tile step, a few hundred moves).
    root: str | None = None

    def __post_init__(self) -> None:
        for name in ("iterations", "luck_samples", "luck_moves", "luck_outcomes", "luck_turns"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"the analysis budget's {name} must be a whole number, at least 1")
        if self.root is not None:
            mcts.Settings(root=self.root)  # validates


@dataclass(frozen=True)
class Step:
    """One logged decision or chance outcome: the version of its event and the action.
    ``judged`` False keeps a decision out of the report (a resigned seat's stand-in moves)."""

    version: int
    action: Action
    judged: bool = True


@dataclass(frozen=True)
class Decision:
    version: int
    seat: int
    played: Action
    best: Action
    value_played: float
    value_best: float
    loss: float


@dataclass(frozen=True)
class Luck:
    version: int
    seat: int
    before: float
    after: float

    @property
    def swing(self) -> float:
        return self.after - self.before


@dataclass
class Analysis:
    num_players: int
    decisions: list[Decision] = field(default_factory=list)
    luck: list[Luck] = field(default_factory=list)

    def accuracy(self, seat: int) -> float | None:
        """``100 * (1 - mean loss)`` over the seat's decisions; None if it never had a choice."""
        losses = [d.loss for d in self.decisions if d.seat == seat]
        if not losses:
            return None
        return 100.0 * (1.0 - sum(losses) / len(losses))

    def total_luck(self, seat: int) -> float:
        return sum(entry.swing for entry in self.luck if entry.seat == seat)

    def to_json(self) -> dict[str, Any]:
        """The API's shape: per seat, per decision, per chance event and seat."""
        return {
            "seats": [
                {
                    "seat": seat,
                    "accuracy": _rounded(self.accuracy(seat)),
                    "decisions": sum(1 for d in self.decisions if d.seat == seat),
                    "luck": _rounded(self.total_luck(seat)),
                }
                for seat in range(self.num_players)
            ],
            "decisions": [
                {
                    "version": d.version,
                    "seat": d.seat,
                    "played": d.played,
                    "best": d.best,
                    "loss": _rounded(d.loss),
                    "value_played": _rounded(d.value_played),
                    "value_best": _rounded(d.value_best),
                }
                for d in self.decisions
            ],
            "luck": [
                {
                    "version": entry.version,
                    "seat": entry.seat,
                    "swing": _rounded(entry.swing),
                    "before": _rounded(entry.before),
                    "after": _rounded(entry.after),
                }
                for entry in self.luck
            ],
        }


def analyse(
    initial: State,
    steps: Sequence[Step],
    *,
    budget: Budget | None = None,
    seed: Any = 0,
    progress: Callable[[float], None] | None = None,
) -> Analysis:
    """Walk the game from ``initial`` through ``steps`` and judge every decision and chance
    event. ``initial`` is not changed. ``progress`` is told the fraction done after each step."""
    budget = budget or Budget()
    state = initial.clone()
    report = Analysis(initial.num_players)
    total = len(steps)
    for done, step in enumerate(steps, start=1):
        if state.is_terminal():
            raise ValueError(f"the game is over before the event at version {step.version}")
        if state.is_chance_node():
            report.luck.extend(chance_luck(state, step, budget, seed))
        elif step.judged:
            decision = judge_decision(state, step, budget, seed)
            if decision is not None:
                report.decisions.append(decision)
        state.apply(step.action)
        if progress is not None:
            progress(done / total)
    return report


def judge_decision(state: State, step: Step, budget: Budget, seed: Any) -> Decision | None:
    """The decision at ``state`` (not changed) searched from the acting seat's view alone;
    None where there was nothing to choose."""
    seat = state.current_player
    if len(state.legal_actions()) < 2:
        return None
    rng = random.Random(f"analysis:{seed}:{step.version}:{seat}")
    settings = mcts.settings_for(state)
    if budget.root is not None:
        settings = replace(settings, root=budget.root)
    stats = mcts.search(state, seat, rng, budget.iterations, settings)
    played_key = action_key(step.action)
    played = next((stat for stat in stats if action_key(stat.action) == played_key), None)
    if played is None:
        raise ValueError(f"the move at version {step.version} is not legal there")
    best = max(stats, key=lambda stat: (stat.visits, stat.value))
    value_best = max(best.value, played.value) if best is played else best.value
    return Decision(
        version=step.version,
        seat=seat,
        played=step.action,
        best=best.action,
        value_played=played.value,
        value_best=value_best,
        loss=max(0.0, value_best - played.value),
    )


def chance_luck(state: State, step: Step, budget: Budget, seed: Any) -> list[Luck]:
    """Per seat, the expected result before the chance outcome at ``state`` and after it."""
    outcomes = state.chance_outcomes()
    happened = action_key(step.action)
    actual = next((outcome for outcome, _ in outcomes if action_key(outcome) == happened), None)
    if actual is None:
        raise ValueError(f"the chance outcome at version {step.version} was not possible there")
    if len(outcomes) > budget.luck_outcomes:
        # The expectation over a sample drawn by probability, each counted alike.
        draw = random.Random(f"luck-outcomes:{seed}:{step.version}")
        share = 1 / budget.luck_outcomes
        weighted = [(sample_outcome(outcomes, draw), share) for _ in range(budget.luck_outcomes)]
    else:
        weighted = outcomes
    looked: dict[tuple, list[float]] = {}

    def values_after(outcome: Action) -> list[float]:
        key = action_key(outcome)
        if key not in looked:
            # The same generator for every outcome: what follows is played out alike for each.
            rng = random.Random(f"luck:{seed}:{step.version}")
            looked[key] = position_values(state, outcome, budget, rng)
        return looked[key]

    expected = [0.0] * state.num_players
    for outcome, probability in weighted:
        for s, value in enumerate(values_after(outcome)):
            expected[s] += probability * value
    after = values_after(actual)
    return [Luck(step.version, s, expected[s], after[s]) for s in range(state.num_players)]


def position_values(
    state: State, outcome: Action, budget: Budget, rng: random.Random
) -> list[float]:
    """Each seat's expected result once ``outcome`` is applied to ``state``, looked at one
    turn ahead for each seat, or ``luck_turns`` at the table shared among the seats
    (:func:`next_turn_values`), averaged over ``luck_samples`` look-aheads."""
    totals = [0.0] * state.num_players
    each = max(1, -(-budget.luck_turns // state.num_players))  # turns per seat, rounded up
    for _ in range(budget.luck_samples):
        world = state.clone()
        world.apply(outcome)
        look = next_turn_values(world, budget.luck_moves, rng, each)
        for s, value in enumerate(look):
            totals[s] += value
    return [total / budget.luck_samples for total in totals]


def next_turn_values(world: State, moves: int, rng: random.Random, turns: int = 1) -> list[float]:
    """Play ``world`` (changed) on until each seat's next ``turns`` turns have passed, each
    decision the best on the acting seat's evaluation of up to ``moves`` of its moves (all
    where there are fewer), a move followed by another of the same turn judged by the best of
    those, chance drawn by probability. Each seat is valued as its last turn passes (the
    evaluation through the logistic); a seat whose turn does not come before the game ends,
    by place; a game without an evaluation gives 0.5."""
    n = world.num_players
    judge = evaluator_for(world)
    if judge is None:
        return rank_rewards(world) if world.is_terminal() else [0.5] * n
    scale = mcts.Settings.evaluation_scale
    ahead = _LookAhead(judge, moves, rng, scale)
    values: list[float | None] = [None] * n
    passed = [0] * n
    for _ in range(4 * n * turns):  # a bound: every seat's turns, each of several steps
        world = ahead.settled(world)
        if world.is_terminal() or all(v is not None for v in values):
            break
        seat = world.current_player
        world, value = ahead.best_of(world, seat, True)
        if not world.is_terminal() and world.current_player != seat:
            passed[seat] += 1
            if passed[seat] == turns and values[seat] is None:
                values[seat] = _logistic(value / scale)
    if world.is_terminal():
        ranks = rank_rewards(world)
        return [ranks[s] if v is None else v for s, v in enumerate(values)]
    return [_logistic(judge(world, s) / scale) if v is None else v for s, v in enumerate(values)]


class _LookAhead:
    """How :func:`next_turn_values` plays on: each decision the best of up to ``moves`` of the
    acting seat's moves on its evaluation (``judge``, in points of which ``scale`` is one step
    of the logistic), chance drawn by probability from ``rng``."""

    def __init__(
        self, judge: Callable[[State, int], float], moves: int, rng: random.Random, scale: float
    ) -> None:
        self.judge = judge
        self.moves = moves
        self.rng = rng
        self.scale = scale

    def settled(self, state: State) -> State:
        """``state`` (changed) once the chance events due are drawn."""
        while state.is_chance_node():
            state.apply(sample_outcome(state.chance_outcomes(), self.rng))
        return state

    def points(self, state: State, seat: int) -> float:
        """``seat``'s evaluation of ``state``; a finished game by place, beyond any evaluation."""
        if state.is_terminal():
            return (2 * rank_rewards(state)[seat] - 1) * 4 * self.scale
        return self.judge(state, seat)

    def best_of(self, state: State, seat: int, look_on: bool) -> tuple[State, float]:
        """The best of up to ``moves`` of ``seat``'s moves at ``state`` and its points: the
        state after it (settled) or ``state`` itself if there is none. ``look_on`` judges a move
        followed by another of the same turn by the best of those."""
        legal = state.legal_actions()
        moves = self.moves
        candidates = legal if len(legal) <= moves else self.rng.sample(legal, moves)
        best, best_points = state, float("-inf")
        for action in candidates:
            after = state.clone()
            after.apply(action)
            after = self.settled(after)
            if look_on and not after.is_terminal() and after.current_player == seat:
                value = self.best_of(after, seat, False)[1]  # the rest of the turn, one step more
            else:
                value = self.points(after, seat)
            if value > best_points:
                best, best_points = after, value
        return best, best_points


def _logistic(x: float) -> float:
    return 0.0 if x < -60 else 1.0 / (1.0 + math.exp(-x))


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
