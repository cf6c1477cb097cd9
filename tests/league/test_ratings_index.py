"""/ratings/ opens on the most played game's ladder, not on an empty one."""

from __future__ import annotations

import pytest

from league.models import Rating

pytestmark = pytest.mark.django_db


def rate(slug: str, users, games: int) -> None:
    Rating.objects.bulk_create(
        [
            Rating(
                user=user, slug=slug, rating=1500, games=games, openskill_mu=25, openskill_sigma=8
            )
            for user in users
        ]
    )


def test_ratings_open_on_the_most_played_game(client, alice, bob, make_user):
    carol = make_user("carol")
    rate("abyss", [alice, bob], 1)
    rate("ventlife", [alice, bob, carol], 4)
    rate("deep-vents", [alice, bob], 5)
    response = client.get("/ratings/")
    assert response.status_code == 302 and response["Location"] == "/ratings/ventlife/"


def test_ratings_with_nothing_rated_open_on_deep_sea_adventure(client):
    response = client.get("/ratings/")
    assert response["Location"] == "/ratings/deep-sea-adventure/"
