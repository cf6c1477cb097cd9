"""The admin lists games, events, ratings, leagues and tournaments; logs are read-only."""

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils.text import capfirst

from games.admin import LAST_EVENTS, EstimatedCountPaginator
from games.models import Event, Game
from games.play import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", "root@example.org", "pw")
    client.force_login(admin)
    return client


def alice_and_bob(alice, **kwargs):
    """A Deep Sea Adventure game alice created, alice against bob."""
    return services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
        **kwargs,
    )


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
    game = alice_and_bob(alice)
    event = Event.objects.get(game=game, seq=1)
    page = staff.get(f"/admin/games/event/{event.pk}/change/")
    assert page.status_code == 200 and b'name="kind"' not in page.content
    assert staff.post(f"/admin/games/event/{event.pk}/delete/").status_code == 403
    assert staff.get(f"/admin/games/game/{game.pk}/change/").status_code == 200
    assert Event.objects.filter(game=game).count() == 1


def test_the_admin_shows_every_game_column_and_a_posted_change_form_changes_none(staff, alice, bob):
    game = alice_and_bob(alice, time_control={"move_seconds": 60, "on_timeout": "random"})
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


def test_the_event_list_shows_each_events_cells_and_links_to_it(staff, alice, bob):
    game = alice_and_bob(alice)
    event = Event.objects.get(game=game, seq=1)
    page = staff.get("/admin/games/event/").content.decode()
    row = re.search(
        rf'<tr><th class="field-game"><a href="/admin/games/event/{event.pk}/change/">'
        r"(.*?)</tr>",
        page,
    )
    assert row, page
    cells = re.findall(r"<t[dh][^>]*>(?:<a [^>]*>)?(.*?)(?:</a>)?</t[dh]>", row.group(0))
    assert cells[:5] == [f"deep-sea-adventure #{game.pk}", "1", "Game Created", "-", "alice"]
    assert 'class="sortoptions"' not in page and "?o=" not in page  # one order, the newest first
    filtered = staff.get(f"/admin/games/event/?game__id__exact={game.pk + 1}").content.decode()
    assert f"/admin/games/event/{event.pk}/change/" not in filtered


def test_a_games_page_shows_its_seats_and_its_last_events_newest_first(staff, alice, bob):
    game = alice_and_bob(alice)
    last = Event.objects.filter(game=game).order_by("seq").last()
    Event.objects.bulk_create(
        Event(
            game=game,
            seq=last.seq + n,
            batch=last.seq + n,
            kind="ActionApplied",
            data={"roll": n},
            seat=0,
            actor=alice,
        )
        for n in range(1, LAST_EVENTS + 5)
    )
    page = staff.get(f"/admin/games/game/{game.pk}/change/").content.decode()
    assert "<td>0</td><td>alice</td><td>-</td><td>no</td>" in page
    assert "<td>1</td><td>bob</td><td>-</td><td>no</td>" in page
    shown = [int(seq) for seq in re.findall(r'/admin/games/event/\d+/change/">(\d+)</a>', page)]
    newest = last.seq + LAST_EVENTS + 4
    assert shown == list(range(newest, newest - LAST_EVENTS, -1))
    data = "<code>{{&quot;roll&quot;: {}}}</code>"
    assert data.format(LAST_EVENTS + 4) in page and data.format(4) not in page


class SmallCounts(EstimatedCountPaginator):
    EXACT_UP_TO = 5
    ESTIMATE_FROM = 50


@pytest.mark.postgres
def test_a_large_unfiltered_list_takes_the_planners_estimate_in_one_query(alice):
    Event.objects.bulk_create(
        Event(game_id=1, seq=n, batch=n, kind="ActionApplied", data={}, actor=alice)
        for n in range(1, 8)
    )
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE games_event")
    events = Event.objects.order_by("-id")
    with CaptureQueriesContext(connection) as queries:
        assert SmallCounts(events, 2).count == 7  # counted: the estimate is small
    assert len(queries) == 1
    assert SmallCounts(events.filter(seq__lte=3), 2).count == 3
    assert SmallCounts(events.filter(seq__lte=6), 2).count == 6  # "at least", when filtered
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pg_class SET reltuples = 5000 WHERE oid = 'games_event'::regclass")
    with CaptureQueriesContext(connection) as queries:
        assert SmallCounts(events, 2).count == 5000  # the estimate, in the one query
    assert len(queries) == 1
    with connection.cursor() as cursor:
        cursor.execute("UPDATE pg_class SET reltuples = 40 WHERE oid = 'games_event'::regclass")
    assert SmallCounts(events, 2).count == 40  # counted past the exact bound: the estimate
