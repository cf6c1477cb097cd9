"""The golden corpus (tests/golden/corpus/, made by tests/golden/make.py): finished games of every
game at every version of its rules, the old versions' played by the code of their time. Each is
replayed under today's code and must give the same result, ranks, redaction and fingerprint; a
change to a rule module that alters any of them must come as a new rules version instead
(CONTRIBUTING.md, "Changing a game's rules")."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from games import logchain
from games.records.export import bundle_of
from games.records.verify import BundleError, verify
from games.rules import IllegalAction, get_rules, registered
from tests.golden.load import load

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
CORPUS = GOLDEN / "corpus"
PINNED = json.loads((GOLDEN / "corpus.json").read_text())
FILES = sorted(str(p.relative_to(CORPUS)) for p in CORPUS.rglob("*.json"))
MOVES = ("ActionApplied", "ChanceResolved")


def read(name: str) -> tuple[bytes, dict]:
    raw = (CORPUS / name).read_bytes()
    return raw, json.loads(raw)


def replayed(bundle: dict, version: int | None = None):
    """The bundle's game replayed under ``version`` of its rules (its own by default), each
    move checked for what the rules say the other seats may see of it."""
    rules = get_rules(bundle["rules"]["slug"], version or bundle["rules"]["version"])
    created = bundle["events"][0]["data"]
    state = rules.new_game(created["num_players"], dict(created["options"]))
    events = bundle["events"]
    undone = logchain.undone((e["seq"], e["kind"], e["data"]) for e in events)
    for event in events:
        if event["kind"] not in MOVES or event["seq"] in undone:
            continue
        action, private = event["data"]["action"], state.private_to(event["data"]["action"])
        if version is None:
            assert event["data"].get("private_to") == (sorted(private) if private else None)
            if private is not None:
                assert event["data"]["public"] == state.public_form(action)
        state.apply(action)
    return state


def test_every_bundle_is_pinned_and_every_pin_has_its_bundle():
    assert FILES and sorted(PINNED) == FILES


def test_every_version_of_every_game_has_its_games():
    count = Counter(tuple(name.split("/")[:2]) for name in FILES)
    for slug, module in registered().items():
        for version in module.spec.known_versions():
            assert count[(slug, f"v{version}")] >= 9, (slug, version)


@pytest.mark.parametrize("name", FILES)
def test_each_game_replays_to_its_pinned_result_and_fingerprint(name):
    raw, bundle = read(name)
    checked = verify(raw)
    assert checked.fingerprint == PINNED[name]["fingerprint"]
    logged = bundle["events"][-1]["data"]["result"]
    assert [[line["score"], line["rank"]] for line in logged] == PINNED[name]["result"]
    if bundle["game"]["mode"] == "record":
        assert not checked.replayed  # a result recorded from a table: no moves
        return
    assert checked.replayed
    state = replayed(bundle)
    assert state.is_terminal()
    assert [[line["score"], line["rank"]] for line in state.result()] == PINNED[name]["result"]


def differs(bundle: dict) -> bool:
    """Whether the game ends otherwise under the next version of its rules (or is refused)."""
    try:
        state = replayed(bundle, bundle["rules"]["version"] + 1)
    except IllegalAction:
        return True
    finished = bundle["events"][-1]["data"]["result"]
    return [[r["score"], r["rank"]] for r in state.result()] != [
        [r["score"], r["rank"]] for r in finished
    ]


@pytest.mark.parametrize("slug", ["deep-vents", "abyss"])
def test_version_1_holds_games_that_version_2_would_end_otherwise(slug):
    """So that the corpus can tell the versions apart: a version-1 game with an elimination
    ranked by points (Deep Vents), a Master of Magic's recruit a race short (Abyss)."""
    ones = [read(n)[1] for n in FILES if n.startswith(f"{slug}/v1/") and "table-log" not in n]
    assert sum(differs(bundle) for bundle in ones) >= 3


def test_a_deep_vents_version_1_game_keeps_its_eliminated_seat_above_a_survivor():
    for name in (n for n in FILES if n.startswith("deep-vents/v1/")):
        bundle = read(name)[1]
        if not differs(bundle):
            continue
        v1 = replayed(bundle)
        v2 = replayed(bundle, 2)
        out = [seat for seat in range(v1.num_players) if v1._out[seat]]
        assert out and [r["rank"] for r in v1.result()] != [r["rank"] for r in v2.result()]
        return
    pytest.fail("no version-1 game of Deep Vents that version 2 ranks otherwise")


def test_deep_sea_adventure_version_1_kept_each_reveal_for_its_diver():
    for name in (n for n in FILES if n.startswith("deep-sea-adventure/")):
        bundle = read(name)[1]
        reveals = [
            e["data"]
            for e in bundle["events"]
            if e["kind"] == "ChanceResolved" and e["data"]["action"]["type"] == "reveal"
        ]
        assert reveals, name
        if "/v1/" in name:
            assert all(r["private_to"] == [r["action"]["seat"]] for r in reveals)
        else:
            assert not any("private_to" in r for r in reveals)


def test_a_bundle_changed_by_one_byte_fails_saying_where():
    raw, _ = read(FILES[0])
    for at in (len(raw) // 7, len(raw) // 3, len(raw) // 2, len(raw) - 3):
        changed = bytearray(raw)
        changed[at] = ord("x") if raw[at] != ord("x") else ord("y")
        with pytest.raises(BundleError):
            verify(bytes(changed))


def test_a_bundle_of_a_version_this_copy_never_had_is_refused():
    raw, bundle = read(next(n for n in FILES if n.startswith("deep-vents/")))
    bundle["rules"]["version"] = 9
    bundle["events"][0]["data"]["rules_version"] = 9  # the chain then fails first
    with pytest.raises(BundleError):
        verify(logchain.dump_bundle(bundle))


@pytest.mark.slow
def test_each_game_verifies_with_nothing_but_python():
    for name in FILES[:: max(1, len(FILES) // 12)]:
        done = subprocess.run(
            [sys.executable, "-I", "-S", "games/verify_log.py", str(CORPUS / name)],
            cwd=GOLDEN.parents[1],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, (name, done.stderr)


@pytest.mark.django_db
def test_a_version_1_game_loaded_keeps_its_ranks_on_its_page_and_exports_as_it_was(client):
    name = next(n for n in FILES if n.startswith("deep-vents/v1/") and differs(read(n)[1]))
    raw, bundle = read(name)
    game = load(bundle)
    assert logchain.dump_bundle(bundle_of(game)) == raw  # byte for byte
    page = client.get(f"/games/{game.pk}/").content.decode()
    ranks = [line["rank"] for line in game.result]
    table = page.split('id="result-table"')[1].split("</tbody>")[0]
    shown = re.findall(r"<tr><td>(\d+)(?:st|nd|rd|th)?</td><td>([^<]*)</td>", table)
    assert shown == [(str(line["rank"]), line["player"]) for line in game.result]
    assert sorted(ranks) == list(range(1, len(ranks) + 1))  # Deep Vents shares no rank
    from games import store

    assert store.load_state(game).result() == replayed(bundle).result()
