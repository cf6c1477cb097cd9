"""The post-game analysis (games.bots.analysis): losses, luck and accuracy, from each seat's view."""

from __future__ import annotations

import random

import pytest

from games.bots.analysis import Budget, Step, analyse, chance_luck, judge_decision
from games.bots.rewards import action_key, sample_outcome
from games.rules import get_rules
from tests.games.bots.helpers import abyss_with_secrets, diver_to_act, play_to_decision, poisoned

ROLL = "roll"


def deep_and_short_of_air():
    """Eight spaces down with two level-3 chips and 12 air: a diver must turn back."""
    return diver_to_act(position=8, held=[3, 3], air=12)


def test_diving_on_when_the_air_is_running_out_is_a_costly_move():
    report = analyse(
        deep_and_short_of_air(),
        [Step(2, {"type": "continue"})],
        budget=Budget(iterations=200),
        seed=1,
    )
    (decision,) = report.decisions
    assert decision.best == {"type": "turn_back"}
    assert decision.loss > 0.05
    assert decision.value_best > decision.value_played
    assert report.accuracy(0) == pytest.approx(100 * (1 - decision.loss))
    assert report.accuracy(1) is None  # seat 1 never chose


def test_turning_back_there_loses_nothing():
    report = analyse(
        deep_and_short_of_air(),
        [Step(2, {"type": "turn_back"})],
        budget=Budget(iterations=200),
        seed=1,
    )
    (decision,) = report.decisions
    assert decision.best == decision.played == {"type": "turn_back"}
    assert decision.loss == 0
    assert report.accuracy(0) == 100


def test_a_high_roll_on_the_way_home_is_luck_and_a_low_one_bad_luck():
    state = deep_and_short_of_air()
    state.apply({"type": "turn_back"})
    assert state.is_chance_node()
    dice = {tuple(o["dice"]): o for o, _ in state.chance_outcomes()}
    high = chance_luck(state, Step(3, dice[(3, 3)]), Budget(), seed=1)
    low = chance_luck(state, Step(3, dice[(1, 1)]), Budget(), seed=1)
    assert high[0].swing > 0 > low[0].swing
    assert high[0].before == pytest.approx(low[0].before)  # before the roll, the same
    assert 0 <= high[0].after <= 1


def test_a_decision_with_one_legal_action_is_not_judged():
    state = diver_to_act(position=0, held=[], air=25)  # in the submarine: only continue
    assert len(state.legal_actions()) == 1
    assert judge_decision(state, Step(2, state.legal_actions()[0]), Budget(8), seed=0) is None


def test_a_move_that_was_not_legal_is_refused():
    with pytest.raises(ValueError, match="not legal"):
        analyse(deep_and_short_of_air(), [Step(2, {"type": "take"})], budget=Budget(8))


def test_a_budget_is_whole_numbers_at_least_one():
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError):
            Budget(iterations=bad)


@pytest.mark.parametrize("slug", ["deep-sea-adventure", "deep-vents"])
def test_a_whole_game_gets_one_judgement_per_choice_and_per_chance_event(slug):
    rules = get_rules(slug)
    first = rules.new_game(3)
    state, rng, steps, choices, chance = first.clone(), random.Random(3), [], set(), set()
    while not state.is_terminal():
        version = len(steps) + 2
        if state.is_chance_node():
            action = sample_outcome(state.chance_outcomes(), rng)
            chance.add(version)
        else:
            legal = state.legal_actions()
            action = rng.choice(legal)
            if len(legal) > 1:
                choices.add(version)
        steps.append(Step(version, action))
        state.apply(action)
    seen = []
    report = analyse(
        first, steps, budget=Budget(iterations=4, luck_samples=1), progress=seen.append
    )
    assert {d.version for d in report.decisions} == choices
    assert {entry.version for entry in report.luck} == chance
    assert len(report.luck) == 3 * len(chance)
    assert seen[-1] == 1 and seen == sorted(seen)
    for seat in range(3):
        accuracy = report.accuracy(seat)
        assert accuracy is not None and 0 <= accuracy <= 100
    body = report.to_json()
    assert [s["seat"] for s in body["seats"]] == [0, 1, 2]


@pytest.mark.parametrize("seed", [5, 11])
def test_an_abyss_decision_is_judged_the_same_whatever_the_hidden_cards(seed):
    state = abyss_with_secrets(seed)
    other = poisoned(state, 0, random.Random(seed))
    for played in state.legal_actions()[:3]:
        step = Step(40, played)
        mine = judge_decision(state, step, Budget(iterations=40), seed=7)
        theirs = judge_decision(other, step, Budget(iterations=40), seed=7)
        assert mine == theirs


def ventlife_with_hidden_tiles(seed: int):
    rules = get_rules("ventlife")
    rng = random.Random(seed)
    found = play_to_decision(
        rules.new_game(3),
        rng,
        until=lambda s: (
            s.current_player == 0
            and len(s.legal_actions()) > 1
            and all(s._hand[o] is not None for o in (1, 2))
        ),
    )
    assert found is not None
    for _ in range(100):
        other = found.resample_hidden(0, rng)
        if other._hand != found._hand:
            return found, other
    raise AssertionError("no other dealing of the hidden tiles found")


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_a_ventlife_decision_is_judged_the_same_whatever_the_tiles_in_other_hands(seed):
    state, other = ventlife_with_hidden_tiles(seed)
    assert state.view(0) == other.view(0)
    step = Step(30, state.legal_actions()[0])
    assert judge_decision(state, step, Budget(iterations=6), seed=3) == judge_decision(
        other, step, Budget(iterations=6), seed=3
    )


@pytest.mark.parametrize("seed", [2, 3, 4, 5])
def test_ventlife_redraws_the_same_worlds_whatever_the_tiles_in_other_hands(seed):
    """The search draws its worlds with resample_hidden: for the analysis of a seat to be the
    same whatever the others held, those draws must depend only on what the seat sees."""
    state, other = ventlife_with_hidden_tiles(seed)
    for r in range(50):
        mine = state.resample_hidden(0, random.Random(r))
        theirs = other.resample_hidden(0, random.Random(r))
        assert [mine.view(s) for s in range(3)] == [theirs.view(s) for s in range(3)]


# -- luck that sees what a draw offers --------------------------------------------------------


def chance_states(slug: str, players: int, count: int, seed: int = 3):
    """``count`` chance events of a random game past its setup: (state, outcome, version)."""
    state, rng, found, version = get_rules(slug).new_game(players), random.Random(seed), [], 1
    while not state.is_terminal() and len(found) < count:
        version += 1
        if state.is_chance_node():
            outcome = sample_outcome(state.chance_outcomes(), rng)
            if version > 4 * players + 6:
                found.append((state.clone(), outcome, version))
            state.apply(outcome)
        else:
            state.apply(rng.choice(state.legal_actions()))
    return found


def test_before_a_chance_event_is_the_mean_of_every_outcome_after_it():
    # Few enough outcomes to count them all: "before" is exactly their weighted mean.
    [(state, outcome, version)] = chance_states("deep-sea-adventure", 2, 1)
    outcomes = state.chance_outcomes()
    budget = Budget(luck_outcomes=len(outcomes))
    report = {
        action_key(o): chance_luck(state, Step(version, o), budget, seed=5) for o, _ in outcomes
    }
    for seat in range(2):
        befores = {round(luck[seat].before, 12) for luck in report.values()}
        assert len(befores) == 1  # the same whatever happened
        mean = sum(p * report[action_key(o)][seat].after for o, p in outcomes)
        assert befores.pop() == pytest.approx(mean)


def test_a_deep_vents_hex_drawn_into_the_market_moves_someone_expected_result():
    # The evaluation prices only what a seat has built, and a hex joins the row at its dearest
    # end: valued where it stands, every draw would be worth nothing to anyone.
    budget = Budget(luck_turns=8)  # four turns each
    swings = [
        max(abs(luck.swing) for luck in chance_luck(state, Step(v, o), budget, seed=1))
        for state, o, v in chance_states("deep-vents", 2, 4)
    ]
    assert max(swings) > 0.005, swings
    flat = Budget(luck_turns=1)
    state, o, v = chance_states("deep-vents", 2, 1)[0]
    assert all(abs(luck.swing) < 1e-9 for luck in chance_luck(state, Step(v, o), flat, seed=1))


def test_a_ventlife_tile_drawn_into_a_hand_is_luck_for_whoever_holds_it():
    budget = Budget(luck_samples=1, luck_moves=8)
    draws = chance_states("ventlife", 2, 4)
    held = [
        abs(chance_luck(state, Step(v, o), budget, seed=1)[o["seat"]].swing)
        for state, o, v in draws
    ]
    assert max(held) > 0.005, held


def test_the_budget_can_name_the_searchs_root_judging():
    with pytest.raises(ValueError):
        Budget(root="oracle")
    # With every move judged as greedy judges it the turn-back is found as before; the cheap
    # root reaches it too (two moves: both are looked at whole).
    for root in ("greedy", "cheap"):
        report = analyse(
            deep_and_short_of_air(),
            [Step(2, {"type": "continue"})],
            budget=Budget(iterations=200, root=root),
            seed=1,
        )
        (decision,) = report.decisions
        assert decision.best == {"type": "turn_back"}


def test_the_service_budget_carries_a_per_game_root(settings):
    from games.play.analysis import _budget_json, analysis_budget

    settings.HADAL_ANALYSIS = {"iterations": 5, "per_game": {"ventlife": {"root": "cheap"}}}
    assert analysis_budget("ventlife").root == "cheap"
    assert analysis_budget("abyss").root is None
    assert _budget_json(analysis_budget("ventlife"))["root"] == "cheap"
    assert "root" not in _budget_json(analysis_budget("abyss"))
