"""Oceans score sheets: what a record of an Oceans game may carry beyond each player's score.

Oceans is recorded, not played here (games.catalog.RECORDED_ONLY): the base game's rules are
not public, so a sheet is checked only where the sources allow a check.

Checked: each player's total is the sum of their score pile, bonus token and other final
points (oceans-data.md: "the total must be their sum"), and is the score their result carries;
every Deep card named is one of The Deep promo pack 2's (games.rules.oceans_data); a card of
which the pack has one copy is played at most once in a game (an event "is removed from the
game", a trait stays on its species). Not checked: whether the population and costs add up over
the game, the scenario cards (free text: the base game's are not listed in the sources), or
which edition's end-of-game rules were followed (free text, the record's to name).

A sheet is ``{"edition", "reef", "scenarios", "players": [{"player", "score_pile", "bonus",
"other", "total", "deep_cards"}]}``; :func:`parse_sheet` returns it clean, cards by their
printed names, players in the results' order.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from core import inputs
from core.errors import InvalidInput, Refused
from games.rules.oceans_data import CARDS, PACK, card_named

SLUG = "oceans"
MAX_POINTS = 10_000
MAX_SCENARIOS = 12
SHEET_KEYS = {"edition", "reef", "scenarios", "players"}
PLAYER_KEYS = {"player", "score_pile", "bonus", "other", "total", "deep_cards"}


def parse_sheet(sheet: Any, results: list[dict[str, Any]]) -> dict[str, Any]:
    """The clean sheet for ``results`` (clean results, see games.records.services.parse_results). A
    result without a score takes its total; one with a score must agree with it."""
    if not isinstance(sheet, dict):
        raise InvalidInput("sheet must be an object")
    _no_other_keys(sheet, SHEET_KEYS, "sheet")
    edition = inputs.text(sheet.get("edition") or "", "sheet: edition", 100, blank=True)
    reef = sheet.get("reef", False)
    if not isinstance(reef, bool):
        raise InvalidInput("sheet: reef must be true or false (was the Reef variant played?)")
    scenarios = sheet.get("scenarios") or []
    if not isinstance(scenarios, list) or len(scenarios) > MAX_SCENARIOS:
        raise InvalidInput(f"sheet: scenarios must be a list of at most {MAX_SCENARIOS} names")
    scenarios = [inputs.text(s, f"sheet: scenario {i + 1}", 100) for i, s in enumerate(scenarios)]
    rows = sheet.get("players")
    if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
        raise InvalidInput("sheet: players must be a list, one object per player")
    by_name: dict[str, dict[str, Any]] = {}
    for i, row in enumerate(rows):
        name = row.get("player")
        if not isinstance(name, str) or not name.strip():
            raise InvalidInput(f"sheet: player {i + 1}: give the player's name")
        by_name[name.strip()] = row
    names = [r["player"] for r in results]
    if len(rows) != len(by_name) or set(by_name) != set(names):
        raise Refused(
            "sheet: players must be exactly the players in the results: " + ", ".join(names)
        )
    players = [_player_sheet(by_name[r["player"]], r) for r in results]
    _single_copies_once(players)
    return {"edition": edition, "reef": reef, "scenarios": scenarios, "players": players}


def _player_sheet(row: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
    who = f"sheet, {result['player']}"
    _no_other_keys(row, PLAYER_KEYS, who)
    pile = _points(row.get("score_pile"), f"{who}: score_pile", low=0)
    bonus = _points(row.get("bonus", 0), f"{who}: bonus", low=0)
    other = _points(row.get("other", 0), f"{who}: other", low=-MAX_POINTS)
    total = pile + bonus + other
    given = row.get("total", total)
    if given is None:
        given = total
    given = _points(given, f"{who}: total", low=-MAX_POINTS)
    if given != total:
        raise Refused(
            f"{who}: the total {given} is not the sum of the score pile {pile}, the bonus"
            f" {bonus} and other points {other} (= {total})"
        )
    if result["score"] is None:
        result["score"] = total
    elif result["score"] != total:
        raise Refused(f"{who}: the score {result['score']} is not the sheet's total {total}")
    cards = row.get("deep_cards") or []
    if not isinstance(cards, list) or len(cards) > len(CARDS) * 2:
        raise InvalidInput(f"{who}: deep_cards must be a list of card names")
    return {
        "player": result["player"],
        "score_pile": pile,
        "bonus": bonus,
        "other": other,
        "total": total,
        "deep_cards": [_card(name, who) for name in cards],
    }


def _card(name: Any, who: str) -> str:
    card = card_named(name) if isinstance(name, str) else None
    if card is None:
        known = ", ".join(c.name for c in CARDS)
        raise InvalidInput(f"{who}: unknown Deep card {name!r} (the cards of {PACK}: {known})")
    return card.name


def _single_copies_once(players: list[dict[str, Any]]) -> None:
    """A card is played at most as often as the pack has copies of it, across all players."""
    played = Counter(card for p in players for card in p["deep_cards"])
    for card in CARDS:
        if played[card.name] > card.copies:
            by = [p["player"] for p in players if card.name in p["deep_cards"]]
            raise Refused(
                f"sheet: {card.name} is played {played[card.name]} times ({', '.join(by)}),"
                f" but {PACK} has {'one copy' if card.copies == 1 else f'{card.copies} copies'}"
            )


def _points(value: Any, name: str, *, low: int) -> int:
    if value is None:
        raise InvalidInput(f"{name}: give a whole number")
    return inputs.whole_number(value, name, low, MAX_POINTS)


def _no_other_keys(data: dict[str, Any], known: set[str], where: str) -> None:
    extra = sorted(str(k) for k in set(data) - known)
    if extra:
        raise InvalidInput(
            f"{where}: unknown field {extra[0]!r} (known: {', '.join(sorted(known))})"
        )


def card_statistics(sheets: list[tuple[dict[str, Any], list[dict[str, Any]]]]) -> list[dict]:
    """Per known card: the games it was played in and the share of them its player won
    (ranked first, ties included), from ``(sheet, result)`` pairs of final records."""
    games: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for sheet, result in sheets:
        rank = {line["player"]: line["rank"] for line in result or []}
        for player in sheet.get("players", []):
            for name in set(player.get("deep_cards", [])):
                games[name] += 1
                wins[name] += rank.get(player["player"]) == 1
    return [
        {
            "card": card.name,
            "kind": card.kind,
            "migrate": card.migrate,
            "resolution": card.resolution,
            "note": card.note,
            "games": games[card.name],
            "wins": wins[card.name],
            "win_rate": wins[card.name] / games[card.name] if games[card.name] else None,
        }
        for card in CARDS
    ]
