"""Recording an Oceans game with its score sheet on a phone (390 px wide), in headless
Chromium: the sheet appears for Oceans only, fits the screen (a wide sheet table on the
record's page scrolls within itself), each number's name sits over its box, and the record
shows it. A disputed record is corrected with its sheet from the correction page, on a phone
and on a desktop (issue 39, item 1).

Uses the Playwright harness of tests/games/test_browser.py (skips without Chromium). Set
HADAL_SCREENSHOT to save the filled-in form to /tmp/hadal-oceans.png and the correction form,
as it opens on a phone, to /tmp/hadal-oceans-correction.png.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from games.models import Game
from games.records import reads as record_reads
from tests.games.test_browser import page  # noqa: F401  (the fixture)
from tests.league.test_browser_tournament import sign_in

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}
SCREENSHOT = Path("/tmp/hadal-oceans.png")
CORRECTION_SCREENSHOT = Path("/tmp/hadal-oceans-correction.png")


def overflow(page) -> list[str]:  # noqa: F811
    """The visible elements of the page's content that stick out past the screen's right
    edge (the site's navigation bar is left out: it is not this page's). What lies in a box
    that scrolls sideways of its own (a wide table) does not widen the page."""
    return page.evaluate(
        """(() => {
          const scrolls = (e) => {
            for (let a = e.parentElement; a && a.tagName !== "MAIN"; a = a.parentElement) {
              if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true;
            }
            return false;
          };
          return Array.from(document.querySelectorAll("main *"))
            .filter(e => e.offsetParent !== null && !scrolls(e))
            .filter(e => e.getBoundingClientRect().right > window.innerWidth + 1)
            .map(e => e.tagName + "." + e.className);
        })()"""
    )


def misplaced(page) -> list[str]:  # noqa: F811
    """What on the sheet form is not where a player looks for it: a number's name that is not
    right over its own box, a player's three boxes not side by side, a box or a tick shorter
    than a finger (44 px)."""
    return page.evaluate(
        """(() => {
          const out = [];
          const box = (e) => e.getBoundingClientRect();
          document.querySelectorAll(".sheet-player").forEach((player) => {
            if (player.offsetParent === null) return;
            const tops = new Set();
            player.querySelectorAll(".sheet-points label").forEach((label) => {
              const name = box(label.querySelector("span")), input = box(label.querySelector("input"));
              const what = player.querySelector(".sheet-name").textContent + " " + label.textContent.trim();
              if (name.bottom > input.top + 1 || input.top - name.bottom > 8) out.push(what + ": name not over its box");
              if (Math.abs(name.left - input.left) > 2) out.push(what + ": name not lined up with its box");
              if (input.height < 44) out.push(what + ": box " + input.height + " px tall");
              tops.add(Math.round(input.top));
            });
            if (tops.size !== 1) out.push(player.querySelector(".sheet-name").textContent + ": boxes on " + tops.size + " lines");
            const summary = player.querySelector(".sheet-cards summary");
            if (box(summary).height < 44) out.push("Deep cards played: " + box(summary).height + " px tall");
            player.querySelectorAll(".sheet-cards[open] label").forEach((label) => {
              if (box(label).height < 44) out.push(label.textContent.trim() + ": tick " + box(label).height + " px tall");
            });
          });
          return out;
        })()"""
    )


def test_recording_an_oceans_sheet_on_a_phone(page, make_user):  # noqa: F811
    from playwright.sync_api import expect

    make_user("alice")
    make_user("bob")
    page.set_viewport_size(PHONE)
    sign_in(page, "alice")
    page.goto("/matches/new/")
    sheet = page.locator("#oceans-sheet")
    page.select_option("#id_game", "abyss")
    expect(sheet).to_be_hidden()
    page.select_option("#id_game", "oceans")
    expect(sheet).to_be_visible()
    page.fill("#id_player_0", "alice")
    page.fill("#id_rank_0", "1")
    page.fill("#id_player_1", "bob")
    page.fill("#id_rank_1", "2")
    blocks = sheet.locator(".sheet-player:visible")
    expect(blocks).to_have_count(2)
    expect(blocks.nth(0).locator(".sheet-name")).to_have_text("alice")
    page.fill("#id_pile_0", "38")
    page.fill("#id_bonus_0", "2")
    page.fill("#id_pile_1", "30")
    page.fill("#id_other_1", "1")
    blocks.nth(0).locator("summary").click()
    blocks.nth(0).get_by_label("Go Fish").check()
    page.check("#id_reef")
    page.fill("#id_scenarios", "Cruel Sea")
    assert overflow(page) == []
    assert misplaced(page) == []
    if os.environ.get("HADAL_SCREENSHOT"):
        page.screenshot(path=str(SCREENSHOT), full_page=True)
    page.click("#record-game button[type=submit]")
    expect(page.locator(".sheet-view")).to_contain_text("Go Fish")
    assert overflow(page) == []
    state = record_reads.result_state(Game.objects.get())  # waiting for bob to confirm
    assert [r["score"] for r in state["reported"]] == [40, 31]
    assert state["sheet"]["reef"] is True and state["sheet"]["players"][0]["deep_cards"] == [
        "Go Fish"
    ]


def record_with_a_guest(api_for, alice, bob) -> int:
    """alice records alice 41, bob 37 and the guest Mina 20, with the sheet; bob disputes it."""
    players = [
        ("alice", False, 38, 2, 1, ["Go Fish"]),
        ("bob", False, 30, 5, 2, []),
        ("Mina", True, 20, 0, 0, []),
    ]
    body = {
        "game": "oceans",
        "played_at": "2026-11-20",
        "results": [
            {"player": name, "guest": guest, "rank": rank}
            for rank, (name, guest, *_) in enumerate(players, 1)
        ],
        "sheet": {
            "edition": "second printing",
            "reef": False,
            "scenarios": ["Cruel Sea"],
            "players": [
                {
                    "player": name,
                    "score_pile": pile,
                    "bonus": bonus,
                    "other": other,
                    "deep_cards": cards,
                }
                for name, _, pile, bonus, other, cards in players
            ],
        },
    }
    made = api_for(alice).post("/api/matches/", body, format="json")
    assert made.status_code == 201, made.json()
    game_id = made.json()["id"]
    disputed = api_for(bob).post(
        f"/api/matches/{game_id}/dispute/", {"reason": "my pile was 40"}, format="json"
    )
    assert disputed.json()["record"]["status"] == "disputed"
    return game_id


@pytest.mark.parametrize(
    "viewport", [PHONE, {"width": 1400, "height": 1000}], ids=["phone", "desktop"]
)
def test_correcting_an_oceans_record_with_its_sheet(page, make_user, api_for, viewport):  # noqa: F811
    from playwright.sync_api import expect

    alice, bob = make_user("alice"), make_user("bob")
    game_id = record_with_a_guest(api_for, alice, bob)
    page.set_viewport_size(viewport)
    sign_in(page, "alice")
    page.goto(f"/games/{game_id}/")
    page.click(f"a[href='/matches/{game_id}/correct/']")
    sheet = page.locator("#oceans-sheet")
    expect(sheet).to_be_visible()
    blocks = sheet.locator(".sheet-player")
    expect(blocks.locator(".sheet-name")).to_have_text(["alice", "bob", "Mina"])
    # The sheet as it stands is filled in, and so are the scores.
    expect(page.locator("#id_pile_1")).to_have_value("30")
    expect(page.locator("#id_score_1")).to_have_value("37")
    expect(page.locator("#id_scenarios")).to_have_value("Cruel Sea")
    expect(blocks.nth(0).get_by_label("Go Fish")).to_be_checked()
    if viewport is PHONE:
        assert overflow(page) == []
        assert misplaced(page) == []
        if os.environ.get("HADAL_SCREENSHOT"):
            page.screenshot(path=str(CORRECTION_SCREENSHOT), full_page=True)
    # bob's pile was 40: correct the sheet, leave his score as it was, swap the ranks.
    page.fill("#id_pile_1", "40")
    page.fill("#id_rank_0", "2")
    page.fill("#id_rank_1", "1")
    page.fill("#id_reason", "bob's score pile was 40, not 30")
    page.click("#correct-result button[type=submit]")
    expect(page).to_have_url(f"/games/{game_id}/")
    expect(page.locator("main")).to_contain_text("Corrected. The history keeps both results.")
    expect(page.locator(".sheet-view").first).to_contain_text("47")
    if viewport is PHONE:
        assert overflow(page) == []
    state = record_reads.result_state(Game.objects.get())
    assert [(r["player"], r["rank"], r["score"]) for r in state["reported"]] == [
        ("alice", 2, 41),
        ("bob", 1, 47),
        ("Mina", 3, 20),
    ]
    assert state["sheet"]["players"][1]["score_pile"] == 40
    assert state["sheet"]["players"][0]["deep_cards"] == ["Go Fish"]
    assert state["status"] == "awaiting confirmation" and state["waiting_for"] == ["bob"]
