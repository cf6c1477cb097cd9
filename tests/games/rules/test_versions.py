"""Every version of a game's rules stays runnable: get_rules(slug, version) gives that version,
its games say so and keep it through clones and their JSON form, and a version a game never
had is refused with the versions it has."""

from __future__ import annotations

import random

import pytest

from games.rules import get_rules, registered
from games.rules.base import StateFormatError, state_from_json
from games.rules.versions import Rules

VERSIONS = [
    (slug, number)
    for slug, module in sorted(registered().items())
    for number in module.spec.known_versions()
]


def test_the_rule_changes_of_this_service_are_versions():
    assert get_rules("deep-vents").spec.known_versions() == (1, 2)
    assert get_rules("abyss").spec.known_versions() == (1, 2)
    assert get_rules("deep-sea-adventure").spec.known_versions() == (1, 2)
    assert get_rules("ventlife").spec.known_versions() == (1,)


@pytest.mark.parametrize("slug", sorted(registered()))
def test_without_a_version_the_rules_are_the_newest(slug):
    rules = get_rules(slug)
    assert rules.spec.version == max(rules.spec.known_versions())
    assert rules.new_game().rules_version == rules.spec.version
    assert get_rules(slug, None) is rules


@pytest.mark.parametrize(("slug", "number"), VERSIONS)
def test_each_version_makes_games_of_that_version_that_keep_it(slug, number):
    rules = get_rules(slug, number)
    assert isinstance(rules, Rules) and rules is get_rules(slug, number)
    assert rules.spec.version == number and rules.spec.slug == slug
    assert rules.__name__ == registered()[slug].__name__  # the bundle names the module
    state = rules.new_game(rules.spec.min_players)
    rng = random.Random(number)
    for _ in range(30):  # a few steps in, so that the clone and the JSON form carry something
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    assert state.rules_version == number
    assert state.clone().rules_version == number
    rebuilt = state_from_json(rules, state.to_json())
    assert rebuilt.rules_version == number
    assert rebuilt.view(None) == state.view(None)


@pytest.mark.parametrize("slug", ["deep-vents", "abyss", "deep-sea-adventure"])
def test_a_state_of_one_version_is_not_read_as_another(slug):
    old, new = get_rules(slug, 1), get_rules(slug, 2)
    with pytest.raises(StateFormatError, match="rules version 1.*version 2"):
        state_from_json(new, old.new_game(2).to_json())


@pytest.mark.parametrize("bad", [0, 3, -1, "2", 2.0, True])
def test_a_version_the_game_never_had_is_refused_naming_those_it_has(bad):
    with pytest.raises(ValueError, match=r"Deep Vents has no rules version .*it has 1, 2"):
        get_rules("deep-vents", bad)
    with pytest.raises(ValueError, match="no rules version"):
        registered()["deep-vents"].new_game(2, None, version=bad)


def test_an_unknown_game_is_a_key_error():
    with pytest.raises(KeyError, match="unknown game 'chess'"):
        get_rules("chess", 1)


def test_each_version_is_described_in_the_games_words():
    for module in registered().values():
        for version in module.spec.versions:
            assert version.change.endswith(".") and "version" not in version.change.lower()
        assert [v.number for v in module.spec.versions] == sorted(
            v.number for v in module.spec.versions
        )


def test_an_old_version_keeps_its_own_spec_where_it_differed():
    dsa = get_rules("deep-sea-adventure")
    assert not dsa.spec.hidden_information
    assert get_rules("deep-sea-adventure", 1).spec.hidden_information
    assert get_rules("deep-vents", 1).spec.options == get_rules("deep-vents").spec.options
