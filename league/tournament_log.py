"""A tournament's log in words, for its organisers' page: who did what, newest first.

The log (TournamentEvent) keeps facts by their kind and data; this says each as an organiser
would ("ann entered bo", "Round 2 paired", "bo dropped (did not check in)"), never showing a
kind or an id. A kind it does not know is said by its name in words, so a new fact is never
missing from the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from games.templatetags.clocks import clock_words
from league.models import Tournament, TournamentEvent

# The settings' names as the edit form calls them.
SETTING_WORDS = {
    "name": "the name",
    "game": "the game",
    "format": "the format",
    "mode": "the mode",
    "table_size": "players per table",
    "rounds": "rounds",
    "advance": "advance per table",
    "top_cut": "the top cut",
    "placement_points": "points by place",
    "entry_mode": "entry",
    "check_in": "check-in",
    "cap": "most players",
    "avoid_club_rounds": "rounds keeping club mates apart",
    "vacation_allowed": "vacations",
    "tiebreaks": "tie-breaks",
    "time_control": "the clock",
    "round_minutes": "minutes per round",
    "bye_points": "points for a bye",
    "options": "the game's options",
}


def log_lines(
    tournament: Tournament, *, tiebreaks: Mapping[str, str], limit: int = 500
) -> list[dict[str, Any]]:
    """The newest ``limit`` events, newest first: ``{"when", "text"}``. ``tiebreaks`` names
    the tie-breaks as the page does."""
    events = TournamentEvent.objects.filter(tournament=tournament).select_related("actor")
    return [
        {"when": event.created_at, "text": _say(event, tiebreaks)}
        for event in events.order_by("-pk")[:limit]
    ]


def _say(event: TournamentEvent, tiebreaks: Mapping[str, str]) -> str:
    data = event.data or {}
    actor = event.actor.username if event.actor is not None else ""
    if event.kind == "TournamentEdited":
        return _edited(actor, data, tiebreaks)
    say = _SAYINGS.get(event.kind)
    if say is None:
        words = re.sub(r"(?<!^)(?=[A-Z])", " ", event.kind).lower().capitalize()
        return f"{words}: {data['player']}" if "player" in data else words
    return say(actor, data)


def _by(actor: str, player: str, verb: str, alone: str) -> str:
    """Who did it to whom: ann entered bo, when an organiser did; bo entered, when bo did."""
    if not actor or actor == player:
        return f"{player} {alone}"
    return f"{actor} {verb} {player}"


def _entered(actor: str, data: dict) -> str:
    text = _by(actor, data.get("player", ""), "entered", "entered")
    if data.get("walk_in"):
        text += " as a walk-in"
    after = data.get("after_round") or 0
    return text + (f", a late entry playing from round {after + 1}" if after else "")


def _dropped(actor: str, data: dict) -> str:
    player = data.get("player", "")
    if data.get("reason") == "not checked in":
        return f"{player} dropped (did not check in)"
    text = _by(actor, player, "dropped", "dropped out")
    after = data.get("after_round")
    return text + (f" after round {after}" if after else " before round 1")


def _promoted(actor: str, data: dict) -> str:
    if data.get("reason"):
        return f"{data.get('player')} moved up from the waitlist to a place freed at check-in"
    return f"{data.get('player')} moved up from the waitlist"


def _check_in_closed(actor: str, data: dict) -> str:
    text = "Check-in closed"
    if data.get("dropped"):
        text += f"; dropped: {', '.join(data['dropped'])}"
    if data.get("promoted"):
        text += f"; in from the waitlist: {', '.join(data['promoted'])}"
    return text


def _paired(actor: str, data: dict) -> str:
    again = " again" if (data.get("attempt") or 1) > 1 else ""
    cut = " (top cut)" if data.get("stage") == "cut" else ""
    return f"Round {data.get('round')} paired{again}{cut}"


def _finished(actor: str, data: dict) -> str:
    champion = data.get("champion")
    text = "The tournament ended"
    if data.get("early"):
        text = f"{actor or 'An organiser'} ended the tournament after round {data.get('rounds')}"
    return text + (f": {champion} won" if champion else "")


def _edited(actor: str, data: dict, tiebreaks: Mapping[str, str]) -> str:
    def said(name: str, value: Any) -> str:
        if name == "tiebreaks" and isinstance(value, list):
            return ", ".join(tiebreaks.get(v, v) for v in value)
        return _value(name, value)

    changes = [
        f"{SETTING_WORDS.get(name, name.replace('_', ' '))} from {said(name, old)}"
        f" to {said(name, new)}"
        for name, (old, new) in (data.get("changes") or {}).items()
    ]
    return f"{actor or 'An organiser'} changed " + "; ".join(changes)


def _value(name: str, value: Any) -> str:
    if value is None or value == "":
        return "none"
    if isinstance(value, bool):
        return "on" if value else "off"
    if name == "time_control" and isinstance(value, dict):
        return str(clock_words(value))
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, dict):
        return "; ".join(f"{k}: {_value(k, v)}" for k, v in value.items())
    if isinstance(value, list):
        return "/".join(_value(name, v) for v in value)
    return str(value)


_SAYINGS: dict[str, Callable[[str, dict], str]] = {
    "TournamentCreated": lambda a, d: (
        f"{a or 'An organiser'} created the tournament"
        + (f" with {len(d['players'])} players" if d.get("players") else "")
    ),
    "EntryAdded": _entered,
    "EntryClaimed": lambda a, d: f"{d.get('player')} claimed the entry of {d.get('walk_in')}",
    "EntryWaitlisted": lambda a, d: (
        _by(a, d.get("player", ""), "entered", "entered") + ", waiting for a place"
    ),
    "EntryPromoted": _promoted,
    "EntrySeated": lambda a, d: (
        f"{a} gave {d.get('player')} a place" + (" beyond the cap" if d.get("beyond_cap") else "")
    ),
    "EntryAccepted": lambda a, d: f"{d.get('player')} accepted their entry",
    "EntryDeclined": lambda a, d: f"{d.get('player')} declined their entry",
    "EntryDropped": _dropped,
    "EntryReentered": lambda a, d: _by(a, d.get("player", ""), "put back in", "came back in"),
    "CheckedIn": lambda a, d: _by(a, d.get("player", ""), "checked in", "checked in"),
    "CheckInClosed": _check_in_closed,
    "CapChanged": lambda a, d: (
        f"Most players set to {d['cap']}" if d.get("cap") is not None else "No cap on players"
    ),
    "RoundPaired": _paired,
    "RoundStarted": lambda a, d: (
        f"Round {d.get('round')}'s clock started: {d.get('minutes')} minutes"
    ),
    "StageStarted": lambda a, d: f"The top cut began with {len(d.get('players', []))} players",
    "TournamentFinished": _finished,
    "OrganiserAdded": lambda a, d: f"{a} made {d.get('player')} an organiser",
    "OrganiserRemoved": lambda a, d: (
        f"{a} took {d.get('player')} off the organisers"
        if a != d.get("player")
        else f"{a} stopped organising"
    ),
}
