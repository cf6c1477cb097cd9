"""A tournament's clock, chosen on its form: seconds per move, or minutes per player with
seconds added each turn; its online tables get it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Game
from league.models import Tournament
from tests.league.test_pages import org, players, text, tournament_post  # noqa: F401

pytestmark = pytest.mark.django_db


def test_a_tournament_with_a_time_bank_gives_it_to_its_tables(client, org, players):  # noqa: F811
    client.force_login(org)
    response = client.post(
        reverse("tournament-new"),
        tournament_post(
            mode="online", bank_minutes="15", increment_seconds="10", on_timeout="forfeit"
        ),
    )
    tournament = Tournament.objects.get()
    assert tournament.time_control == {
        "bank_seconds": 900,
        "increment_seconds": 10,
        "on_timeout": "forfeit",
    }
    assert "15:00 each + 10 s a turn, then forfeit" in text(client.get(response.url))
    client.post(reverse("tournament-pair", args=[tournament.pk]))
    game = Game.objects.filter(table__isnull=False).first()
    assert game is not None and (game.bank_seconds, game.increment_seconds) == (900, 10)


def test_a_tournament_with_two_clocks_is_refused(client, org, players):  # noqa: F811
    client.force_login(org)
    response = client.post(
        reverse("tournament-new"),
        tournament_post(mode="online", move_seconds="30", bank_minutes="15"),
    )
    assert response.status_code == 200
    assert "Choose seconds per move or minutes per player." in text(response)
    assert not Tournament.objects.exists()
