"""Clocks that wait for a member away from the board (games.play.away, accounts.vacations):
a correspondence clock (a day or more a move) stops with a ClockPaused event and runs again
with what it had left with a ClockResumed, the log alone giving the same clock; the sweep
times out no seat that waits; a day taken instead of a timeout where the member opted in."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts import vacations
from accounts.models import Vacation
from games.models import Event, Game
from games.play import away, clocks, reads, seating, services, sweeper
from games.store import new_state
from inbox.models import Notice

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"
DAY = 86400
MOVE = {"move_seconds": 2 * DAY, "on_timeout": "random"}
BANK = {"bank_seconds": DAY, "increment_seconds": 0, "on_timeout": "random"}


class FakeClock:
    """timezone.now under the test's control: time passes only when the test says so."""

    def __init__(self):
        self.now = timezone.now().replace(month=3, day=2)  # well inside one calendar year

    def __call__(self):
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(timezone, "now", fake)
    return fake


def two_player(alice, bob, time_control) -> Game:
    game = services.game_create(
        slug=DSA,
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
        time_control=time_control,
    )
    seating.game_accept(game=game, seat=1, user=bob)
    return Game.objects.get(pk=game.pk)


def play_turn(game, user) -> Game:
    seat = game.current_player
    while game.status == "active" and game.current_player == seat:
        action = reads.game_legal_actions(game=game, user=user, seat=seat)[0]
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=action, user=user
        )
        game = Game.objects.get(pk=game.pk)
    return game


def from_log(game) -> dict:
    events = list(Event.objects.filter(game=game).order_by("seq"))
    return clocks.from_log(events[0].data["time_control"], events, new_state(game))


def row_clock(game) -> dict:
    columns = {"banks": game.banks, "deadline": game.deadline}
    return columns | ({"paused": game.paused} if game.paused is not None else {})


def kinds(game) -> list[str]:
    return list(Event.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))


def test_a_move_clock_paused_mid_turn_gives_back_what_it_had_left(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    assert game.current_player == 0 and clocks.is_correspondence(game)
    clock.wait(3600)
    away.seat_pause(game_id=game.pk, seat=0, pause=True)
    game.refresh_from_db()
    assert game.deadline is None  # no clock runs while alice is away
    assert game.paused == {"seats": [0], "left": 2 * DAY - 3600}
    assert row_clock(game) == from_log(game)
    paused = Event.objects.filter(game=game, kind="ClockPaused").get()
    assert paused.seat == 0 and paused.data == {}  # the seat and the time: nothing hidden

    clock.wait(5 * DAY)  # longer than the move had: away, it is not charged
    assert services.game_timeout(game_id=game.pk, seat=0, version=game.version) is None
    away.seat_pause(game_id=game.pk, seat=0, pause=False)
    game.refresh_from_db()
    assert game.paused is None
    assert game.deadline == clock.now + timedelta(seconds=2 * DAY - 3600)
    assert row_clock(game) == from_log(game)
    assert kinds(game)[-2:] == ["ClockPaused", "ClockResumed"]
    assert game.deadline - game.moved_at == timedelta(seconds=2 * DAY - 3600)


def test_a_bank_is_not_charged_while_its_player_is_away(alice, bob, clock):
    game = two_player(alice, bob, BANK)
    clock.wait(1000)
    away.seat_pause(game_id=game.pk, seat=0, pause=True)
    clock.wait(3 * DAY)
    away.seat_pause(game_id=game.pk, seat=0, pause=False)
    clock.wait(500)
    game = play_turn(Game.objects.get(pk=game.pk), alice)
    assert game.current_player == 1
    assert game.banks == [DAY - 1500, DAY]  # 1000 s before, 500 s after; the days away free
    assert row_clock(game) == from_log(game)


def test_a_turn_that_reaches_a_seat_away_waits_for_it_in_full(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    away.seat_pause(game_id=game.pk, seat=1, pause=True)  # bob away while alice plays
    game.refresh_from_db()
    assert game.deadline is not None  # alice's clock runs on
    clock.wait(600)
    game = play_turn(game, alice)
    assert game.current_player == 1 and game.deadline is None
    clock.wait(4 * DAY)
    away.seat_pause(game_id=game.pk, seat=1, pause=False)
    game.refresh_from_db()
    assert game.deadline == clock.now + timedelta(seconds=2 * DAY)
    assert row_clock(game) == from_log(game)


def test_the_sweep_times_out_no_seat_that_waits(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    away.seat_pause(game_id=game.pk, seat=0, pause=True)
    before = kinds(Game.objects.get(pk=game.pk))
    clock.wait(10 * DAY)
    sweeper.sweep()
    assert kinds(game) == before


def test_a_vacation_stops_correspondence_clocks_only_and_says_so(alice, bob, clock):
    slow = two_player(alice, bob, MOVE)
    fast = two_player(alice, bob, {"move_seconds": 60, "on_timeout": "random"})
    vacations.vacation_away_now(user=alice)
    assert kinds(slow)[-1] == "ClockPaused"
    assert "ClockPaused" not in kinds(fast)  # a fast game is played at the board
    fast.refresh_from_db()
    assert fast.deadline is not None
    notice = Notice.objects.get(user=alice, kind="vacation")
    assert (
        notice.text == "You are away from the board: your clock in 1 game waits until you are back"
    )

    clock.wait(2 * DAY + 60)
    vacations.vacation_back(user=alice)
    slow.refresh_from_db()
    assert kinds(slow)[-1] == "ClockResumed" and slow.deadline is not None
    back = Notice.objects.filter(user=alice, kind="vacation").exclude(pk=notice.pk).get()
    assert back.text == "You are back at the board: your clock in 1 game runs again"
    assert vacations.days_left(user=alice) == vacations.allowance() - 3  # two days and a minute


def test_the_opponents_page_says_who_is_away_and_until_when(client, alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    vacations.vacation_schedule(
        user=alice, starts_at=clock.now, ends_at=clock.now + timedelta(days=3)
    )
    client.force_login(bob)
    page = client.get(f"/games/{game.pk}/").content.decode()
    until = vacations.when(clock.now + timedelta(days=3))
    assert f"alice is away until {until}: the clock waits" in page


def test_a_scheduled_vacation_begins_and_ends_with_the_sweep(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    vacation = vacations.vacation_schedule(
        user=alice,
        starts_at=clock.now + timedelta(days=1),
        ends_at=clock.now + timedelta(days=3),
    )
    sweeper.sweep()
    assert "ClockPaused" not in kinds(game)
    clock.wait(DAY + 1)
    sweeper.sweep()
    assert kinds(game)[-1] == "ClockPaused"
    vacation.refresh_from_db()
    assert vacation.state == "away"
    clock.wait(2 * DAY)
    sweeper.sweep()
    assert kinds(game)[-1] == "ClockResumed"
    vacation.refresh_from_db()
    assert vacation.state == "over"


def expire(game, clock) -> None:
    clock.wait((game.deadline - clock.now).total_seconds() + 1)


def test_a_day_away_instead_of_a_timeout_for_a_member_who_opted_in(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    vacations.away_auto_set(user=alice, on=True)
    expire(game, clock)
    sweeper.sweep()
    assert "ActionApplied" not in kinds(game)  # no random move was made for her
    assert kinds(game)[-1] == "ClockPaused"
    taken = Vacation.objects.get(user=alice)
    assert taken.auto and taken.ends_at - taken.starts_at == timedelta(days=1)
    assert "a day away was taken for you" in Notice.objects.get(user=alice, kind="vacation").text
    assert vacations.days_left(user=alice) == vacations.allowance() - 1


def test_a_timeout_all_the_same_with_no_day_left(alice, bob, clock, settings):
    settings.HADAL_VACATION_DAYS_PER_YEAR = 0
    game = two_player(alice, bob, MOVE)
    vacations.away_auto_set(user=alice, on=True)
    expire(game, clock)
    sweeper.sweep()
    assert "ClockPaused" not in kinds(game)
    assert Event.objects.get(game=game, kind="ActionApplied").data["timeout"] is True
    assert not Vacation.objects.exists()


def test_a_timeout_all_the_same_without_the_opt_in(alice, bob, clock):
    game = two_player(alice, bob, MOVE)
    expire(game, clock)
    sweeper.sweep()
    assert Event.objects.get(game=game, kind="ActionApplied").data["timeout"] is True


def tournament_game(api_for, make_user, *, allowed: bool) -> Game:
    organiser = api_for(make_user("org"))
    ann, ben = make_user("ann"), make_user("ben")
    made = organiser.post(
        "/api/tournaments/",
        {
            "name": "By post",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
            "time_control": MOVE,
            "vacation_allowed": allowed,
        },
        format="json",
    )
    assert made.status_code == 201, made.json()
    assert made.json()["vacation_allowed"] is allowed
    table = organiser.post(f"/api/tournaments/{made.json()['id']}/rounds/").json()["tables"][0]
    return Game.objects.get(pk=table["game"]), ann, ben


def test_a_tournament_that_forbids_vacations_keeps_its_clocks_running(api_for, make_user, clock):
    game, ann, ben = tournament_game(api_for, make_user, allowed=False)
    for user in (ann, ben):
        vacations.vacation_away_now(user=user)
    game.refresh_from_db()
    assert "ClockPaused" not in kinds(game) and game.deadline is not None
    seat = game.current_player
    player = ann if game.seats.get(index=seat).user == ann else ben
    vacations.vacation_back(user=player)
    vacations.away_auto_set(user=player, on=True)
    expire(game, clock)
    sweeper.sweep()  # no day away taken instead: the tournament does not allow it
    assert Event.objects.get(game=game, kind="ActionApplied").data["timeout"] is True


def test_a_tournament_that_allows_vacations_stops_its_clocks(api_for, make_user, clock):
    game, ann, ben = tournament_game(api_for, make_user, allowed=True)
    player = ann if game.seats.get(index=game.current_player).user == ann else ben
    vacations.vacation_away_now(user=player)
    game.refresh_from_db()
    assert kinds(game)[-1] == "ClockPaused" and game.deadline is None


def test_a_game_begun_while_its_player_is_away_waits_for_them_too(alice, bob, clock):
    vacations.vacation_away_now(user=alice)
    game = two_player(alice, bob, MOVE)  # e.g. a tournament's next round
    assert "ClockPaused" not in kinds(game)
    sweeper.sweep()
    assert kinds(game)[-1] == "ClockPaused"
    sweeper.sweep()
    assert kinds(game).count("ClockPaused") == 1  # once


def test_a_game_with_a_pause_still_exports_verifies_and_checks(alice, bob, clock):
    from games import history
    from games.records.verify import verify

    game = two_player(alice, bob, MOVE)
    away.seat_pause(game_id=game.pk, seat=0, pause=True)
    clock.wait(DAY)
    away.seat_pause(game_id=game.pk, seat=0, pause=False)
    users = {0: alice, 1: bob}
    for _ in range(2000):
        game = Game.objects.get(pk=game.pk)
        if game.status != "active":
            break
        game = play_turn(game, users[game.current_player])
    assert game.status == "finished"
    exported = APIClient().get(f"/api/games/{game.pk}/export/")
    assert exported.status_code == 200
    verified = verify(exported.content)
    assert verified.replayed and verified.events == game.version
    [checked] = history.check_batch(using="default", ids=[game.pk])
    assert checked.differences == []
