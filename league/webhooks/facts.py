"""Each fact a webhook carries, one constructor per fact: its type (``result.recorded``), the
sentence a club's channel shows ("Round 2 of Spring Open is paired: table 1 alice v bob") and
its data for a program. The words are the players' own: names, table numbers, places."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RESULT_RECORDED = "result.recorded"
ROUND_PAIRED = "round.paired"
STANDINGS_CHANGED = "standings.changed"
RESULT_DISPUTED = "result.disputed"
TEST = "test"

# What the delivery log calls each type.
TYPE_WORDS = {
    RESULT_RECORDED: "Result",
    ROUND_PAIRED: "Round paired",
    STANDINGS_CHANGED: "Standings",
    RESULT_DISPUTED: "Dispute",
    TEST: "Test",
}
STANDINGS_IN_WORDS = 10  # the rows a sentence names; the data has them all


@dataclass(frozen=True)
class Fact:
    type: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Where:
    """Where a game was played, for the words: a club, or a tournament's table."""

    league: str
    tournament: str = ""
    round: int | None = None
    table: int | None = None

    def words(self) -> str:
        if self.tournament:
            return f"table {self.table}, round {self.round} of {self.tournament}"
        return self.league

    def data(self) -> dict[str, Any]:
        if self.tournament:
            return {"tournament": self.tournament, "round": self.round, "table": self.table}
        return {}


def result_recorded(
    *, game_id: int, game: str, where: Where, result: list[dict[str, Any]], corrected: bool
) -> Fact:
    """A game's result became final (or was corrected): each player's place and score."""
    order = sorted(result, key=lambda r: r["rank"])
    places = [_place(r) for r in order]
    verb = "corrected" if corrected else "result"
    return Fact(
        RESULT_RECORDED,
        f"{game} at {where.words()}, {verb}: {_listed(places)}",
        {"game_id": game_id, "game": game, "corrected": corrected, "result": order, **where.data()},
    )


def result_disputed(*, game_id: int, game: str, where: Where, by: str, reason: str) -> Fact:
    text = f"{by or 'A player'} disputes the result of {game} at {where.words()}"
    return Fact(
        RESULT_DISPUTED,
        text + (f": {reason}" if reason else ""),
        {"game_id": game_id, "game": game, "by": by, "reason": reason, **where.data()},
    )


def round_paired(
    *, tournament: str, number: int, tables: list[tuple[int, list[str]]], byes: list[str]
) -> Fact:
    parts = [f"table {n} {' v '.join(players)}" for n, players in tables]
    if byes:
        parts.append(f"a bye for {_listed(byes)}")
    return Fact(
        ROUND_PAIRED,
        f"Round {number} of {tournament} is paired: {'; '.join(parts)}",
        {
            "tournament": tournament,
            "round": number,
            "tables": [{"table": n, "players": players} for n, players in tables],
            "byes": byes,
        },
    )


def standings_changed(*, tournament: str, after_round: int, rows: list[dict[str, Any]]) -> Fact:
    """A tournament's standings once a round is complete."""
    shown = [
        f"{place}. {row['player']} {_number(row['points'])} pts"
        for place, row in enumerate(rows[:STANDINGS_IN_WORDS], start=1)
    ]
    more = len(rows) - STANDINGS_IN_WORDS
    return Fact(
        STANDINGS_CHANGED,
        f"{tournament} standings after round {after_round}: {', '.join(shown)}"
        + (f" and {more} more" if more > 0 else ""),
        {
            "tournament": tournament,
            "after_round": after_round,
            "standings": [
                {"player": r["player"], "points": r["points"], "games": r["games"]} for r in rows
            ],
        },
    )


def test(*, league: str, by: str) -> Fact:
    return Fact(
        TEST,
        f"A test from Hadal, sent by {by}: {league}'s webhook works",
        {"league": league, "by": by},
    )


def _place(row: dict[str, Any]) -> str:
    place = "won" if row["rank"] == 1 else _ordinal(row["rank"])
    score = row.get("score")
    return f"{row['player']} {place}" + ("" if score is None else f" with {_number(score)}")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _number(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _listed(items: list[str]) -> str:
    return " and ".join([", ".join(items[:-1]), items[-1]] if len(items) > 1 else items)
