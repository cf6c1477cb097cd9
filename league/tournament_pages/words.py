"""A tournament in the page's words: its tie-breaks explained, its bracket (who holds each
place, who went through), its final placings, and how a tie at the line is broken."""

from __future__ import annotations

from typing import Any

from league import selectors
from league.models import Tournament
from league.services import tournaments

TIEBREAK_LABELS = {
    "buchholz": "Buchholz",
    "score": "Score",
    "share": "Share",
    "wins": "Wins",
    "head_to_head": "Head to head",
    "median_buchholz": "Median Buchholz",
    "opponents_share": "Opponents' share",
}


TIEBREAK_HELP = {
    "buchholz": "the average, over your games, of your opponents' average points, so a game at"
    " a smaller table counts as much as one at a full table.",
    "score": "your game scores, added up.",
    "share": "your score at each table as a part of the table's total, added up; a negative"
    " score counts from the table's lowest, so it never beats a higher one.",
    "wins": "the games you won.",
    "head_to_head": "the points you took in games against the other players tied with you.",
    "median_buchholz": "Buchholz without your best and worst game, once you have played three.",
    "opponents_share": "how well your opponents did on average: the part of the most points"
    " they could have taken that they took, counting anyone below {floor} as {floor}.",
}


# The words of tie-break version 1, for events finished before issue 38 (league.standings).
TIEBREAK_HELP_V1 = {
    **TIEBREAK_HELP,
    "buchholz": "the points of everyone you played against, added up.",
    "share": "your score at each table as a part of the table's total, added up.",
}


TIE_WORDS = {
    Tournament.EliminationTies.PLAYOFF: "played off: the report gives the order, or an"
    " organiser records the play-off",
    Tournament.EliminationTies.SEED: "the higher seed goes through",
    Tournament.EliminationTies.SCORE: "the higher score goes through, then the higher seed",
}


def ordinal(n: int) -> str:
    if 10 <= n % 100 <= 20:
        return f"{n}th"
    return f"{n}{ {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th') }"


def placings_shown(tournament: Tournament) -> list[dict[str, str]]:
    """The final placings in words: 1st, 2nd, 3rd–4th, ..."""
    return [
        {
            "place": ordinal(p["place"])
            + (f"–{ordinal(p['to'])}" if p["to"] != p["place"] else ""),
            "player": p["player"],
        }
        for p in selectors.tournament_placings(tournament)
    ]


def bracket_shown(tournament: Tournament) -> dict[str, Any] | None:
    """The bracket (tournaments.tournament_bracket) in the games' words: who holds each place
    or where it comes from, who went through, walkovers and byes."""
    bracket = tournaments.tournament_bracket(tournament)
    if bracket is None:
        return None
    names = {r["round"]: r["name"] for r in bracket["rounds"]}
    rounds = []
    for round_ in bracket["rounds"]:
        tables = []
        for index, table in enumerate(round_["tables"], start=1):
            places = []
            for place in table["places"]:
                source = place["from"]
                if place["player"] is not None:
                    note = "bye in round 1" if "seed" in source and round_["round"] > 1 else ""
                    text = place["player"]
                elif not table["decided"]:
                    text = "to be decided"
                    note = (
                        f"{'winner' if source['place'] == 1 else ordinal(source['place'])}"
                        f" of match {source['bracket_table']}, {names[source['round']].lower()}"
                        if "seed" not in source
                        else ""
                    )
                else:
                    text, note = "empty place", "withdrew"
                places.append(
                    {
                        "text": text,
                        "note": note,
                        "through": place["player"] is not None
                        and place["player"] in table["through"],
                        "empty": place["player"] is None,
                    }
                )
            tables.append(
                {
                    "match": index,
                    "table": table["table"],
                    "status": table["status"],
                    "words": _bracket_status(table),
                    "places": places,
                    "table_id": table["table_id"],
                    "players": [p["player"] for p in table["places"] if p["player"]],
                }
            )
        name = round_["name"]
        if round_["number"] is not None:
            special = name in ("Final", "Semi-finals")
            name = f"Round {round_['number']}" + (f" · {name}" if special else "")
        rounds.append({"name": name, "tables": tables})
    return {"rounds": rounds, "byes": bracket["byes"], "drawn": bracket["drawn"]}


def _bracket_status(table: dict[str, Any]) -> str:
    through = [p for p in table["through"] if p]
    if table["status"] == "walkover":
        return f"walkover: {', '.join(through)} through" if through else "nobody left"
    if table["status"] == "played":
        return (
            f"{', '.join(through)} through"
            if table["going_through"] > 1 or len(through) != 1
            else f"won by {through[0]}"
        )
    if table["status"] == "to play":
        return "to play"
    if table["status"] == "tied":
        return "tied for the place that goes through: to be played off"
    return "waiting for the tables before"
