"""The home page, the front door: what Hadal is, its five games each with a picture drawn from
its board, its number of players and a "Play a bot now"; what waits for a member first; the
clubs' and tournaments' doors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.urls import reverse

from accounts.bots import bot_level
from games.catalog import game_types
from games.models import Game

pytestmark = pytest.mark.django_db

PLAYABLE = [slug for slug, kind in game_types().items() if kind.playable]


def cards(response) -> dict[str, str]:
    """Each game card's HTML by the game it offers."""
    body = response.content.decode()
    found = re.findall(r'<li class="game-card" id="play-([a-z-]+)">(.*?)</li>', body, re.S)
    return dict(found)


def test_a_visitor_is_told_what_hadal_is_and_shown_the_five_games(client):
    response = client.get("/")
    body = response.content.decode()
    assert "Hadal is a free site for five board games of the deep sea" in body
    shown = cards(response)
    assert sorted(shown) == sorted(game_types())
    for slug, card in shown.items():
        kind = game_types()[slug]
        assert f"img/games/{slug}" in card and kind.name in card
        assert f"{kind.min_players} to {kind.max_players} players" in card
        assert reverse("how-to-play", args=[slug]) in card
    # A visitor's "Play a bot now" is a way to sign in and come back here.
    for slug in PLAYABLE:
        assert "Play a bot now" in shown[slug]
        assert '/accounts/login/?next=%2F"' in shown[slug]
    # Oceans is played at the table: recorded, with no bot to play.
    assert "Play a bot now" not in shown["oceans"]
    assert f"{reverse('match-new')}?game=oceans" in shown["oceans"]
    # The clubs' and tournaments' doors.
    assert f'href="{reverse("leagues")}"' in body and f'href="{reverse("tournaments")}"' in body


def test_each_game_has_its_own_picture():
    pictures = Path(settings.BASE_DIR) / "static" / "img" / "games"
    for slug in game_types():
        drawing = (pictures / f"{slug}.svg").read_text()
        assert drawing.startswith("<svg") and 'viewBox="0 0 240 150"' in drawing


def test_a_member_plays_a_bot_in_one_click(client, alice):
    client.force_login(alice)
    shown = cards(client.get("/"))
    for slug in PLAYABLE:
        assert f'action="{reverse("game-against-bot", args=[slug])}"' in shown[slug]

    response = client.post(reverse("game-against-bot", args=["abyss"]))

    game = Game.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/games/{game.pk}/"
    assert game.slug == "abyss"
    seats = list(game.seats.order_by("index"))
    assert seats[0].user == alice and bot_level(seats[1].user.username) == "greedy"
    # It is on: the member's page shows the game at once.
    assert client.get(response["Location"]).status_code == 200


def test_a_visitor_asking_to_play_a_bot_signs_in_first(client):
    response = client.post(reverse("game-against-bot", args=["deep-vents"]))
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/?next=/"
    assert not Game.objects.exists()


@pytest.mark.parametrize("slug", ["oceans", "chess"])
def test_no_bot_for_a_game_not_played_here(client, alice, slug):
    client.force_login(alice)
    assert client.post(reverse("game-against-bot", args=[slug])).status_code == 404
    assert not Game.objects.exists()


def test_play_a_bot_is_a_post(client, alice):
    client.force_login(alice)
    assert client.get(reverse("game-against-bot", args=["abyss"])).status_code == 405
    assert not Game.objects.exists()


def test_a_member_is_shown_what_waits_for_them_first(
    client, alice, bob, django_capture_on_commit_callbacks
):
    from games.play import services

    with django_capture_on_commit_callbacks(execute=True):  # the invitation's notice
        services.game_create(
            slug="deep-sea-adventure",
            seats=[{"user": "bob"}, {"user": "alice"}],
            options={},
            created_by=bob,
        )
    client.force_login(alice)
    body = client.get("/").content.decode()
    waiting = body.index('id="waiting-for-you"')
    assert "bob" in body[waiting : body.index("</section>", waiting)]
    assert waiting < body.index('class="front-games"')
    assert "Hadal is a free site" not in body  # the introduction is for visitors
