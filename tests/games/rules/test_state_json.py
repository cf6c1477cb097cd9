"""A state's JSON form (what a snapshot stores) rebuilds the very same game, and nothing else.

Every registered game, over the conformance suite's seeded random playthroughs: each kept
state, and a resampled one (the bots' determinisations), goes through to_json, json.dumps,
json.loads and state_from_json, and must come back with the same views, legal actions, chance
outcomes and player to act, then play on to the same result. A JSON form that does not fit
the game's State (a field missing, extra or of another type, a value no state holds) is
refused.
"""

from __future__ import annotations

import copy
import json
import random
import types

import pytest

from games.rules import abyss, base, deep_sea_adventure, deep_vents, deep_vents_data, ventlife
from games.rules.abyss import data as abyss_data
from games.rules.base import TERMINAL, StateFormatError, fields_of, state_from_json
from tests.games.rules.test_conformance import (
    all_views,
    canonical,
    playthroughs,
    random_action,
    rules,  # noqa: F401  (the fixture, shared)
    seats,
)

PLAYED_OUT_GAMES = 12  # playthroughs whose every kept state is rebuilt and played to the end
RESAMPLED_GAMES = 25  # playthroughs whose kept states are also resampled, rebuilt, played on
PLAYED_ON = 8  # random actions played on from a rebuilt resampled state


def round_trip(rules, state):
    return state_from_json(rules, json.loads(json.dumps(state.to_json())))


def assert_same_game(rebuilt, state, where: str) -> None:
    assert type(rebuilt) is type(state), where
    assert rebuilt.current_player == state.current_player, where
    assert canonical(rebuilt.legal_actions()) == canonical(state.legal_actions()), where
    if state.is_chance_node():
        assert canonical(rebuilt.chance_outcomes()) == canonical(state.chance_outcomes()), where
    assert all_views(rebuilt) == all_views(state), where
    # Deeper than the views (a tuple is no list); caches brought up to date when needed may
    # differ, while the legal actions above may not.
    assert rebuilt.facts() == state.facts(), where


def test_every_kept_state_rebuilds_to_the_same_game(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version):
        for step, kept in record.checkpoints.items():
            state = kept.clone()
            assert_same_game(round_trip(rules, state), state, f"{record.seed} step {step}")


def test_a_rebuilt_state_plays_on_to_the_same_result(rules):
    for record in playthroughs(rules.spec.slug, rules.spec.version)[:PLAYED_OUT_GAMES]:
        for step, kept in record.checkpoints.items():
            rebuilt = round_trip(rules, kept.clone())
            for later, action in enumerate(record.actions[step:], start=step + 1):
                rebuilt.apply(copy.deepcopy(action))
                if later in record.views:
                    assert all_views(rebuilt) == record.views[later], (
                        f"{record.seed}: rebuilt at step {step}, differs at step {later}"
                    )
            assert rebuilt.result() == record.final.result(), f"{record.seed} step {step}"
            # Caches (brought up to date when needed) may differ; the game itself may not.
            assert rebuilt.facts() == record.final.facts(), f"{record.seed} step {step}"


def test_a_resampled_state_rebuilds_and_plays_on_alike(rules):
    rng = random.Random(f"{rules.spec.slug}:json")
    for record in playthroughs(rules.spec.slug, rules.spec.version)[:RESAMPLED_GAMES]:
        for step, kept in record.checkpoints.items():
            where = f"{record.seed} step {step}"
            sample = kept.resample_hidden(rng.choice(seats(kept)), rng)
            rebuilt = round_trip(rules, sample)
            assert_same_game(rebuilt, sample, where)
            for _ in range(PLAYED_ON):
                if sample.is_terminal():
                    break
                action = random_action(sample, rng)
                sample.apply(copy.deepcopy(action))
                rebuilt.apply(action)
            assert_same_game(rebuilt, sample, f"{where}, played on")


def test_dicts_keep_their_order_and_their_keys_types():
    state = deep_vents.new_game(2)
    state._where[0] = {(2, -1): 1, (0, 0): 0, (-1, 1): 2}
    state._where[1] = {3: "c", 1: "a", 2: "b"}
    rebuilt = round_trip(deep_vents, state)
    assert list(rebuilt._where[0]) == [(2, -1), (0, 0), (-1, 1)]
    assert list(rebuilt._where[1].items()) == [(3, "c"), (1, "a"), (2, "b")]


# -- what is refused -------------------------------------------------------------------------


def some_json_form(rules) -> dict:
    """The JSON form of a state some way into a game, so its fields hold more than defaults."""
    record = playthroughs(rules.spec.slug, rules.spec.version)[0]
    step = max(record.checkpoints)
    return json.loads(json.dumps(record.checkpoints[step].to_json()))


def test_a_missing_field_is_refused(rules):
    data = some_json_form(rules)
    for name in data:
        partial = {k: v for k, v in data.items() if k != name}
        with pytest.raises(StateFormatError, match=name):
            state_from_json(rules, partial)


def test_an_extra_field_is_refused(rules):
    data = some_json_form(rules)
    with pytest.raises(StateFormatError, match="unknown: _renamed"):
        state_from_json(rules, {**data, "_renamed": 0})


def test_a_field_of_another_type_is_refused(rules):
    data = some_json_form(rules)
    rebuilt = state_from_json(rules, data)
    fresh = rules.new_game(rebuilt.num_players, rebuilt.options)
    for name, value in fields_of(fresh).items():
        if value is None or name in ("num_players", "options"):
            continue
        other = {"tuple": []} if isinstance(value, list) else []
        with pytest.raises(StateFormatError, match=f"field {name} holds a"):
            state_from_json(rules, {**data, name: other})


@pytest.mark.parametrize(
    "value",
    [
        {"__class__": "os.system"},  # no tag names a class
        {"known": "os.system"},  # nor any object the game did not list
        {"pickle": "gASVAAAAAAAAAAA="},
        {"tuple": [], "set": []},  # a tag has one key
        {"tuple": "abc"},
        {"dict": [[1, 2, 3]]},  # pairs are pairs
        {"dict": [[[1], 2]]},  # a key must be hashable
        {"set": [[1, 2]]},
    ],
)
def test_a_value_no_state_holds_is_refused(value):
    rules = deep_sea_adventure
    data = rules.new_game(3).to_json()
    with pytest.raises(StateFormatError, match="not part of a state's JSON form"):
        state_from_json(rules, {**data, "_trail": [value]})


@pytest.mark.parametrize("data", [None, [], "state", {"_round": 1}])
def test_what_is_not_an_object_of_fields_is_refused(data):
    with pytest.raises(StateFormatError, match="object of its fields"):
        state_from_json(deep_sea_adventure, data)


def test_players_or_options_no_new_game_has_are_refused():
    data = deep_sea_adventure.new_game(3).to_json()
    with pytest.raises(StateFormatError, match="no new game"):
        state_from_json(deep_sea_adventure, {**data, "num_players": 9})
    with pytest.raises(StateFormatError, match="no new game"):
        state_from_json(deep_sea_adventure, {**data, "options": {"dict": [["turbo", True]]}})


# -- objects a game names ----------------------------------------------------------------------

_SENTINEL = object()
_LORD = abyss_data.LORDS[3]
_HEX = deep_vents_data.HEXES[5]


class HoldingState(base.State):
    """A state of no game but this test's (a game's own State may be compiled, and a compiled
    class takes no subclass here): a trail that may hold table entries and a sentinel object."""

    _json_known = {f"lord:{_LORD.name}": _LORD, f"hex:{_HEX.name}": _HEX, "blank": _SENTINEL}

    def __init__(self, num_players, options):
        super().__init__(num_players, options)
        self._trail = [0] * 8

    def _current_player(self):
        return TERMINAL

    def _legal_actions(self):
        return []

    def _apply(self, action):
        raise AssertionError("nothing to apply")

    def view(self, seat):
        return {}

    def _scores(self):
        return [0] * self.num_players


holding_rules = types.SimpleNamespace(
    new_game=lambda num_players, options: HoldingState(num_players, dict(options))
)


def test_named_objects_come_back_as_the_same_objects():
    state = holding_rules.new_game(2, {})
    state._trail[:3] = [_LORD, (_HEX, 2), _SENTINEL]
    data = json.loads(json.dumps(state.to_json()))
    assert data["_trail"][:3] == [
        {"known": f"lord:{_LORD.name}"},
        {"tuple": [{"known": f"hex:{_HEX.name}"}, 2]},
        {"known": "blank"},
    ]
    rebuilt = state_from_json(holding_rules, data)
    assert rebuilt._trail[0] is _LORD and rebuilt._trail[1][0] is _HEX
    assert rebuilt._trail[2] is _SENTINEL


def test_an_object_a_game_did_not_name_is_neither_encoded_nor_decoded():
    state = holding_rules.new_game(2, {})
    data = state.to_json()
    state._trail[0] = abyss_data.LORDS[4]
    with pytest.raises(TypeError, match="_json_known"):
        state.to_json()
    with pytest.raises(StateFormatError, match="not part of a state's JSON form"):
        state_from_json(holding_rules, {**data, "_trail": [{"known": "lord:Seeker"}]})


def test_a_snapshot_holding_the_options_computed_eagerly_is_refused():
    """Before options were computed lazily, Abyss kept the decision's options in ``_options``
    and Ventlife its list in ``_legal`` and its placements as a set: such snapshots are refused
    (and the store replays from the events) rather than loaded half-stale."""
    state = abyss.new_game(3)
    old = state.to_json()
    old["_options"] = [{"type": "explore"}]
    with pytest.raises(StateFormatError, match="_options"):
        state_from_json(abyss, old)

    state = ventlife.new_game(2)
    old = state.to_json()
    old["_legal"] = None
    old["_tile_spots"] = {"set": []}
    del old["_spots_due"], old["_tile_key_set"], old["_tile_keys"]
    with pytest.raises(StateFormatError, match="_spots_due"):
        state_from_json(ventlife, old)

    # Until the placements were kept as ints, a snapshot held them as (r, q, rotation) triples.
    ventlife_game = ventlife.new_game(2)
    for _ in range(6):
        ventlife_game.apply(ventlife_game.legal_actions()[0])
    old = ventlife_game.to_json()
    old["_tile_spots"] = {"tuple": [{"tuple": [0, 1, 2]}]}
    old["_tile_spot_set"] = {"set": [{"tuple": [0, 1, 2]}]}
    del old["_tile_keys"], old["_tile_key_set"]
    with pytest.raises(StateFormatError, match="_tile_keys.*_tile_spot_set"):
        state_from_json(ventlife, old)
