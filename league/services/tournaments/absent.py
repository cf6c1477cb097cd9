"""An absent player's part at a table, ended by the organiser: their seat resigned at a game
played here, or placed last at a table played on a table (its result settled, or, at a table
kept as a log, adjudicated). The organiser's forfeit
(``tables.table_forfeit``) and a drop (``entries.entry_drop``) both end it so."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db.models import Q

from core.errors import Refused, RuleViolation
from games.models import GameMode, GameStatus
from games.play import services as game_services
from games.records import reads as record_reads
from games.records import services as record_services
from games.records import table_results
from league.models import Entry, Table, Tournament
from league.selectors import live_rounds, seat_names


def seat_forfeit(table: Table, name: str, *, by: AbstractUser, reason: str) -> None:
    """End ``name``'s part at ``table``: at a game played here their seat resigns, by the
    organiser ``by``; at a table played on a table the result is settled with them last."""
    game = table.game
    seats = sorted(game.seats.select_related("user"), key=lambda s: s.index)
    named = seat_names(game)  # as the tournament names them: a walk-in is "Ann (guest)"
    if name not in named:
        raise Refused(f"{name} is not at table {table.number}")
    seat = seats[named.index(name)]
    if seat.resigned:
        raise RuleViolation(f"{name} has already left table {table.number}")
    # The game's own name for the seat: a guest's is "Ann".
    last = _last(game, seat.user.username if seat.user_id else seat.guest)
    if game.mode == GameMode.RECORD:
        table_results.result_override(game=game, by=by, results=last, reason=reason)
    elif game.mode == GameMode.LOG:  # its scorekeeper enters the moves: nobody resigns a seat
        table_results.result_adjudicate(game=game, by=by, results=last, reason=reason)
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


def table_in_play(tournament: Tournament, entry: Entry) -> Table | None:
    """The entrant's table in the latest round, while its game goes on and they are still in
    it: a member's seat, or a walk-in's (seated as a guest, by name)."""
    latest = live_rounds(tournament).order_by("-number").first()
    if latest is None:
        return None
    seated = Q(game__seats__user=entry.user) if entry.user_id else Q()
    if entry.guest:
        seated |= Q(game__seats__guest=entry.guest)
    return (
        Table.objects.filter(
            seated,
            round=latest,
            game__status=GameStatus.ACTIVE,
            game__seats__resigned=False,
        )
        .select_related("game", "round")
        .first()
    )
