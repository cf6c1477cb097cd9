"""The game page tells each viewer the truth while a game waits (issue 37): a game waiting for
an invitee says so to everyone, inviter and invitee included, never "your turn"; a player
seated at a table log is a player there, not someone watching."""

from __future__ import annotations

import pytest

from games.models import Game
from games.play import services

pytestmark = pytest.mark.django_db


def turn_line(page: str) -> str:
    start = page.index('id="game-turn"')
    return page[page.index(">", start) + 1 : page.index("</span>", start)]


@pytest.fixture
def invitation(alice, bob):
    return services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )


def test_a_game_waiting_for_an_invitee_says_so_to_everyone(
    client, invitation, alice, bob, make_user
):
    assert invitation.current_player == 0  # alice, the inviter, would be to play
    for viewer in (alice, bob, make_user("carol"), None):
        client.logout()
        if viewer is not None:
            client.force_login(viewer)
        page = client.get(f"/games/{invitation.pk}/").content.decode()
        assert turn_line(page) == "Waiting for bob to accept"
    client.force_login(bob)
    page = client.get(f"/games/{invitation.pk}/").content.decode()
    assert "You are invited" in page and ">Accept</button>" in page and ">Decline</button>" in page


def test_the_games_list_does_not_call_it_the_inviters_turn(client, invitation, alice):
    client.force_login(alice)
    page = client.get("/").content.decode()
    assert "waiting for bob to accept" in page
    assert "<strong>your turn</strong>" not in page


def test_once_accepted_the_turn_is_the_players_again(client, invitation, alice, bob):
    client.force_login(bob)
    client.post(f"/games/{invitation.pk}/accept/", {"seat": 1})
    assert Game.objects.get(pk=invitation.pk).seats.get(index=1).accepted
    page = client.get(f"/games/{invitation.pk}/").content.decode()
    assert turn_line(page) == "to play: alice"


def test_a_player_seated_at_a_table_log_is_not_told_they_are_watching(api, client, bob, make_user):
    made = api.post(
        "/api/games/",
        {
            "game": "ventlife",
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "alice"}, {"user": "bob"}],
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    client.force_login(bob)
    page = client.get(f"/games/{made.json()['id']}/").content.decode()
    assert "You are watching this game" not in page
    assert "You play at this table; alice enters its moves here." in page
    client.force_login(make_user("dora"))  # not seated: she is watching
    page = client.get(f"/games/{made.json()['id']}/").content.decode()
    assert "You are watching this game" in page
