"""The new-game form's option fields, including a subset option's checkboxes."""

from __future__ import annotations

import types

import pytest

from games.pages import forms as game_forms
from games.rules import registered
from games.rules.base import GameSpec, OptionSpec

pytestmark = pytest.mark.django_db

FISH = ("cod", "eel", "ray", "gar", "hag")
SPEC = GameSpec(
    slug="fishing",
    name="Fishing",
    min_players=2,
    max_players=4,
    version=1,
    options=(
        OptionSpec(
            name="fish",
            kind="choice",
            default="usual",
            choices=("usual", "random"),
            subset_of=FISH,
            subset_size=3,
        ),
    ),
)


@pytest.fixture
def with_fishing(monkeypatch):
    games = {**registered(), "fishing": types.SimpleNamespace(spec=SPEC)}
    monkeypatch.setattr(game_forms, "registered", lambda: games)


def form_data(**fields):
    seats = {f"seat_{i}_who": "random" for i in range(1, 6)}
    return {
        "game": "fishing",
        "players": "2",
        "seat_0_who": "person",
        "seat_0_user": "alice",
        **seats,
        **fields,
    }


def form(alice, **fields):
    data = form_data(**fields)
    bound = game_forms.NewGameForm(data, user=alice)
    assert bound.is_valid(), bound.errors
    return bound


def test_ticked_items_become_the_options_list(with_fishing, alice):
    chosen = form(
        alice, option_fishing_fish="random", option_fishing_fish_pick=["ray", "cod", "hag"]
    ).options()
    assert chosen == {"fish": ["ray", "cod", "hag"]}  # the spec puts them in order later
    assert SPEC.validate(2, chosen)["fish"] == ["cod", "ray", "hag"]


def test_without_ticks_the_choice_is_sent(with_fishing, alice):
    assert form(alice, option_fishing_fish="random").options() == {"fish": "random"}


def test_the_checkboxes_are_drawn_in_the_games_options(with_fishing, alice):
    groups = game_forms.NewGameForm(user=alice).option_groups()
    fields = next(fields for spec, fields in groups if spec.slug == "fishing")
    assert [field.name for field in fields] == ["option_fishing_fish", "option_fishing_fish_pick"]
    assert 'type="checkbox"' in str(fields[1]) and 'value="gar"' in str(fields[1])


def test_an_unknown_tick_is_a_form_error(with_fishing, alice):
    bound = game_forms.NewGameForm(form_data(option_fishing_fish_pick=["shark"]), user=alice)
    assert not bound.is_valid()
    assert "option_fishing_fish_pick" in bound.errors
