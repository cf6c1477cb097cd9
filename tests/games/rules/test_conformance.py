"""Every registered game, at every version of its rules, through the same checks, so a new game
(or a new version) gets them by registering.

Each game is played HADAL_CONFORMANCE_GAMES times (default 200; a quarter of that, at least 20,
for each version but the newest) from fixed seeds, with random
player counts and options and random legal choices; chance nodes are sampled from
``chance_outcomes()``. The playthroughs are made once per game and then examined by the tests
below: replay, legality, chance distributions, illegal actions, views, results, and hidden
information.
"""

from __future__ import annotations

import copy
import functools
import json
import os
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from games.rules import CHANCE, IllegalAction, get_rules, registered
from games.rules.base import GameSpec, State

GAMES = int(os.environ.get("HADAL_CONFORMANCE_GAMES", "200"))
MAX_ACTIONS = 20_000  # a random playthrough longer than this is taken to be stuck
CHECKPOINT_RATE = 0.04  # share of steps whose state is kept for the deeper checks
EVERY_STEP_GAMES = 20  # playthroughs whose views are checked after every single action
RESAMPLED_PLAY = 20  # random actions played on from one resampled state per checkpoint
ILLEGAL_PER_STATE = 6  # mutated or misplaced actions tried at each checkpoint
ENOUGH_REDRAWS = 20  # other seats' views seen changed by resampling: hidden data exists

# Per game, per private chance outcome type: keys its public form must not carry.
PRIVATE_KEYS = {
    "abyss": {"draw_token": {"value"}, "steal": {"value"}},
    "ventlife": {"draw": {"tile"}},
}

SLUGS = sorted(registered())
VERSIONS = [(slug, v) for slug in SLUGS for v in registered()[slug].spec.known_versions()]


@dataclass
class Playthrough:
    seed: str
    num_players: int
    options: dict[str, Any]
    actions: list[dict[str, Any]] = field(default_factory=list)
    checkpoints: dict[int, State] = field(default_factory=dict)  # actions applied -> clone
    views: dict[int, str] = field(default_factory=dict)  # actions applied -> all views
    final: State | None = None


def canonical(value: Any) -> str:
    """JSON that tells 1, 1.0 and true apart and ignores key order; no default: must be JSON."""
    return json.dumps(value, sort_keys=True)


def seats(state: State) -> list[int | None]:
    return [None, *range(state.num_players)]


def all_views(state: State) -> str:
    return canonical([state.view(seat) for seat in seats(state)])


def random_options(spec: GameSpec, rng: random.Random) -> dict[str, Any]:
    options = {}
    for option in spec.options:
        if rng.random() < 0.5:
            continue
        if option.kind == "bool":
            options[option.name] = rng.random() < 0.5
        elif option.kind == "choice" and option.subset_of and rng.random() < 0.3:
            options[option.name] = rng.sample(
                list(option.subset_of), option.subset_size or len(option.subset_of)
            )
        elif option.kind == "choice":
            options[option.name] = rng.choice(option.choices)
        elif option.minimum is not None and option.maximum is not None:
            options[option.name] = rng.randint(option.minimum, option.maximum)
    return options


def sample(outcomes: list[tuple[dict[str, Any], float]], rng: random.Random) -> dict[str, Any]:
    r = rng.random()
    for outcome, probability in outcomes:
        r -= probability
        if r < 0:
            return outcome
    return outcomes[-1][0]


def random_action(state: State, rng: random.Random) -> dict[str, Any]:
    if state.is_chance_node():
        return sample(state.chance_outcomes(), rng)
    legal = state.legal_actions()
    assert legal, f"seat {state.current_player} has no legal action in a game not over"
    return rng.choice(legal)


def play(module: Any, seed: str) -> Playthrough:
    rng = random.Random(seed)
    spec = module.spec
    num_players = rng.randint(spec.min_players, spec.max_players)
    options = random_options(spec, rng)
    state = module.new_game(num_players, copy.deepcopy(options))
    record = Playthrough(seed, num_players, options)
    record.checkpoints[0] = state.clone()
    record.views[0] = all_views(state)
    while not state.is_terminal():
        assert len(record.actions) < MAX_ACTIONS, f"{spec.slug} {seed}: no end in sight"
        action = random_action(state, rng)
        record.actions.append(copy.deepcopy(action))
        state.apply(action)
        if rng.random() < CHECKPOINT_RATE or state.is_terminal():
            step = len(record.actions)
            record.checkpoints[step] = state.clone()
            record.views[step] = all_views(state)
    record.final = state
    return record


@functools.cache
def playthroughs(slug: str, version: int | None = None) -> list[Playthrough]:
    rules = get_rules(slug, version)
    if rules.spec.version == registered()[slug].spec.version:
        return [play(rules, f"{slug}:{i}") for i in range(GAMES)]
    return [play(rules, f"{slug}:v{rules.spec.version}:{i}") for i in range(older_games())]


def older_games() -> int:
    """How many playthroughs check a version of a game's rules other than the newest."""
    return max(20, GAMES // 4)


def replay(module: Any, record: Playthrough):
    """Yield (actions applied, state) from a fresh game through every logged action."""
    state = module.new_game(record.num_players, copy.deepcopy(record.options))
    yield 0, state
    for step, action in enumerate(record.actions, start=1):
        state.apply(copy.deepcopy(action))
        yield step, state


@pytest.fixture(params=VERSIONS, ids=lambda p: f"{p[0]}-v{p[1]}")
def rules(request):
    return get_rules(*request.param)


def test_there_is_a_game_to_check():
    assert "deep-sea-adventure" in SLUGS


def test_random_playthroughs_reach_the_end(rules):
    records = playthroughs(rules.spec.slug, rules.spec.version)
    newest = rules.spec.version == registered()[rules.spec.slug].spec.version
    assert len(records) == (GAMES if newest else older_games())
    spec = rules.spec
    for record in records:
        assert record.final.is_terminal()
        assert spec.min_players <= record.num_players <= spec.max_players
    if len(records) >= 50:
        counts = {record.num_players for record in records}
        assert counts == set(range(spec.min_players, spec.max_players + 1))


def test_every_decision_point_has_a_legal_action_and_chance_is_a_distribution(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        for step, state in replay(rules, record):
            if step == len(record.actions):
                assert state.is_terminal()
                assert state.legal_actions() == []
                break
            assert not state.is_terminal(), f"{record.seed}: over before its last action"
            player = state.current_player
            if player == CHANCE:
                outcomes = state.chance_outcomes()
                assert outcomes, f"{record.seed} step {step}: a chance node without outcomes"
                assert all(p > 0 for _, p in outcomes)
                assert abs(sum(p for _, p in outcomes) - 1) < 1e-9
                keys = [canonical(o) for o, _ in outcomes]
                assert len(set(keys)) == len(keys), f"{record.seed}: repeated chance outcomes"
                assert state.legal_actions() == [o for o, _ in outcomes]
                check_private_outcomes(state, rules.spec, [o for o, _ in outcomes])
            else:
                assert 0 <= player < record.num_players
                legal = state.legal_actions()
                assert legal, f"{record.seed} step {step}: seat {player} has no legal action"
                keys = [canonical(a) for a in legal]
                assert len(set(keys)) == len(keys), f"{record.seed}: repeated legal actions"
                assert all(isinstance(a.get("type"), str) for a in legal)
                with pytest.raises(ValueError):
                    state.chance_outcomes()
            assert canonical(record.actions[step]) in keys


def check_private_outcomes(state: State, spec: GameSpec, outcomes: list[dict[str, Any]]) -> None:
    hidden = PRIVATE_KEYS.get(spec.slug, {})
    for outcome in outcomes:
        private = state.private_to(outcome)
        public = state.public_form(outcome)
        canonical(public)
        assert public["type"] == outcome["type"]
        if private is None:
            assert public == outcome
            continue
        assert spec.hidden_information, "a private outcome in a public game"
        assert private <= set(range(state.num_players))
        assert not (hidden.get(outcome["type"], set()) & set(public))
        if outcome["type"] in hidden:
            assert hidden[outcome["type"]] <= set(outcome)


def test_replaying_the_log_reproduces_every_view(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        for step, state in replay(rules, record):
            if step in record.views:
                assert all_views(state) == record.views[step], f"{record.seed} step {step}"
                assert all_views(record.checkpoints[step]) == record.views[step]


def test_views_are_json_at_every_step(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version)[:EVERY_STEP_GAMES]:
        for step, state in replay(rules, record):
            for seat in seats(state):
                view = state.view(seat)
                assert isinstance(view, dict)
                assert json.loads(json.dumps(view)) == view, f"{record.seed} step {step}"


def test_a_clone_is_independent_of_its_original(rules):
    rng = random.Random(f"{rules.spec.slug}:clone")
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        for step, state in record.checkpoints.items():
            if state.is_terminal():
                continue
            clone = state.clone()
            for _ in range(5):
                if clone.is_terminal():
                    break
                clone.apply(random_action(clone, rng))
            assert all_views(state) == record.views[step], f"{record.seed} step {step}"


def illegal_candidates(state: State, record: Playthrough, rng: random.Random) -> list[Any]:
    basics: list[Any] = [{"type": "no-such-action"}, "continue"]
    candidates: list[Any] = [None, ["type"], {}, {"type": 3}]
    kinds = sorted({action["type"] for action in record.actions})
    for action in state.legal_actions()[:4]:
        candidates.append({**action, "unexpected": True})
        for key, value in action.items():
            if key == "type":
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                candidates += [
                    {**action, key: value + 1000},
                    {**action, key: float(value)},
                    {**action, key: str(value)},
                ]
                if value in (0, 1):
                    candidates.append({**action, key: bool(value)})
            elif isinstance(value, list):
                candidates += [{**action, key: value + value[:1]}, {**action, key: []}]
        candidates.append({"type": action["type"]})
        candidates += [{**action, "type": kind} for kind in kinds if kind != action["type"]]
    # Actions of this very game at other moments: the right vocabulary at the wrong time.
    candidates += rng.sample(record.actions, min(6, len(record.actions)))
    legal = {canonical(a) for a in state.legal_actions()}
    candidates = [c for c in candidates if canonical(c) not in legal]
    return basics + rng.sample(candidates, min(ILLEGAL_PER_STATE, len(candidates)))


def test_an_illegal_action_raises_and_changes_nothing(rules):
    rng = random.Random(f"{rules.spec.slug}:illegal")
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        for step, original in record.checkpoints.items():
            state = original.clone()
            legal_before = canonical(state.legal_actions())
            player = state.current_player
            candidates = illegal_candidates(state, record, rng)
            for action in candidates:
                with pytest.raises(IllegalAction) as refused:
                    state.apply(copy.deepcopy(action))
                assert str(refused.value).strip(), f"IllegalAction without a reason: {action!r}"
                assert state.current_player == player
                assert canonical(state.legal_actions()) == legal_before, repr(action)
            if all_views(state) != record.views[step]:
                culprits = [
                    action
                    for action in candidates
                    if changes_views(original, action, record.views[step])
                ]
                pytest.fail(
                    f"{record.seed} step {step}: refused actions changed the views: {culprits!r}"
                )


def changes_views(state: State, action: Any, views: str) -> bool:
    state = state.clone()
    with pytest.raises(IllegalAction):
        state.apply(copy.deepcopy(action))
    return all_views(state) != views


def test_results_rank_every_seat_and_share_ties(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        result = record.final.result()
        canonical(result)
        assert len(result) == record.num_players
        ranks = [entry["rank"] for entry in result]
        scores = [entry["score"] for entry in result]
        assert all(isinstance(r, int) and 1 <= r <= record.num_players for r in ranks)
        assert min(ranks) == 1
        for i in range(record.num_players):
            assert ranks[i] == 1 + sum(1 for r in ranks if r < ranks[i])
            for j in range(record.num_players):
                if scores[i] > scores[j]:
                    assert ranks[i] <= ranks[j], f"{record.seed}: {result}"
        unfinished = next(s for s in record.checkpoints.values() if not s.is_terminal())
        with pytest.raises(ValueError):
            unfinished.result()


def test_resampling_hidden_information_keeps_each_seats_own_view(rules):
    spec = rules.spec
    rng = random.Random(f"{spec.slug}:resample")
    redrawn_for_others = 0
    for record in playthroughs(spec.slug, spec.version):
        for step, state in record.checkpoints.items():
            views = {seat: canonical(state.view(seat)) for seat in seats(state)}
            samples = []
            for seat in seats(state):
                sample_state = state.resample_hidden(seat, rng)
                assert sample_state is not state
                assert canonical(sample_state.view(seat)) == views[seat], (
                    f"{record.seed} step {step}: resampling for seat {seat} changed its view"
                )
                samples.append(sample_state)
                if redrawn_for_others >= ENOUGH_REDRAWS and spec.hidden_information:
                    continue  # hidden data has been seen to change; the seat's own view suffices
                for other in seats(state):
                    if other != seat and canonical(sample_state.view(other)) != views[other]:
                        assert spec.hidden_information, "a public game changed on resampling"
                        redrawn_for_others += 1
            # A redrawn state must also be one the rules can carry on from.
            sample_state = rng.choice(samples)
            for _ in range(RESAMPLED_PLAY):
                if sample_state.is_terminal():
                    break
                sample_state.apply(random_action(sample_state, rng))
            assert all_views(state) == record.views[step], "resampling changed the original"
    if spec.hidden_information:
        # The check above can catch a leak only if hidden data exists and really is redrawn.
        assert redrawn_for_others > 0, "no resample ever changed another seat's view"


AGREEMENT_SAMPLE = 40  # legal actions checked one by one at a state listing more than this
AGREEMENT_PROBES = 8  # legal actions per state whose near misses are tried


def near_misses(
    legal: list[dict[str, Any]], vocabulary: dict[str, list[Any]], rng: random.Random
) -> list[Any]:
    """Actions one step away from some legal ones: a whole number moved by one, a value
    swapped for another this game used under the same key, a key dropped or added."""
    probes: list[Any] = []
    for action in rng.sample(legal, min(AGREEMENT_PROBES, len(legal))):
        for key, value in action.items():
            if key == "type":
                continue
            if isinstance(value, int) and not isinstance(value, bool):
                probes += [{**action, key: value - 1}, {**action, key: value + 1}]
            elif isinstance(value, list) and value and isinstance(value[0], int):
                probes.append({**action, key: [value[0] + 1, *value[1:]]})
            others = [v for v in vocabulary.get(key, ()) if v != value]
            probes += [{**action, key: v} for v in rng.sample(others, min(3, len(others)))]
            probes.append({k: v for k, v in action.items() if k != key})
        probes.append({**action, "extra": 0})
    return probes


def accepts(state: State, action: Any) -> bool:
    try:
        state.canonical(copy.deepcopy(action))
    except IllegalAction:
        return False
    return True


def test_checking_an_action_directly_agrees_with_the_listing_at_every_state(rules):
    """Validation checks an action on its own branch of the rules, never by listing them all:
    at every state of every playthrough it accepts each listed action as itself, and of the
    actions near them and those of other moments exactly the listed ones."""
    rng = random.Random(f"{rules.spec.slug}:agreement")
    for index, record in enumerate(playthroughs(rules.spec.slug, rules.spec.version)):
        vocabulary: dict[str, list[Any]] = {}
        for action in record.actions:
            for key, value in action.items():
                known = vocabulary.setdefault(key, [])
                if value not in known and len(known) < 40:
                    known.append(value)
        for step, state in replay(rules, record):
            if state.is_terminal():
                assert not accepts(state, record.actions[-1])
                break
            where = f"{record.seed} step {step}"
            legal = state.legal_actions()
            listed = {canonical(a) for a in legal}
            checked = legal
            if index >= EVERY_STEP_GAMES and len(legal) > AGREEMENT_SAMPLE:
                checked = rng.sample(legal, AGREEMENT_SAMPLE)
            for action in checked:
                found = state.canonical(copy.deepcopy(action))
                assert canonical(found) == canonical(action), f"{where}: {action!r}"
                assert found is not action, f"{where}: the caller's object came back"
            probes = near_misses(legal, vocabulary, rng)
            probes += rng.sample(record.actions, min(6, len(record.actions)))
            for probe in probes:
                assert accepts(state, probe) == (canonical(probe) in listed), (
                    f"{where}: {probe!r} is {'' if canonical(probe) in listed else 'not '}listed"
                )
