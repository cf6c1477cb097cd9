"""Clocks like a game site's: a time bank per seat with an increment per turn beside the move
deadline, the API's ``clock``, and clocks that fire with no beat (Celery eager, ``make run``)."""

from __future__ import annotations

import time
import urllib.request
from datetime import timedelta

import pytest
from django.db.models import F
from django.utils import timezone

from games import tasks
from games.models import Event, Game
from games.play import reads, seating, services, sweeper

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
BANK = {"bank_seconds": 300, "increment_seconds": 10, "on_timeout": "random"}


def age(game, seconds: float) -> None:
    """Pretend the last append happened ``seconds`` earlier: every time on the row moves."""
    ago = timedelta(seconds=seconds)
    Game.objects.filter(pk=game.pk).update(
        moved_at=F("moved_at") - ago, updated_at=F("updated_at") - ago, deadline=F("deadline") - ago
    )


def banked_game(alice, bob, time_control=BANK, accept=True):
    game = services.game_create(
        slug=DSA,
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
        time_control=time_control,
    )
    if accept:
        seating.game_accept(game=game, seat=1, user=bob)
    return Game.objects.get(pk=game.pk)


def play_turn(game, user) -> Game:
    """The seat to play takes the first legal action until the turn passes to another seat."""
    seat = game.current_player
    while game.status == "active" and game.current_player == seat:
        action = reads.game_legal_actions(game=game, user=user, seat=seat)[0]
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=user
        )
        game = Game.objects.get(pk=game.pk)
    return game


def test_a_bank_clock_waits_for_every_seat_then_runs_for_the_seat_to_play(api, api_for, bob):
    response = api.post(
        "/api/games/",
        {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}], "time_control": BANK},
        format="json",
    )
    assert response.status_code == 201
    body = response.json()
    assert body["clock"] == {
        "kind": "bank",
        "deadline": None,  # bob has not taken his seat: no clock runs
        "running": None,
        "seats": [{"remaining": 300.0}, {"remaining": 300.0}],
    }
    assert body["time_control"] == {**BANK, "deadline": None}
    api_for(bob).post(f"/api/games/{body['id']}/accept/", {"seat": 1}, format="json")
    clock = api.get(f"/api/games/{body['id']}/").json()["clock"]
    assert clock["kind"] == "bank" and clock["running"] == 0
    assert 299 < clock["seats"][0]["remaining"] <= 300
    assert clock["seats"][1] == {"remaining": 300.0}
    assert clock["deadline"] is not None


def test_a_turn_spends_the_time_it_took_and_earns_the_increment(alice, bob):
    game = banked_game(alice, bob)
    age(game, 100)
    game = play_turn(Game.objects.get(pk=game.pk), alice)
    assert game.current_player == 1
    spent_and_earned = 300 - 100 + 10
    assert spent_and_earned - 1 < game.banks[0] <= spent_and_earned
    assert game.banks[1] == 300
    # bob's time now runs from this append, with all of his bank.
    assert game.deadline == game.moved_at + timedelta(seconds=300)
    # The time spent is the difference of append times, which the log holds too.
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert last.created_at == game.moved_at


def test_a_move_clock_shows_the_seconds_a_move_gets(api, alice, bob):
    game = banked_game(alice, bob, {"move_seconds": 60, "on_timeout": "random"})
    age(game, 20)
    clock = api.get(f"/api/games/{game.pk}/").json()["clock"]
    assert clock["kind"] == "move" and clock["running"] == 0
    assert 39 < clock["seats"][0]["remaining"] <= 40
    assert clock["seats"][1] == {"remaining": 60.0}


def test_a_game_without_a_clock_has_a_null_clock(api):
    response = api.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "alice"}, {"bot": "random"}]}, format="json"
    )
    assert response.json()["clock"] is None
    assert Game.objects.get().deadline is None


def test_an_empty_bank_is_a_timeout_a_new_event(alice, bob):
    game = banked_game(alice, bob)
    before = game.version
    age(game, 301)
    assert tasks.sweep_stalled_bots.apply().get() == 1
    timed_out = Event.objects.get(game=game, seq=before + 1)
    assert timed_out.kind == "ActionApplied" and timed_out.data["timeout"] is True
    game.refresh_from_db()
    assert game.banks[0] < 11  # nothing left but, once the turn passed, the increment


def test_an_empty_bank_with_forfeit_ends_a_two_player_game(alice, bob):
    game = banked_game(alice, bob, {**BANK, "on_timeout": "forfeit"})
    age(game, 301)
    assert tasks.sweep_stalled_bots.apply().get() == 1
    game.refresh_from_db()
    assert game.status == "finished" and game.deadline is None
    assert Event.objects.get(game=game, kind="SeatResigned").data == {"reason": "timeout"}


@pytest.mark.parametrize(
    "clock",
    [
        {"bank_seconds": 300, "move_seconds": 30},
        {"increment_seconds": 5},
        {"move_seconds": 30, "increment_seconds": 5},
        {"bank_seconds": 2},
        {"bank_seconds": 300, "increment_seconds": -1},
        {"bank_seconds": 300.5},
    ],
)
def test_a_bad_bank_clock_is_a_400(api, bob, clock):
    response = api.post(
        "/api/games/",
        {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}], "time_control": clock},
        format="json",
    )
    assert response.status_code == 400 and "time_control" in response.json()["error"]
    assert not Game.objects.exists()


def test_declining_stops_the_clock(alice, bob):
    game = banked_game(alice, bob, accept=False)
    seating.game_decline(game=game.pk, seat=1, user=bob)
    game.refresh_from_db()
    assert game.status == "void" and game.deadline is None


def test_a_tournament_gives_its_tables_a_bank_clock(api_for, make_user):
    organiser = api_for(make_user("org"))
    for name in ("ann", "ben"):
        make_user(name)
    response = organiser.post(
        "/api/tournaments/",
        {
            "name": "Rapid",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
            "time_control": BANK,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["time_control"] == BANK
    table = organiser.post(f"/api/tournaments/{response.json()['id']}/rounds/").json()["tables"][0]
    game = Game.objects.get(pk=table["game"])
    assert (game.bank_seconds, game.increment_seconds) == (300, 10)
    assert game.deadline is not None  # entrants are seated by entering: the clock runs


def new_game_post(**fields):
    data = {"game": DSA, "players": 2}
    for i in range(6):
        data[f"seat_{i}_who"] = "random"
        data[f"seat_{i}_user"] = ""
    return {**data, **fields}


def test_the_new_game_form_sets_a_bank_clock(client, alice, bob):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        new_game_post(
            seat_0_who="person",
            seat_0_user="alice",
            seat_1_who="person",
            seat_1_user="bob",
            bank_minutes=5,
            increment_seconds=3,
            on_timeout="forfeit",
        ),
    )
    assert response.status_code == 302
    game = Game.objects.get()
    assert (game.bank_seconds, game.increment_seconds, game.on_timeout) == (300, 3, "forfeit")


def test_the_new_game_form_refuses_two_clocks(client, alice):
    client.force_login(alice)
    response = client.post(
        "/games/new/",
        new_game_post(seat_0_who="person", seat_0_user="alice", move_seconds=30, bank_minutes=5),
    )
    assert response.status_code == 200
    assert "Choose seconds per move or minutes per player." in response.content.decode()
    assert not Game.objects.exists()


# -- clocks fire under make run (eager Celery, no beat) ---------------------------------------


@pytest.fixture
def sweeping(settings):
    settings.HADAL_EAGER_SWEEP_SECONDS = 0.1
    yield
    sweeper.stop()


@pytest.mark.django_db(transaction=True)
def test_under_make_run_an_online_tournament_clock_fires(live_server, api_for, make_user, sweeping):
    """The issue's report: an online tournament's 10-second move clock, under ``make run``
    (eager Celery, no beat), never fired; after 25 s the game had not moved."""
    organiser = api_for(make_user("org"))
    for name in ("ann", "ben"):
        make_user(name)
    tid = organiser.post(
        "/api/tournaments/",
        {
            "name": "Blitz",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
            "time_control": {"move_seconds": 10, "on_timeout": "random"},
        },
        format="json",
    ).json()["id"]
    table = organiser.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    game = Game.objects.get(pk=table["game"])
    age(game, 11)  # the ten seconds have passed
    # The web process is serving: someone looks at the game (any request would do).
    with urllib.request.urlopen(f"{live_server.url}/api/games/{game.pk}/") as answer:
        assert answer.status == 200
    waited = time.monotonic()
    while time.monotonic() - waited < 20:  # a loaded machine may be slow
        if Game.objects.get(pk=game.pk).version > game.version:
            break
        time.sleep(0.1)
    moved = Event.objects.get(game=game, seq=game.version + 1)
    assert moved.kind == "ActionApplied" and moved.data["timeout"] is True


def test_the_sweep_thread_stays_off_with_a_real_worker(settings, client, sweeping):
    from config.celery import app

    app.conf.task_always_eager = False  # the fixture _celery_mode puts it back
    client.get("/api/games/types/")
    assert not sweeper.running()
    app.conf.task_always_eager = True
    client.get("/api/games/types/")
    assert sweeper.running()


def test_an_expired_clock_before_the_deadline_column_existed_is_found(alice, bob):
    """Games with a running move clock when the deadline column came (migration 0015) got one."""
    from importlib import import_module

    from django.apps import apps

    game = banked_game(alice, bob, {"move_seconds": 60, "on_timeout": "random"})
    Game.objects.filter(pk=game.pk).update(deadline=None, moved_at=timezone.now())
    migration = import_module("games.migrations.0015_clocks_and_open_seats")
    from types import SimpleNamespace

    from django.db import connection

    migration.running_clocks(apps, SimpleNamespace(connection=connection))  # what it reads
    game.refresh_from_db()
    assert game.deadline == game.moved_at + timedelta(seconds=60)


class FakeClock:
    """timezone.now under the test's control: time passes only when the test says so."""

    def __init__(self):
        self.now = timezone.now()

    def __call__(self):
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def test_the_banks_on_the_row_are_the_banks_the_log_gives(alice, bob, monkeypatch):
    """Bank bookkeeping is derivable: folding the log's append times through the same rule
    gives the row's banks and deadline, turn after turn."""
    from games.play import clocks
    from games.store import new_state

    clock = FakeClock()
    monkeypatch.setattr(timezone, "now", clock)
    game = banked_game(alice, bob, accept=False)
    clock.wait(40)  # bob takes his time accepting: nobody's clock runs meanwhile
    seating.game_accept(game=game.pk, seat=1, user=bob)
    players = {0: alice, 1: bob}
    spent = {0: 0.0, 1: 0.0}
    turns = {0: 0, 1: 0}
    for think in (12, 30, 7, 55, 3):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            break
        seat = game.current_player
        clock.wait(think)
        spent[seat] += think
        turns[seat] += 1
        play_turn(game, players[seat])
    game = Game.objects.get(pk=game.pk)
    events = list(Event.objects.filter(game=game).order_by("seq"))
    derived = clocks.from_log(events[0].data["time_control"], events, new_state(game))
    assert derived == {"banks": game.banks, "deadline": game.deadline}
    for seat in (0, 1):  # time spent off, the increment on, per turn that passed
        assert game.banks[seat] == 300 - spent[seat] + 10 * turns[seat]
