"""Ventlife in a real headless Chromium: a two-player game (two people, so nothing moves unless
the test moves it) driven through the services until a plateau has been built and it is seat 0's
turn; then the page must show the field with its levels and seat 0's tile (and not seat 1's),
place the tile by clicking a blue position, rotating and confirming, and place a creature by
clicking a ringed hex.

Needs Debian's chromium (or HADAL_CHROMIUM pointing at a Chromium) and the playwright package;
skips where either is missing. Set HADAL_SCREENSHOT to save the page with the gold preview to
/tmp/hadal-ventlife-tile.png and the page at the end to /tmp/hadal-ventlife.png. The two tests
at the end need no browser.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from games import store
from games.models import Event, Game
from games.play import reads, services, steps
from games.rules import ventlife_data as data
from tests.games.test_browser import (  # noqa: F401  (the browser fixture, shared)
    page,
    renderer_file,
    sign_up,
)

# Playwright's sync API runs an event loop in this thread; the ORM calls made here (and the
# live server's thread) are still plain synchronous code.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

SHOT_TILE = Path("/tmp/hadal-ventlife-tile.png")
SHOT_END = Path("/tmp/hadal-ventlife.png")
RENDERER = Path(__file__).resolve().parents[2] / "static" / "js" / "games" / "ventlife.js"
SEED = 20240611
DECISIONS = 60  # a plateau comes after four tiles; far fewer decisions than this


# -- driving the game through the services ------------------------------------------------------

# How the page names the terrains and the sides of a hex (static/js/games/ventlife.js).
NAMES = {
    "basalt-ridge": "Basalt Ridge",
    "diffuse-vents": "Diffuse Vents",
    "microbial-mat": "Microbial Mat",
    "black-smoker": "Black Smoker",
}
SIDES = ["right", "below right", "below left", "left", "above left", "above right"]


def hex_distance(q: int, r: int) -> int:
    return (abs(q) + abs(r) + abs(q + r)) // 2


def choose(legal: list[dict], view: dict) -> dict:
    """Build up wherever the rules allow, else keep the field compact around the middle (so that
    a plateau soon becomes possible); one creature a turn; the first move offered."""
    tiles = [a for a in legal if a["type"] == "place_tile"]
    if tiles:
        field = {(h["q"], h["r"]) for h in view["field"]}
        up = [a for a in tiles if (a["q"], a["r"]) in field]
        if up:
            return up[0]
        return min(
            tiles, key=lambda a: (hex_distance(a["q"], a["r"]), a["r"], a["q"], a["rotation"])
        )
    for kind in ("stop", "place", "move"):
        for action in legal:
            if action["type"] == kind:
                return action
    return legal[0]


def play_until_plateau(game: Game, users: list) -> dict:
    """Play both seats until a raised hex is on the field and seat 0 is to place a tile."""
    for _ in range(DECISIONS):
        game.refresh_from_db()
        state = store.load_state(game)
        view = state.view(None)
        raised = any(h["level"] >= 2 for h in view["field"])
        if raised and view["phase"] == "tile" and state.current_player == 0:
            return view
        seat = state.current_player
        services.game_action_append(
            game=game,
            seat=seat,
            expected_version=game.version,
            action=choose(state.legal_actions(), view),
            user=users[seat],
        )
    pytest.fail("no plateau was built")


def seat_view(game: Game, seat: int) -> dict:
    game.refresh_from_db()
    return store.load_state(game).view(seat)


def version_of(page) -> int:
    return int(page.locator("#game-version").inner_text())


def acted(page, click) -> None:
    """Click something that plays an action and wait for the page to show the new version."""
    from playwright.sync_api import expect

    before = version_of(page)
    click()
    expect(page.locator("#game-version")).not_to_have_text(str(before))
    expect(page.locator("#actions :disabled")).to_have_count(0)


def hex_at(board, q: int, r: int):
    return board.locator(f".vl-field .vl-hex[data-q='{q}'][data-r='{r}']")


# -- the browser test -----------------------------------------------------------------------------


@pytest.mark.browser
def test_field_levels_hand_tile_placement_and_creature(page, monkeypatch):
    from playwright.sync_api import expect

    # The tiles come out of the bag in the same order every run.
    monkeypatch.setattr(steps, "chance_rng", random.Random(SEED))
    sign_up(page)
    marina = get_user_model().objects.get(username="marina")
    kelp = get_user_model().objects.create_user("kelp", password="a-long-Passphrase-42")
    game = services.game_create(
        slug="ventlife", seats=[{"user": "marina"}, {"user": "kelp"}], options={}, created_by=marina
    )
    field = play_until_plateau(game, [marina, kelp])["field"]
    raised = [h for h in field if h["level"] >= 2]
    assert raised and len(field) >= 9

    page.goto(f"/games/{game.pk}/")
    board = page.locator("#board svg.vl-board")
    expect(board).to_be_visible()
    expect(board).to_have_attribute("data-phase", "tile")

    # Every visible hex, at its level; the raised ones numbered, the seafloor ones not.
    expect(board.locator(".vl-field .vl-hex")).to_have_count(len(field))
    for h in field:
        piece = hex_at(board, h["q"], h["r"])
        expect(piece).to_have_attribute("data-level", str(h["level"]))
        expect(piece).to_have_attribute("data-terrain", h["terrain"])
        if h["level"] >= 2:
            expect(piece.locator(".vl-level")).to_have_text(str(h["level"]))
        else:
            expect(piece.locator(".vl-level")).to_have_count(0)
        on_hex = Counter((c["species"], c["owner"]) for c in h["creatures"])
        for (species, owner), count in on_hex.items():
            expect(
                piece.locator(f".vl-creature[data-species='{species}'][data-owner='{owner}']")
            ).to_have_count(count)
    expect(board.locator(".vl-field .vl-creature")).to_have_count(
        sum(len(h["creatures"]) for h in field)
    )
    # The four first-game species in the legend, each seat's supply of them.
    expect(board.locator(".vl-legend-item")).to_have_count(4)
    for seat, player in enumerate(seat_view(game, 0)["players"]):
        for species in data.FIRST_GAME:
            supply = board.locator(
                f".vl-seat[data-seat='{seat}'] .vl-supply[data-species='{species}']"
            )
            expect(supply).to_have_attribute("data-count", str(player["supply"][species]))

    # Our tile in hand, face up; seat 1's only face down.
    hand = seat_view(game, 0)["players"][0]["hand"]
    ours = board.locator(".vl-seat[data-seat='0'] .vl-hand .vl-hand-hex")
    expect(ours).to_have_count(3)
    for k, terrain in enumerate(hand["terrains"]):
        expect(ours.nth(k)).to_have_attribute("data-terrain", terrain)
    expect(board.locator(".vl-seat[data-seat='1'] .vl-hand")).to_have_count(0)
    expect(board.locator(".vl-seat[data-seat='1'] .vl-hand-back")).to_have_count(1)
    expect(board.locator(".vl-seat[data-seat='1'] [data-terrain]")).to_have_count(0)
    # The log: our draws name the tile, seat 1's do not.
    lines = page.locator("#log li .line")
    hidden = re.compile(r"^kelp draws a tile$")
    expect(lines.filter(has_text=hidden).first).to_be_visible()
    expect(lines.filter(has_text=re.compile(r"^kelp draws a tile \("))).to_have_count(0)
    shown_draw = re.compile(r"^marina draws a tile \(smoker, ")
    expect(lines.filter(has_text=shown_draw).first).to_be_visible()

    # The positions: one blue spot per place the smoker may go, none on the buttons.
    legal = reads.game_legal_actions(game=game, user=marina, seat=0)
    positions: dict[tuple[int, int], list[int]] = {}
    for action in legal:
        positions.setdefault((action["q"], action["r"]), []).append(action["rotation"])
    expect(board.locator(".vl-spot")).to_have_count(len(positions))
    expect(page.locator("#actions button[data-action=place_tile]")).to_have_count(0)
    on_floor = {(h["q"], h["r"]) for h in field}
    q, r = next(
        p for p, turns in sorted(positions.items()) if p not in on_floor and len(turns) >= 2
    )
    rotations = sorted(positions[(q, r)])

    # Click the spot: the tile in gold at the first rotation there; Rotate: the next one.
    board.locator(f".vl-spot[data-q='{q}'][data-r='{r}']").click()
    preview = board.locator(".vl-preview")
    expect(preview).to_have_attribute("data-rotation", str(rotations[0]))
    first, second = (NAMES[t] for t in hand["terrains"][1:])
    turn = rotations[0] % 6
    expect(page.locator("#actions")).to_contain_text(
        f"Your tile on the seafloor, the {first} {SIDES[turn]} of its smoker and the {second} "
        f"{SIDES[(turn + 1) % 6]} (way 1 of {len(rotations)} it fits here)"
    )
    page.click("#actions button[data-action=rotate]")
    expect(preview).to_have_attribute("data-rotation", str(rotations[1]))
    cells = preview.locator(".vl-preview-hex")
    expect(cells).to_have_count(3)
    shown = [
        (
            int(cells.nth(k).get_attribute("data-q")),
            int(cells.nth(k).get_attribute("data-r")),
            cells.nth(k).get_attribute("data-terrain"),
        )
        for k in range(3)
    ]
    assert [t for _, _, t in shown] == hand["terrains"]
    assert shown[0][:2] == (q, r)
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SHOT_TILE), full_page=True)

    # Confirm plays the tile as previewed: the same three hexes, with the same terrains.
    acted(page, lambda: page.click("#actions button[data-action=place_tile]"))
    played = Event.objects.filter(game=game, seat=0).order_by("-seq").first().data["action"]
    assert played == {"type": "place_tile", "q": q, "r": r, "rotation": rotations[1]}
    expect(page.locator("#log")).to_contain_text("marina placed a tile")
    view = seat_view(game, 0)
    placed = {
        (h["q"], h["r"], h["terrain"]) for h in view["field"] if h["tile"] == view["last_tile"]
    }
    assert placed == set(shown)
    expect(board.locator(".vl-preview")).to_have_count(0)
    expect(board.locator(".vl-field .vl-hex")).to_have_count(len(view["field"]))
    expect(board.locator(".vl-seat[data-seat='0'] .vl-hand")).to_have_count(0)

    # Creatures: a button per species that can go somewhere; choose the Yeti Crabs (they go
    # only above the seafloor) and their hexes are ringed, no others.
    assert view["phase"] == "creatures"
    legal = reads.game_legal_actions(game=game, user=marina, seat=0)
    offered = {a["species"] for a in legal if a["type"] == "place"}
    expect(page.locator("#actions button.vl-species")).to_have_count(len(offered))
    spots = {(a["q"], a["r"]) for a in legal if a.get("species") == "yeti-crabs"}
    levels = {(h["q"], h["r"]): h["level"] for h in view["field"]}
    assert spots and all(levels[p] >= 2 for p in spots)
    crabs = page.locator("#actions button.vl-species[data-species='yeti-crabs']")
    crabs.click()
    expect(crabs).to_have_attribute("aria-pressed", "true")
    expect(board.locator(".vl-target")).to_have_count(len(spots))
    expect(board.locator(".vl-target:not([data-species='yeti-crabs'])")).to_have_count(0)
    for tq, tr in spots:
        expect(board.locator(f".vl-target[data-q='{tq}'][data-r='{tr}']")).to_have_count(1)

    # Click a ringed hex: the crab is on the plateau.
    tq, tr = min(spots)
    acted(page, board.locator(f".vl-target[data-q='{tq}'][data-r='{tr}']").click)
    creature = hex_at(board, tq, tr).locator(
        ".vl-creature[data-species='yeti-crabs'][data-owner='0']"
    )
    expect(creature).to_have_count(1)
    expect(page.locator("#log")).to_contain_text("marina placed a Yeti Crab")
    # The board, its tooltips and labels, the controls and the log name places in the
    # game's words: no coordinates, no rotation numbers.
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
    assert "Yeti Crab" in words, words[-400:]
    code = re.findall(r"\(-?\d+, ?-?\d+\)|\brotation \d", words)
    assert not code, code
    if page.locator("#actions button[data-action=stop]").count():
        acted(page, lambda: page.click("#actions button[data-action=stop]"))
        expect(page.locator("#log")).to_contain_text("marina stopped placing creatures")
    expect(page.locator("#actions")).to_contain_text("Waiting for kelp")
    expect(creature).to_have_count(1)
    supply = board.locator(".vl-seat[data-seat='0'] .vl-supply[data-species='yeti-crabs']")
    left = seat_view(game, 0)["players"][0]["supply"]["yeti-crabs"]
    assert left < data.CREATURES_PER_SPECIES
    expect(supply).to_have_attribute("data-count", str(left))
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SHOT_END), full_page=True)

    # Replaying an earlier version draws that field, with nothing to click on it.
    page.locator("#replay").evaluate(
        "(slider) => { slider.value = '3'; slider.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#board svg")).to_have_attribute("data-version", "3")
    expect(page.locator("#board .vl-clickable")).to_have_count(0)


# -- no browser needed ----------------------------------------------------------------------------


def renderer_table(name: str) -> dict[str, str]:
    """One of the renderer's tables, id -> the first line of its entry."""
    text = RENDERER.read_text()
    match = re.search(rf"const {name} = \{{\n(.*?)\n\}};", text, re.S)
    assert match, f"ventlife.js has no {name} table"
    return dict(re.findall(r'^  "([a-z-]+)": \{(.*)$', match.group(1), re.M))


def test_renderer_tables_match_the_rules_data():
    species = renderer_table("SPECIES")
    assert list(species) == list(data.SPECIES_IDS)
    for entry in data.SPECIES:
        assert f'name: "{entry.name}"' in species[entry.id], entry.id
    terrains = renderer_table("TERRAINS")
    assert list(terrains) == list(data.TERRAINS)
    letters = {
        re.search(r'letter: "(\w)"', line).group(1): terrain for terrain, line in terrains.items()
    }
    for kind in data.TILE_KINDS:
        assert (letters[kind.name[0]], letters[kind.name[1]]) == kind.terrains, kind.name


@pytest.mark.django_db
def test_game_page_loads_the_ventlife_renderer(client, alice, bob):
    game = services.game_create(
        slug="ventlife", seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    client.force_login(alice)
    response = client.get(reverse("game-detail", args=[game.pk]))
    assert response.status_code == 200
    page_html = response.content.decode()
    assert '<script type="module" src="/static/js/game.js">' in page_html
    assert renderer_file(page_html) == RENDERER and RENDERER.is_file()
