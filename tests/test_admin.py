"""The admin lists games, events, ratings, leagues and tournaments; logs are read-only."""

import pytest
from django.utils.text import capfirst

from games import services
from games.models import Event, Game

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    return client


@pytest.mark.parametrize(
    "path",
    [
        "games/game",
        "games/event",
        "league/rating",
        "league/ratingchange",
        "league/league",
        "league/tournament",
        "league/round",
    ],
)
def test_every_admin_list_renders(staff, path):
    assert staff.get(f"/admin/{path}/").status_code == 200


def test_events_are_read_only_in_the_admin(staff, alice, bob):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    event = Event.objects.get(game=game, seq=1)
    page = staff.get(f"/admin/games/event/{event.pk}/change/")
    assert page.status_code == 200 and b'name="kind"' not in page.content
    assert staff.post(f"/admin/games/event/{event.pk}/delete/").status_code == 403
    assert staff.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    assert Event.objects.filter(game=game).count() == 1


def test_the_admin_shows_every_game_column_and_a_posted_change_form_changes_none(staff, alice, bob):
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
        time_control={"move_seconds": 60, "on_timeout": "random"},
    )
    before = Game.objects.filter(pk=game.pk).values().get()
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    for field in Game._meta.concrete_fields:
        assert f"<label>{capfirst(field.verbose_name)}:</label>" in page, field.name
        assert f'name="{field.name}"' not in page, field.name
    response = staff.post(
        f"/admin/games/game/{game.pk}/change/",
        {
            "mode": "record",
            "move_seconds": "1",
            "on_timeout": "forfeit",
            "status": "void",
            "version": "99",
            "seats-TOTAL_FORMS": "0",
            "seats-INITIAL_FORMS": "0",
            "events-TOTAL_FORMS": "0",
            "events-INITIAL_FORMS": "0",
        },
    )
    assert response.status_code == 403
    assert Game.objects.filter(pk=game.pk).values().get() == before  # updated_at included
