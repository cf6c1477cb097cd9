"""A link formatted per row is the URL that reversing it would give."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.pages.links import Link


@pytest.mark.parametrize("name", ["ann", "a.b+c@d", "bot-mcts", "ünï", "o'hara", "sp ace"])
def test_a_player_link_is_what_reverse_gives(name):
    assert Link("player", None)(name) == reverse("player", args=[name])


@pytest.mark.parametrize("table", [1, 80, 999999999, 1234567890])
def test_a_link_with_fixed_arguments_is_what_reverse_gives(table):
    assert Link("table-override", 7, None)(table) == reverse("table-override", args=[7, table])
    assert Link("game-detail", None)(table) == reverse("game-detail", args=[table])


def test_a_link_needs_the_argument_each_row_fills():
    with pytest.raises(ValueError):
        Link("game-detail", 3)
