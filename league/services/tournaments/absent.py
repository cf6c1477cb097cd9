"""An absent player's part at a table, ended by the organiser: their seat resigned at a game
played here, or placed last at a table played on a table (its result settled, or, at a table
kept as a log, adjudicated). The organiser's forfeit
(``tables.table_forfeit``) and a drop (``entries.entry_drop``) both end it so."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser

from core.errors import Refused, RuleViolation
from games.models import GameMode, GameStatus
from games.play import services as game_services
from games.records import reads as record_reads
from games.records import services as record_services
from games.records import table_results
from league.models import Table, Tournament
from league.selectors import live_rounds


def seat_forfeit(table: Table, name: str, *, by: AbstractUser, reason: str) -> None:
    """End ``name``'s part at ``table``: at a game played here their seat resigns, by the
    organiser ``by``; at a table played on a table the result is settled with them last."""
    game = table.game
    seats = {s.user.username: s for s in game.seats.select_related("user") if s.user_id}
    seat = seats.get(name)
    if seat is None:
        raise Refused(f"{name} is not at table {table.number}")
    if seat.resigned:
        raise RuleViolation(f"{name} has already left table {table.number}")
    if game.mode == GameMode.RECORD:
        table_results.result_override(game=game, by=by, results=_last(game, name), reason=reason)
    elif game.mode == GameMode.LOG:  # its scorekeeper enters the moves: nobody resigns a seat
        table_results.result_adjudicate(game=game, by=by, results=_last(game, name), reason=reason)
    else:
        game_services.game_seat_forfeit(game=game, seat=seat.index, by=by, reason=reason)


def _last(game, name: str) -> list[dict[str, Any]]:
    """A table's result with ``name`` last and no score: the others keep the order they
    reported, if anyone did, else share first place."""
    reported = record_reads.result_state(game)["reported"] or []
    by_player = {r["player"]: r for r in reported}
    others = [n for n in record_services.seat_names(game) if n != name]
    ranked = {n: by_player.get(n, {}).get("rank") or 1 for n in others}
    results = [
        {
            "player": n,
            "score": by_player.get(n, {}).get("score"),
            "rank": 1 + sum(1 for m in others if ranked[m] < ranked[n]),
        }
        for n in others
    ]
    return [*results, {"player": name, "score": None, "rank": len(others) + 1}]


def table_in_play(tournament: Tournament, name: str) -> Table | None:
    """``name``'s table in the latest round, while its game goes on and they are still in it."""
    latest = live_rounds(tournament).order_by("-number").first()
    if latest is None:
        return None
    return (
        Table.objects.filter(
            round=latest,
            game__status=GameStatus.ACTIVE,
            game__seats__user__username=name,
            game__seats__resigned=False,
        )
        .select_related("game", "round")
        .first()
    )
