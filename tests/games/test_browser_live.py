"""Playing together in a real headless Chromium at a phone's width (390 px): the clock counting
down on the game page until it runs out and the move is played, the invitations in the nav,
and taking an open seat from the lobby."""

from __future__ import annotations

import re

import pytest

from games.models import Event, Game
from games.play import seating, services, sweeper
from tests.games.test_browser import browser_page

pytestmark = pytest.mark.browser
PASSWORD = "pw-for-tests-only"  # what the make_user fixture gives
PHONE = {"width": 390, "height": 844}
DSA = "deep-sea-adventure"


@pytest.fixture
def phone(live_server, transactional_db):
    yield from browser_page(live_server, viewport=PHONE)


@pytest.fixture
def sweeping(settings):
    """The in-process sweep of ``make run`` (games.play.sweeper), quick."""
    settings.HADAL_EAGER_SWEEP_SECONDS = 0.2
    yield
    sweeper.stop()


def sign_in(page, username: str) -> None:
    from playwright.sync_api import expect

    page.goto("/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    expect(page.locator(".nav-user")).to_have_text(username)


def fits(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 1


def seconds(text: str) -> int:
    minutes, secs = text.split(":")[-2:]
    return int(minutes) * 60 + int(secs)


def test_the_clock_counts_down_and_when_it_runs_out_the_move_is_played(phone, make_user, sweeping):
    from playwright.sync_api import expect

    marina, bob = make_user("marina"), make_user("bob")
    game = services.game_create(
        slug=DSA,
        seats=[{"user": "marina"}, {"user": "bob"}],
        options={},
        created_by=marina,
        time_control={"move_seconds": 5, "on_timeout": "random"},
    )
    sign_in(phone, "marina")
    phone.goto(f"/games/{game.pk}/")
    note = phone.locator("#clock-note")
    expect(note).to_contain_text("The clock starts once everyone has taken their seat.")
    expect(phone.locator(".clock-seat.running")).to_have_count(0)
    seating.game_accept(game=game.pk, seat=1, user=bob)
    game = Game.objects.get(pk=game.pk)
    phone.reload()
    running = phone.locator(".clock-seat.running .clock-time")
    expect(running).to_have_text(re.compile(r"0:0[3-5]"))
    first = seconds(running.inner_text())
    expect(running).not_to_have_text(running.inner_text(), timeout=3000)
    assert seconds(running.inner_text()) < first  # it runs
    expect(phone.locator(".clock-seat.running .clock-name")).to_have_text("marina (you)")
    fits(phone, "#clock")
    # Five seconds on, nobody has moved: the random bot plays for marina, and the page shows it.
    expect(phone.locator("#game-version")).not_to_have_text(str(game.version), timeout=15_000)
    timed_out = Event.objects.filter(game=game, seq=game.version + 1).get()
    assert timed_out.data.get("timeout") is True


def test_an_invitation_in_the_nav_and_an_open_seat_taken_from_the_lobby(phone, make_user):
    from playwright.sync_api import expect

    alice, marina = make_user("alice"), make_user("marina")
    services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "marina"}], options={}, created_by=alice
    )
    open_game = services.game_create(
        slug=DSA,
        seats=[{"user": "alice"}, {"open": True}],
        options={},
        created_by=alice,
        time_control={"bank_seconds": 600, "increment_seconds": 5, "on_timeout": "random"},
    )
    sign_in(phone, "marina")
    expect(phone.locator("#nav-invitations .nav-count")).to_have_text("1")
    phone.click("#nav-invitations")
    expect(phone.locator("#invitation-list")).to_contain_text("from alice")
    phone.goto("/lobby/")
    listed = phone.locator(f'.lobby-game[data-game="{open_game.pk}"]')
    expect(listed).to_contain_text("10:00 each + 5 s a turn")
    fits(phone, f'.lobby-game[data-game="{open_game.pk}"]')
    listed.get_by_role("button", name="Join, playing 2nd").click()
    expect(phone.locator(".messages")).to_contain_text("You have taken your seat.")
    assert phone.url.endswith(f"/games/{open_game.pk}/")
    assert Game.objects.get(pk=open_game.pk).seats.get(index=1).user == marina
    # Everyone is seated: alice's bank is running.
    expect(phone.locator(".clock-seat.running .clock-name")).to_have_text("alice")
    phone.goto("/lobby/")
    expect(phone.locator("#open-games")).to_have_count(0)


def watching_a_game(phone, make_user) -> Game:
    """Marina's game against bob, open on her phone, not over yet."""
    from playwright.sync_api import expect

    marina, bob = make_user("marina"), make_user("bob")
    game = services.game_create(
        slug=DSA, seats=[{"user": "marina"}, {"user": "bob"}], options={}, created_by=marina
    )
    seating.game_accept(game=game.pk, seat=1, user=bob)
    sign_in(phone, "marina")
    phone.goto(f"/games/{game.pk}/")
    expect(phone.locator("#game-over")).to_have_count(0)
    return game


def refuse_once(page, path: str, **answer) -> list[str]:
    """Answer the first request for ``path`` (the whole path) with ``answer`` (a 503 unless
    it says otherwise), let the rest through; the list gets the refused request's URL."""
    refused: list[str] = []

    def busy_once(route):
        if not refused:
            refused.append(route.request.url)
            route.fulfill(**{"status": 503, **answer})
        else:
            route.continue_()

    page.route(re.compile(rf"^https?://[^/]+{re.escape(path)}$"), busy_once)
    return refused


def test_the_end_appears_when_the_game_ends_and_the_rematch_is_a_click_away(phone, make_user):
    from playwright.sync_api import expect

    game = watching_a_game(phone, make_user)
    bob = game.seats.get(index=1).user
    services.game_resign(game=game.pk, seat=1, user=bob)  # bob gives up; marina wins
    over = phone.locator("#game-over")
    expect(over).to_contain_text("by forfeit", timeout=10_000)
    expect(over.locator("tbody tr").first).to_contain_text("1st")
    expect(over.locator("tbody tr").first).to_contain_text("marina")
    expect(phone.locator("#result")).to_be_hidden()
    fits(phone, "#game-over")
    phone.click("#rematch")
    expect(phone.locator(".messages")).to_contain_text("Rematch!")
    rematch = Game.objects.get(rematch_of=game)
    assert phone.url.endswith(f"/games/{rematch.pk}/")
    expect(phone.locator("#waiting")).to_contain_text("Waiting for players")


def test_the_end_still_appears_when_fetching_it_fails_at_first(phone, make_user):
    # The panel comes from the page fetched again; a busy server's error is tried again.
    from playwright.sync_api import expect

    game = watching_a_game(phone, make_user)
    refused = refuse_once(phone, f"/games/{game.pk}/", body="busy")  # the page
    services.game_resign(game=game.pk, seat=1, user=game.seats.get(index=1).user)
    expect(phone.locator("#game-over")).to_contain_text("by forfeit", timeout=15_000)
    assert len(refused) == 1
    expect(phone.locator("#result")).to_be_hidden()


def test_a_push_whose_read_fails_is_read_again_and_the_end_still_shows(phone, make_user):
    # The game's last push sends the page to read the game; if that read fails, nothing else
    # would come: the page reads again by itself, and its error goes once it has.
    from playwright.sync_api import expect

    game = watching_a_game(phone, make_user)
    refused = refuse_once(  # the head
        phone, f"/api/games/{game.pk}/", content_type="application/json", body='{"error": "busy"}'
    )
    services.game_resign(game=game.pk, seat=1, user=game.seats.get(index=1).user)
    expect(phone.locator(".flash-error")).to_contain_text("busy")
    expect(phone.locator("#game-over")).to_contain_text("by forfeit", timeout=15_000)
    assert len(refused) == 1
    expect(phone.locator(".flash-error")).to_have_count(0)
