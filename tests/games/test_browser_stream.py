"""The game page follows the game over its event stream, and polls only when it cannot have
the stream; the tab's title says when it is your turn."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games.models import Game
from games.play import reads, seating, services
from tests.games.test_browser import page, sign_up  # noqa: F401  (the fixture)

pytestmark = pytest.mark.browser


def game_against(username: str) -> Game:
    """A game between the signed-up member (seat 0, to open) and ``username``."""
    marina = get_user_model().objects.get(username="marina")
    get_user_model().objects.create_user(username=username, password="a-long-Passphrase-42")
    game = services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "marina"}, {"user": username}],
        options={},
        created_by=marina,
    )
    # Taken at once: nobody's turn begins while an invitee has not answered.
    seating.game_accept(game=game.pk, seat=1, user=get_user_model().objects.get(username=username))
    game.refresh_from_db()
    return game


def polls(requests: list[str], game: Game) -> list[str]:
    return [url for url in requests if url.endswith(f"/api/games/{game.pk}/")]


def test_the_game_page_hears_the_other_players_move_without_polling(page):  # noqa: F811
    from playwright.sync_api import expect

    sign_up(page)
    game = game_against("nemo")
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(reverse("game-detail", args=[game.pk]))
    expect(page).to_have_title(f"Your turn · Deep Sea Adventure #{game.pk} · Hadal")
    for _ in range(40):  # marina dives and decides until it is nemo's turn
        expect(page.locator("#actions")).to_contain_text(re.compile("Your move|Waiting"))
        if not page.locator("#actions .your-move").count():
            break
        version = page.locator("#game-version").text_content()
        page.click("#actions button.action >> nth=-1")
        expect(page.locator("#game-version")).not_to_have_text(version)
    expect(page.locator("#actions")).to_contain_text("Waiting for nemo")
    expect(page).not_to_have_title(f"Your turn · Deep Sea Adventure #{game.pk} · Hadal")
    page.wait_for_timeout(500)  # the refresh after marina's last move is done
    idle = len(polls(requests, game))
    page.wait_for_timeout(4500)  # more than twice the polling period
    assert len(polls(requests, game)) == idle, "the page polled while the stream was open"
    nemo = game.seats.get(index=1).user
    game.refresh_from_db()
    while game.current_player == 1:  # nemo dives and decides until it is marina's turn
        action = reads.game_legal_actions(game=game, user=nemo, seat=1)[-1]
        services.game_action_append(
            game=game.pk, seat=1, expected_version=game.version, action=action, user=nemo
        )
        game.refresh_from_db()
    expect(page.locator("#actions .your-move")).to_be_visible()
    assert [u for u in requests if f"/api/games/{game.pk}/stream/" in u]
    expect(page).to_have_title(f"Your turn · Deep Sea Adventure #{game.pk} · Hadal")


def test_the_game_page_polls_when_the_stream_cannot_be_had(page):  # noqa: F811

    sign_up(page)
    game = game_against("nemo")
    page.route("**/stream/**", lambda route: route.fulfill(status=503, body="no"))
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(reverse("game-detail", args=[game.pk]))
    page.wait_for_timeout(4500)
    assert len(polls(requests, game)) >= 2  # every 2 s


HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", {configurable: true, get: () => hidden});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_page_lets_its_quiet_stream_rest_and_takes_it_up_when_looked_at(
    page,
    settings,  # noqa: F811
):
    """The server ends a stream quiet for HADAL_STREAM_IDLE_SECONDS; a page nobody looks at
    does not open it again (an abandoned tab holds nothing) until it is looked at, and then it
    hears what happened meanwhile."""
    from playwright.sync_api import expect

    settings.HADAL_STREAM_IDLE_SECONDS = 1
    settings.HADAL_STREAM_KEEPALIVE = 0.5
    sign_up(page)
    game = game_against("nemo")
    opened: list[str] = []
    page.on(
        "request",
        lambda request: opened.append(request.url) if "/stream/" in request.url else None,
    )
    page.goto(reverse("game-detail", args=[game.pk]))
    expect(page).to_have_title(f"Your turn · Deep Sea Adventure #{game.pk} · Hadal")
    page.evaluate(HIDE, True)
    page.wait_for_timeout(7000)  # ended after a quiet second, and not opened again (EventSource
    # alone would be back within 3 s, the retry the stream asks for)
    game_streams = [u for u in opened if f"/api/games/{game.pk}/stream/" in u]
    assert len(game_streams) == 1, game_streams
    marina = game.seats.get(index=0).user
    action = reads.game_legal_actions(game=game, user=marina, seat=0)[-1]
    services.game_action_append(
        game=game.pk, seat=0, expected_version=game.version, action=action, user=marina
    )
    page.evaluate(HIDE, False)
    game.refresh_from_db()
    expect(page.locator("#game-version")).to_have_text(str(game.version))
    reopened = [u for u in opened if f"/api/games/{game.pk}/stream/" in u]
    assert len(reopened) == 2 and "after=" in reopened[1]
