"""Game options as a spec declares them: the kinds and their checks, before any game exists."""

from __future__ import annotations

import pytest

from games.rules.base import GameSpec, OptionSpec

FISH = ("cod", "eel", "ray", "gar", "hag")
PICK = OptionSpec(
    name="fish",
    kind="choice",
    default="usual",
    choices=("usual", "random"),
    subset_of=FISH,
    subset_size=3,
)
SPEC = GameSpec(
    slug="test",
    name="Test",
    min_players=2,
    max_players=4,
    version=1,
    options=(PICK, OptionSpec(name="fast", kind="bool", default=False)),
)


def test_a_subset_option_still_takes_one_of_its_choices():
    assert SPEC.validate(2, {"fish": "random"}) == {"fish": "random", "fast": False}
    assert SPEC.validate(2, {}) == {"fish": "usual", "fast": False}


def test_a_subset_option_takes_a_list_of_exactly_n_and_keeps_the_tables_order():
    assert SPEC.validate(3, {"fish": ["ray", "cod", "hag"]})["fish"] == ["cod", "ray", "hag"]


@pytest.mark.parametrize(
    "value, message",
    [
        (["cod", "eel"], "exactly 3"),
        (["cod", "eel", "ray", "gar"], "exactly 3"),
        (["cod", "cod", "eel"], "same item twice"),
        (["cod", "eel", "shark"], "'shark' is not one of"),
        (["cod", "eel", 3], "3 is not one of"),
        ("salmon", "must be one of"),
        ({"cod": 1}, "must be one of"),
    ],
)
def test_a_subset_option_refuses_a_bad_list_and_says_why(value, message):
    with pytest.raises(ValueError, match=message):
        SPEC.validate(2, {"fish": value})


def test_a_plain_choice_option_refuses_a_list():
    plain = OptionSpec(name="mode", kind="choice", default="a", choices=("a", "b"))
    with pytest.raises(ValueError, match="must be one of"):
        plain.validate(["a"])


def test_the_api_description_names_the_subset():
    described = PICK.to_json()
    assert described["subset_of"] == list(FISH) and described["subset_size"] == 3
    assert "subset_of" not in OptionSpec(name="x", kind="bool", default=True).to_json()
