"""standings.csv and results.csv."""

from __future__ import annotations

import csv
import io

from games.records import reads as record_reads
from league.figures import number_text
from league.models import (
    Tournament,
)
from league.selectors import (
    claims_of,
    live_rounds,
    online_bids,
    seat_names,
    tables_of,
    tournament_standings,
    with_places,
)


def standings_csv(tournament: Tournament) -> str:
    """One column each (wins once, even when it is also a tie-break), numbers to two
    decimals; after an elimination event or a top cut, the final placing ("3-4" when shared)."""
    out = io.StringIO()
    writer = csv.writer(out)
    tiebreaks = list(tournament.tiebreaks)
    extra = [name for name in ("games", "wins", "byes") if name not in tiebreaks]
    writer.writerow(["position", "player", "points", *tiebreaks, *extra, "dropped", "place"])
    rows = with_places(tournament, tournament_standings(tournament))
    for position, row in enumerate(rows, start=1):
        writer.writerow(
            [
                position,
                row["player"],
                _number(row["points"]),
                *map(_number, row["tiebreaks"]),
                *(row[name] for name in extra),
                "yes" if row["dropped"] else "",
                _place(row["place"], row["place_to"]),
            ]
        )
    return out.getvalue()


def _place(first: int | None, last: int | None) -> str:
    if first is None:
        return ""
    return str(first) if last in (None, first) else f"{first}-{last}"


def _number(value: float) -> str:
    value = round(float(value), 2)
    return str(int(value)) if value.is_integer() else f"{value:g}"


def results_csv(tournament: Tournament) -> str:
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["round", "table", "game", "seat", "player", "rank", "score", "status", "winning bid"]
    )
    tables = list(tables_of(tournament))
    # The bid reported (or settled) at each table played on a table, on its winner's row ...
    bids = {
        pk: state["bid"]
        for pk, state in record_reads.result_states(
            [t.game_id for t in tables if t.game.mode == "record"]
        ).items()
    }
    # ... and at each table played here, the bid its game settled.
    bids.update(
        (pk, bid)
        for pk, bid in online_bids([t.game for t in tables if t.game.mode != "record"]).items()
        if bid["settled"]
    )
    claims = claims_of(tournament)
    for table in tables:
        names = seat_names(table.game, claims)
        result = table.game.result or [{"rank": "", "score": ""}] * len(names)
        bid = bids.get(table.game_id) or {}
        for seat, (name, entry) in enumerate(zip(names, result)):
            writer.writerow(
                [
                    table.round.number,
                    table.number,
                    table.game.pk,
                    seat,
                    name,
                    entry["rank"],
                    number_text(entry["score"]),
                    table.game.status,
                    bid["amount"] if bid.get("player") == name else "",
                ]
            )
    for round_ in live_rounds(tournament):
        for entry in round_.byes.select_related("user"):
            writer.writerow([round_.number, "", "", "", entry.name, "", "", "bye", ""])
    return out.getvalue()
