"""Abyss in a real headless Chromium: a game between two members, the other seat played through
the services; the board shows the Court, the track, the Threat, the Council and the viewer's
hand (and no other hand); an Ally offered during the other seat's exploration is bought from
the offer prompt; then a Lord is recruited (or support requested) by clicking the board.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the game page to
/tmp/hadal-abyss-offer.png (the offer) and /tmp/hadal-abyss.png (the end of the test). The
tests at the end need no browser.
"""

from __future__ import annotations

import json
import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import store
from games.models import Game
from games.play import reads, services, steps
from games.rules import CHANCE
from games.rules.abyss import data
from tests.games.test_browser import (  # noqa: F401  (the browser fixture, shared)
    page,
    renderer_file,
    sign_up,
)

# Playwright's sync API runs an event loop in this thread; the ORM calls made here (and the
# live server's thread) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SCREENSHOTS = {"offer": Path("/tmp/hadal-abyss-offer.png"), "end": Path("/tmp/hadal-abyss.png")}
RENDERER = Path(__file__).resolve().parents[2] / "static" / "js" / "games" / "abyss.js"
SEED = 5  # the chance player's dice: a deal in which all of the below happens early
MOVES = 400  # far more decisions than the few rounds played here take
RACE = {race: race.capitalize() for race in data.RACES}

# Each seat's choices while the test plays it through the services, in order of preference.
GROW = ("recruit", "pay", "affiliate", "take", "fight", "decline", "skip")  # Lords and Allies
EXPLORE_ON = ("continue", "reward")  # the other seat explores until something is offered
WRAP_UP = ("take", "fight", "decline", "reward")  # the other seat ends its exploration


def version_of(page) -> int:
    return int(page.locator("#game-version").inner_text())


def acted(page, click) -> None:
    """Click something that plays an action and wait for the page to show the new version."""
    from playwright.sync_api import expect

    before = version_of(page)
    click()
    expect(page.locator("#game-version")).not_to_have_text(str(before))
    expect(page.locator("#actions :disabled")).to_have_count(0)


def head(game: Game) -> Game:
    game.refresh_from_db()
    return game


def seat_view(game: Game, seat: int) -> dict:
    """The view the page of ``seat`` is served, as the API gives it."""
    game = head(game)
    return reads.game_view(game=game, user=game.seats.get(index=seat).user, seat=seat)


def choose(state, prefer: tuple[str, ...]) -> dict:
    """The first legal action of the preferred types; at the turn's opening, a Council stack
    of three or more, or else exploring; otherwise the first legal action."""
    legal = state.legal_actions()
    for kind in prefer:
        for action in legal:
            if action["type"] == kind:
                return action
    view = state.view(None)
    if view["decision"]["kind"] == "start":
        for action in legal:
            if action["type"] == "council" and view["council"][action["race"]] >= 3:
                return action
        return {"type": "explore"}
    return legal[0]


def play(game: Game, prefer: tuple[str, ...], until) -> dict:
    """Play whichever seat is to act, through the services, until ``until(state)``."""
    for _ in range(MOVES):
        state = store.load_state(head(game))
        assert state.current_player != CHANCE and not state.is_terminal()
        if until(state):
            return state
        seat = state.current_player
        services.game_action_append(
            game=game,
            seat=seat,
            expected_version=game.version,
            action=choose(state, prefer),
            user=game.seats.get(index=seat).user,
        )
    pytest.fail("the position looked for never came")


def decision(state) -> str:
    return state.view(None)["decision"]["kind"]


def cards(items) -> Counter:
    return Counter((card["race"], int(card["value"])) for card in items)


def hand_on_board(board) -> Counter:
    return cards(
        {"race": card.get_attribute("data-race"), "value": card.get_attribute("data-value")}
        for card in board.locator(".ab-hand .ab-hand-card").all()
    )


def check_board(page, board, view: dict) -> None:
    """The board shows what marina's view holds, and nothing of nemo's hand."""
    from playwright.sync_api import expect

    expect(board).to_have_attribute("data-version", str(view["version"]))
    # The Court: each Lord by name, with its cost and Influence Points from the card table.
    slots = board.locator(".ab-court-slot[data-name]")
    expect(slots).to_have_count(len(view["court"]))
    lords = {lord.name: lord for lord in data.LORDS}
    for name in view["court"]:
        slot = board.locator(f".ab-court-slot[data-name='{name}']")
        expect(slot).to_contain_text(name)
        expect(slot.locator(".ab-ip + text")).to_have_text(str(lords[name].ip))
    # The track's five spaces, the Threat token, the Council's stacks and the decks.
    expect(board.locator(".ab-track-space")).to_have_count(5)
    expect(board.locator(".ab-track")).to_have_attribute("data-cards", str(len(view["track"])))
    expect(board.locator(".ab-threat-here")).to_have_attribute("data-space", str(view["threat"]))
    for race, count in view["council"].items():
        stack = board.locator(f".ab-council-stack[data-race='{race}']")
        expect(stack).to_have_attribute("data-count", str(count))
        expect(stack).to_contain_text(RACE[race])
    expect(board.locator(".ab-explore-deck")).to_have_attribute(
        "data-count", str(view["exploration_deck_size"])
    )
    expect(board.locator(".ab-lord-deck")).to_have_attribute(
        "data-count", str(view["lord_deck_size"])
    )
    expect(board.locator(".ab-locations .ab-location-slot")).to_have_count(
        len(view["locations_available"])
    )
    # The viewer's hand, card by card; no one else's.
    me, other = view["players"]
    expect(board.locator(".ab-hand")).to_have_count(1)
    expect(board.locator(".ab-hand")).to_have_attribute("data-seat", "0")
    expect(board.locator(".ab-hand .ab-hand-card")).to_have_count(len(me["hand"]))
    assert hand_on_board(board) == cards(me["hand"])
    assert "hand" not in other
    served = page.evaluate("() => JSON.parse(document.getElementById('game-data').textContent)")
    assert "hand" not in served["view"]["players"][1]
    nemo = board.locator(".ab-seat[data-seat='1']")
    expect(nemo.locator(".ab-ally")).to_have_count(len(other["affiliated"]))
    expect(nemo.locator("[data-stat=hand]")).to_contain_text(
        f"{other['hand_size']} All{'y' if other['hand_size'] == 1 else 'ies'} in hand"
    )
    expect(nemo.locator("[data-stat=monsters]")).not_to_contain_text("(")
    # The seats' domains: marina's Lords with their states, her Monster tokens' values.
    marina = board.locator(".ab-seat[data-seat='0']")
    expect(marina.locator(".ab-seat-lord")).to_have_count(len(me["lords"]))
    for lord in me["lords"]:
        state = (
            "disabled"
            if lord["free"] and lord["disabled"]
            else ("free" if lord["free"] else "used")
        )
        expect(marina.locator(f".ab-seat-lord[data-name='{lord['name']}']")).to_have_attribute(
            "data-state", state
        )
    expect(marina.locator("[data-stat=pearls]")).to_contain_text(f"{me['pearls']} pearl")
    for value in me.get("monster_token_values", []):
        expect(marina.locator("[data-stat=monsters]")).to_contain_text(str(value))


@pytest.mark.browser
def test_board_offer_and_recruit(page, monkeypatch):
    from playwright.sync_api import expect

    # The chance player plays from a fixed seed: the same deal and draws every run.
    monkeypatch.setattr(steps, "chance_rng", random.Random(SEED))
    sign_up(page)
    marina = get_user_model().objects.get(username="marina")
    get_user_model().objects.create_user(username="nemo", password="a-long-Passphrase-42")
    game = services.game_create(
        slug="abyss", seats=[{"user": "marina"}, {"user": "nemo"}], options={}, created_by=marina
    )

    # Both seats recruit and gather Allies until nemo is to open a turn, marina holding Lords,
    # Allies and the pearls to buy with.
    def ready(state) -> bool:
        me = state.view(0)["players"][0]
        return (
            state.current_player == 1
            and decision(state) == "start"
            and me["lords"] != []
            and len(me["hand"]) >= 2
            and me["pearls"] >= 3
        )

    play(game, GROW, ready)
    page.goto(reverse("game-detail", args=[game.pk]))
    board = page.locator("#board svg.ab-board")
    expect(board).to_be_visible()
    check_board(page, board, seat_view(game, 0))
    expect(board.locator(".ab-phase")).to_contain_text("nemo: plot at court")
    expect(page.locator("#actions")).to_contain_text("Waiting for nemo")
    expect(board.locator(".ab-clickable")).to_have_count(0)

    # nemo explores on until an Ally revealed is offered to marina; the page polls and asks.
    services.game_action_append(
        game=game,
        seat=1,
        expected_version=head(game).version,
        action={"type": "explore"},
        user=game.seats.get(index=1).user,
    )
    play(game, EXPLORE_ON, lambda state: state.current_player == 0)
    view = seat_view(game, 0)
    offer = view["decision"]
    assert offer["kind"] == "offer"
    card, price = offer["card"], offer["price"]
    question = (
        f"Buy the {RACE[card['race']]} {card['value']} for {price} "
        f"pearl{'' if price == 1 else 's'}?"
    )
    expect(page.locator(".ab-offer .ab-offer-question")).to_have_text(question)
    expect(page.locator(".ab-offer")).to_contain_text("nemo is exploring")
    expect(board.locator(".ab-offer-banner")).to_contain_text(question)
    expect(board.locator(".ab-offered")).to_have_attribute(
        "data-card", f"{card['race']} {card['value']}"
    )
    expect(page.locator("#actions button[data-action=buy]")).to_have_text("Buy")
    expect(page.locator("#actions button[data-action=decline]")).to_have_text("Decline")
    check_board(page, board, view)
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOTS["offer"]), full_page=True)

    acted(page, lambda: page.click(".ab-offer button[data-action=buy]"))
    expect(page.locator("#log")).to_contain_text(
        f"marina bought the {RACE[card['race']]} {card['value']} for {price} pearl"
    )
    expect(page.locator(".ab-offer")).to_have_count(0)
    after = seat_view(game, 0)
    assert cards(after["players"][0]["hand"]) == cards(view["players"][0]["hand"]) + cards([card])
    assert after["players"][0]["pearls"] == view["players"][0]["pearls"] - price
    expect(board.locator(".ab-hand .ab-hand-card")).to_have_count(
        len(view["players"][0]["hand"]) + 1
    )

    # nemo ends the exploration; marina's turn opens on the page.
    play(game, WRAP_UP, lambda state: state.current_player == 0 and decision(state) == "start")
    expect(page.locator("#actions .your-move")).to_be_visible()
    view = seat_view(game, 0)
    check_board(page, board, view)
    legal = store.load_state(head(game)).legal_actions()
    recruits = [a["lord"] for a in legal if a["type"] == "recruit"]
    if recruits:
        # Recruit by clicking the Lord at the Court, then pay by clicking cards in hand.
        name = recruits[0]
        lord = board.locator(f".ab-court-slot.ab-clickable[data-name='{name}']")
        expect(lord).to_have_attribute("aria-label", f"Recruit the {name}")
        expect(page.locator("#actions button[data-action=recruit]").first).to_have_text(
            re.compile(r"^Recruit the ")
        )
        acted(page, lord.click)
        expect(page.locator("#log")).to_contain_text(f"marina recruits the {name}")
        for _ in range(12):
            state = store.load_state(head(game))
            if state.current_player != 0 or decision(state) not in ("pay", "affiliate"):
                break
            expect(board.locator(".ab-recruiting")).to_have_attribute("data-lord", name)
            payable = board.locator(".ab-hand .ab-hand-card.ab-clickable")
            if payable.count():
                acted(page, payable.first.click)
            else:  # the missing points in pearls
                acted(page, page.locator("#actions button").first.click)
        expect(page.locator("#log")).to_contain_text("marina paid the ")
        assert name in [lord["name"] for lord in seat_view(game, 0)["players"][0]["lords"]]
        expect(
            board.locator(f".ab-seat[data-seat='0'] .ab-seat-lord[data-name='{name}']")
        ).to_have_count(1)
        expect(board.locator(".ab-recruiting")).to_have_count(0)
        # What it cost stays on the board, the cards paid without a click included.
        paid = seat_view(game, 1)["last_recruit"]
        assert paid["lord"] == name and paid["seat"] == 0
        expect(board.locator(".ab-last-recruit")).to_have_attribute("data-lord", name)
        expect(board.locator(".ab-last-recruit")).to_contain_text(
            f"{RACE[paid['affiliated']['race']]} {paid['affiliated']['value']} affiliated"
        )
    else:
        # Request support by clicking a Council stack.
        race = next(a["race"] for a in legal if a["type"] == "council")
        count = view["council"][race]
        acted(page, board.locator(f".ab-council-stack.ab-clickable[data-race='{race}']").click)
        expect(page.locator("#log")).to_contain_text(
            f"marina took the Council's {RACE[race]} stack"
        )
        expect(board.locator(".ab-hand .ab-hand-card")).to_have_count(
            len(view["players"][0]["hand"]) + count
        )
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOTS["end"]), full_page=True)

    # Replaying an earlier version draws that board, with nothing to click on it.
    page.locator("#replay").evaluate(
        "(slider) => { slider.value = '3'; slider.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#board svg")).to_have_attribute("data-version", "3")
    expect(page.locator("#board .ab-clickable")).to_have_count(0)
    page.click("#replay-live")
    expect(page.locator("#board svg")).to_have_attribute("data-version", str(head(game).version))


# -- no browser needed ------------------------------------------------------------------------


def renderer_table(name: str) -> dict:
    """One of the renderer's card tables, which it keeps as JSON."""
    match = re.search(rf"const {name} = (\{{.*?\n\}});", RENDERER.read_text(), re.S)
    assert match, f"abyss.js has no {name} table"
    return json.loads(match.group(1))


def test_renderer_lord_table_matches_the_rules():
    table = renderer_table("LORDS")
    assert list(table) == [lord.name for lord in data.LORDS]
    for lord in data.LORDS:
        assert table[lord.name] == [
            lord.guild,
            lord.cost,
            lord.races,
            lord.required,
            lord.ip,
            lord.keys,
            lord.power,
            lord.timing,
        ], lord.name


def test_renderer_location_table_matches_the_rules():
    table = renderer_table("LOCATIONS")
    assert list(table) == [location.name for location in data.LOCATIONS]
    for location in data.LOCATIONS:
        assert table[location.name] == [
            location.base,
            location.per,
            location.item,
            location.subject,
            location.every,
        ], location.name


def test_renderer_knows_every_power_and_threat_reward():
    text = RENDERER.read_text()
    powers = re.search(r"const POWERS = \{(.*?)\n\};", text, re.S).group(1)
    assert sorted(re.findall(r"^\s+(\w+):", powers, re.M)) == sorted(data.POWERS)
    rewards = re.findall(r"\{keys: (\d), picks: (\d)\}", text)
    assert [(int(k), int(p)) for k, p in rewards] == [
        (options[0][2], options[0][0] + options[0][1])
        for _, options in sorted(data.THREAT_REWARDS.items())
    ]
    for options in data.THREAT_REWARDS.values():  # every choice on a space: the same shape
        assert len({(keys, pearls + tokens) for pearls, tokens, keys in options}) == 1


@pytest.mark.django_db
def test_game_page_loads_the_abyss_renderer(client, alice):
    game = services.game_create(
        slug="abyss", seats=[{"user": "alice"}, {"bot": "random"}], options={}, created_by=alice
    )
    client.force_login(alice)
    response = client.get(reverse("game-detail", args=[game.pk]))
    assert response.status_code == 200
    page_html = response.content.decode()
    assert '<script type="module" src="/static/js/game.js">' in page_html
    assert renderer_file(page_html) == RENDERER and RENDERER.is_file()
