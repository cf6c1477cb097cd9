"""What the end of a game says: each player's place and final score with the parts it is made
of (from the rule module's view once the game is over), what the apps above add (league: each
player's rating change, through games.signals.game_over_panels), and the rematch."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games import signals
from games.models import EventKind, Game, GameMode, GameStatus
from games.play import lobby, reads

# The parts of a score in the games' words, by the key the rule modules' views use.
PART_WORDS = {
    # Deep Vents
    "supply": "Archaea kept",
    "shells": "Shells (1 per 2)",
    "hex_archaea": "Archaea on hexes (1 per 2)",
    "shortfall": "Shortfall",
    # Abyss
    "locations": "Locations",
    "lords": "Lords",
    "allies": "Allies",
    "monsters": "Monster tokens",
    # Deep Sea Adventure
    "treasure": "Treasure",
    "level4": "Deepest chips (breaks ties)",
}


def part_label(key: str) -> str:
    return PART_WORDS.get(key) or key.replace("-", " ").replace("_", " ").capitalize()


@dataclass
class Line:
    rank: int
    player: str
    parts: list[Any]
    total: Any
    you: bool
    resigned: bool


@dataclass
class GameOver:
    columns: list[str]
    lines: list[Line]
    reason: str  # "" when the rules ended the game
    panels: list[tuple[str, dict]] = field(default_factory=list)
    rematch: int | None = None
    may_rematch: bool = False


def score_parts(view: dict[str, Any], seats: int) -> tuple[list[str], list[list[Any]]]:
    """The columns and, per seat, the parts of its score that the final view shows."""
    scores = view.get("scores")
    if not isinstance(scores, list) or len(scores) != seats:
        return [], [[] for _ in range(seats)]
    if all(isinstance(s, dict) for s in scores):
        keys = [k for k in scores[0] if k != "total"]
        return [part_label(k) for k in keys], [[s.get(k) for k in keys] for s in scores]
    columns, rows = [part_label("treasure")], [[s] for s in scores]
    tiebreak = view.get("level4")
    if isinstance(tiebreak, list) and len(tiebreak) == seats:
        columns.append(part_label("level4"))
        rows = [row + [t] for row, t in zip(rows, tiebreak)]
    return columns, rows


def game_over(game: Game, view: dict[str, Any], user) -> GameOver | None:
    """The end of a finished game played here, for ``user``; None for any other game."""
    if game.mode != GameMode.PLAY or game.status != GameStatus.FINISHED or not game.result:
        return None
    seats = list(game.seats.all())
    mine = reads.seats_of(game, user)
    forfeit = any(entry["score"] is None for entry in game.result)  # won by forfeit
    columns, parts = score_parts(view, len(seats)) if not forfeit else ([], [])
    reason = "by forfeit" if forfeit else ""
    if forfeit and _ended_by(game) == "adjudicated":
        reason = "result set by the organiser"
    lines = sorted(
        (
            Line(
                rank=entry["rank"],
                player=entry["player"] if not seats[i].bot else seats[i].player_name,
                parts=parts[i] if parts else [],
                total=entry["score"],
                you=i in mine,
                resigned=seats[i].resigned,
            )
            for i, entry in enumerate(game.result)
        ),
        key=lambda line: line.rank,
    )
    rematch = lobby.rematch_of(game)
    return GameOver(
        columns=columns,
        lines=lines,
        reason=reason,
        panels=signals.end_panels(game),
        rematch=rematch,
        may_rematch=bool(mine) and rematch is None,
    )


def _ended_by(game: Game) -> str | None:
    """What the last GameFinished says ended the game: "rules", "forfeit", "adjudicated"."""
    data = (
        game.events.filter(kind=EventKind.GAME_FINISHED)
        .order_by("-seq")
        .values_list("data", flat=True)
        .first()
    )
    return data.get("reason") if isinstance(data, dict) else None
