"""A "How to play" page per game, in our words with the project's rulings, linked from the
game page."""

from __future__ import annotations

import pytest

from games.catalog import game_types
from games.play import services

TEST_ONLY_GAME = "pearl-race"  # tests/games/pearl_race.py, registered by some tests

pytestmark = pytest.mark.django_db

GAMES = sorted(slug for slug in game_types() if slug != TEST_ONLY_GAME)


@pytest.mark.parametrize("slug", GAMES)
def test_every_game_has_a_guide(client, slug):
    kind = game_types()[slug]
    page = client.get(f"/games/how-to-play/{slug}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert f"How to play {kind.name}" in text
    if kind.playable:
        assert "How Hadal rules where the rulebook is silent" in text
        assert "A turn" in text


def test_an_unknown_game_has_no_guide(client):
    assert client.get("/games/how-to-play/chess/").status_code == 404


def test_the_game_page_links_to_its_guide_and_explains_the_board(client, alice):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"bot": "random"}],
        options=None,
        created_by=alice,
    )
    text = client.get(f"/games/{game.pk}/").content.decode()
    assert 'href="/games/how-to-play/deep-sea-adventure/"' in text
    assert 'id="board-help"' in text and "Tap or hover over anything on the board" in text
