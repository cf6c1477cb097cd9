"""Deep Vents in a real headless Chromium: start a game with the starting bid against the random
bot from the new-game page, bid, take a market hex and place it by clicking the board, activate
until the bot has played and it is our turn again.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the game page to
/tmp/hadal-deep-vents.png. The two tests at the end need no browser.
"""

from __future__ import annotations

import json
import os
import random
import re
from pathlib import Path

import pytest
from django.urls import reverse

from games import store
from games.models import Game
from games.play import reads, services, steps
from games.rules import deep_vents_data as data
from tests.games.test_browser import (  # noqa: F401  (the browser fixture, shared)
    page,
    renderer_file,
    sign_up,
)

# Playwright's sync API runs an event loop in this thread; the ORM calls made here (and the
# live server's thread) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SCREENSHOT = Path("/tmp/hadal-deep-vents.png")
RENDERER = Path(__file__).resolve().parents[2] / "static" / "js" / "games" / "deep-vents.js"
MOVES = 40  # far more decisions than one turn of activations takes
SEED = 20240611


def version_of(page) -> int:
    return int(page.locator("#game-version").inner_text())


def acted(page, click) -> None:
    """Click something that plays an action and wait for the page to show the new version."""
    from playwright.sync_api import expect

    before = version_of(page)
    click()
    expect(page.locator("#game-version")).not_to_have_text(str(before))
    expect(page.locator("#actions :disabled")).to_have_count(0)


def server_view() -> dict:
    return store.load_state(Game.objects.get()).view(None)


def take_by_click(page, board, view, preferred: int) -> str:
    """Take the preferred market slot (or slot 0) by clicking its hex; the hex's name."""
    from playwright.sync_api import expect

    slot = preferred
    if not page.locator(f".dv-market-hex.dv-takeable[data-slot='{slot}']").count():
        slot = 0
    name = view["market"][slot]["name"]
    where = "the top of the stack" if slot == 5 else f"{ORDINALS[slot]} in the row"
    expect(page.locator(f"#actions button[data-action=take] >> nth={slot}")).to_have_text(
        re.compile(rf"^Take the {re.escape(name)}, {where} \((free|costs {slot})\)$")
    )
    acted(page, lambda: page.click(f".dv-market-hex.dv-takeable[data-slot='{slot}']"))
    expect(page.locator("#log")).to_contain_text(f"marina took {name}, {where}")
    expect(board.locator(".dv-held")).to_have_attribute("data-name", name)
    return name


ORDINALS = ["1st", "2nd", "3rd", "4th", "5th"]
SIDE = r"(right|left|above right|above left|below right|below left) of"


def place_by_click(page, board, name: str, q: int, r: int, words: str) -> None:
    """Place the held hex at (q, r) by clicking its ghost space; ``words``: how its button
    names the space, in the rulebook's terms (touching a hex already in play)."""
    from playwright.sync_api import expect

    buttons = page.locator("#actions button[data-action=place]")
    expect(buttons.first).to_have_text(re.compile(rf"^Place {SIDE} the [A-Z]"))
    labels = buttons.all_inner_texts()
    assert f"Place {words}" in labels, labels
    assert not any(re.search(r"\(-?\d+, ?-?\d+\)", label) for label in labels), labels
    ghost = board.locator(f".dv-eco[data-seat='0'] .dv-ghost[data-q='{q}'][data-r='{r}']")
    acted(page, ghost.click)
    expect(page.locator("#log")).to_contain_text(f"marina placed {name} in the ecosystem")
    expect(board.locator(".dv-eco[data-seat='0'] .dv-ghost")).to_have_count(0)
    placed = board.locator(f".dv-eco[data-seat='0'] .dv-hex[data-q='{q}'][data-r='{r}']")
    expect(placed).to_have_attribute("data-name", name)


def activate_until_our_turn(page, board, prefer: str | None = None) -> list[str]:
    """Play our decisions (the preferred one where offered, else the first) until the bot has
    played and we are to take a hex again; the labels of the buttons clicked."""
    from playwright.sync_api import expect

    clicked = []
    for _ in range(MOVES):
        if page.locator(".dv-market-hex.dv-takeable").count():
            return clicked
        button = page.locator("#actions button").first
        preferred = page.locator(f"#actions button:text-is('{prefer}')")
        if prefer and preferred.count():
            button = preferred
        label = button.inner_text()
        assert re.match(
            r"^(Grow|Trigger|Done triggering|Spend a shell|Take the damage|"
            r"Decimate|Pay off|End turn)",
            label,
        ), label
        if label.startswith(("Grow", "Trigger")):
            # The hex asking is the one highlighted on our ecosystem.
            active = board.locator(".dv-eco[data-seat='0'] .dv-hex.dv-active")
            expect(active).to_have_count(1)
            hex_name = active.get_attribute("data-name")
            assert hex_name in label, (hex_name, label)
        acted(page, button.click)
        clicked.append(label)
    pytest.fail("the turn never came back to seat 0")


@pytest.mark.browser
def test_bid_take_place_and_activate(page, monkeypatch):
    from playwright.sync_api import expect

    # The chance player (and through it the bot) plays from a fixed seed: the same deal and
    # the same bot moves every run.
    monkeypatch.setattr(steps, "chance_rng", random.Random(SEED))

    sign_up(page)

    # A 2-player Deep Vents game against the random bot, with the starting bid.
    page.click("nav >> text=New game")
    page.select_option("#id_game", "deep-vents")
    expect(page.locator("#id_seat_1_who")).to_have_value("random")
    option = page.locator("#id_option_deep-vents_starting_bid")
    expect(option).to_be_visible()
    option.check()
    page.click("text=Start the game")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    game = Game.objects.get()
    assert game.slug == "deep-vents" and game.options == {"starting_bid": True}

    # The board: six market choices, the top of the stack marked, two lone Deep Vents.
    board = page.locator("#board svg.dv-board")
    expect(board).to_be_visible()
    expect(board.locator(".dv-market .dv-market-hex")).to_have_count(6)
    expect(board.locator(".dv-market-slot[data-slot='5']")).to_contain_text("TOP OF STACK")
    for seat in (0, 1):
        hexes = board.locator(f".dv-eco[data-seat='{seat}'] .dv-hex")
        expect(hexes).to_have_count(1)
        expect(hexes).to_have_attribute("data-name", "Deep Vent")

    # The bid: a panel on the board, a number box limited to the legal bids, Bid and Pass.
    expect(board.locator(".dv-bid-panel")).to_be_visible()
    expect(board.locator(".dv-bid-panel")).to_contain_text("STARTING BID")
    for _ in range(6):
        if not page.locator(".dv-bid-form").count():
            break
        amount = page.locator("#dv-bid-amount")
        expect(amount).to_have_attribute("max", "10")
        game.refresh_from_db()
        bids = [
            a["amount"]
            for a in reads.game_legal_actions(game=game, user=game.seats.get(index=0).user, seat=0)
            if a["type"] == "bid"
        ]
        expect(amount).to_have_attribute("min", str(min(bids)))
        assert page.locator("#actions button").count() <= 2, "one button per bid amount"
        if page.locator(".dv-bid-form button[data-action=pass]").count():
            acted(page, lambda: page.click(".dv-bid-form button[data-action=pass]"))
        else:  # the opener must bid; 0 is a bid
            amount.fill(str(min(bids)))
            acted(page, lambda: page.click(".dv-bid-form button[data-action=bid]"))
    expect(page.locator(".dv-bid-form")).to_have_count(0)
    expect(page.locator("#log")).to_contain_text("opens the bidding")
    view = server_view()
    assert view["phase"] == "take" and view["turn"] == 0
    expect(board.locator(".dv-bid-panel")).to_have_count(0)

    # Our first turn: take a market hex by clicking it, place it by clicking a ghost space.
    expect(board.locator(".dv-market .dv-market-hex")).to_have_count(6)
    name = take_by_click(page, board, view, preferred=1)
    # Six ghost spaces around our lone Deep Vent; none on the bot's side.
    expect(board.locator(".dv-eco[data-seat='0'] .dv-ghost")).to_have_count(6)
    expect(board.locator(".dv-eco[data-seat='1'] .dv-ghost")).to_have_count(0)
    place_by_click(page, board, name, 1, 0, "right of the Deep Vent")
    activate_until_our_turn(page, board)
    expect(page.locator("#log")).to_contain_text("Random bot placed")
    expect(board.locator(".dv-eco[data-seat='0'] .dv-hex")).to_have_count(2)

    # Our second turn: the Deep Vent now holds archaea, so it asks to grow or trigger.
    view = server_view()
    name = take_by_click(page, board, view, preferred=0)
    place_by_click(
        page, board, name, 0, 1, "below right of the Deep Vent, touching 2 of your hexes"
    )
    decisions = activate_until_our_turn(page, board, prefer="Trigger the Deep Vent")
    assert "Trigger the Deep Vent" in decisions
    expect(page.locator("#log")).to_contain_text("marina triggered")

    # Each ecosystem shows as many hexes as the server holds; the market has six choices again.
    view = server_view()
    assert view["phase"] == "take" and view["turn"] == 0
    assert len(view["players"][0]["hexes"]) == 3
    for seat, player in enumerate(view["players"]):
        eco = board.locator(f".dv-eco[data-seat='{seat}']")
        expect(eco.locator(".dv-hex")).to_have_count(len(player["hexes"]))
        expect(eco).to_have_attribute("data-hexes", str(len(player["hexes"])))
        supply = eco.locator("[data-stat=supply]")
        expect(supply).to_contain_text(f"{player['supply']} archae")
    expect(board.locator(".dv-market .dv-market-hex")).to_have_count(6)
    expect(board.locator(".dv-market")).to_have_attribute("data-choices", "6")
    for card in view["market"]:
        expect(board.locator(f".dv-market-hex[data-slot='{card['slot']}']")).to_have_attribute(
            "data-archaea", str(card["archaea"])
        )
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)

    # The board, its tooltips, its buttons and the log say where in the game's words: no
    # coordinates, no slot numbers.
    words = " ".join(
        [
            board.evaluate("(el) => el.textContent"),
            *board.locator("[aria-label]").evaluate_all(
                "(els) => els.map((el) => el.getAttribute('aria-label'))"
            ),
            page.inner_text("#actions"),
            page.inner_text("#log"),
        ]
    )
    assert "marina took" in words and "placed" in words, words[-400:]
    code = re.findall(r"\(-?\d+, ?-?\d+\)|\bslot \d", words)
    assert not code, code

    # Replaying an earlier version draws that board, with nothing to click on it.
    page.locator("#replay").evaluate(
        "(slider) => { slider.value = '2'; slider.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#board svg")).to_have_attribute("data-version", "2")
    expect(page.locator("#board .dv-clickable")).to_have_count(0)
    page.click("#replay-live")
    expect(page.locator("#board .dv-takeable").first).to_be_visible()


# -- no browser needed ------------------------------------------------------------------------


def renderer_hexes() -> dict:
    """The renderer's table of hexes, which it keeps as JSON."""
    text = RENDERER.read_text()
    match = re.search(r"const HEXES = (\{.*?\n\});", text, re.S)
    assert match, "deep-vents.js has no HEXES table"
    return json.loads(match.group(1))


def test_renderer_hex_table_matches_the_rules():
    table = renderer_hexes()
    assert sorted(table) == sorted(h.name for h in data.HEXES)
    for hex_type in data.HEXES:
        assert table[hex_type.name]["traits"] == list(hex_type.traits), hex_type.name
        assert table[hex_type.name]["track"] == list(hex_type.track), hex_type.name


@pytest.mark.django_db
def test_game_page_loads_the_deep_vents_renderer(client, alice):
    game = services.game_create(
        slug="deep-vents",
        seats=[{"user": "alice"}, {"bot": "random"}],
        options={"starting_bid": True},
        created_by=alice,
    )
    client.force_login(alice)
    response = client.get(reverse("game-detail", args=[game.pk]))
    assert response.status_code == 200
    page_html = response.content.decode()
    assert '<script type="module" src="/static/js/game.js">' in page_html
    assert renderer_file(page_html) == RENDERER and RENDERER.is_file()
