"""Elimination rounds and the top cut: the bracket (league.bracket), drawn once from the seeds
when its first round is paired and stored on the tournament, then filled from the results.

One path for every knockout stage: "these seeds, best first, go into a bracket". An
elimination event's seeds are its players in seed order; a Swiss event's top cut takes the top
of the standings. Who goes through a table is decided by its ranks, and a tie across the line
by the event's rule (``elimination_ties``): played off (the report gives the order, or an
organiser decides it, a ``TableTiebroken`` event), the higher seed, or the higher score then
the higher seed. Never the seat order.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.errors import RuleViolation
from league import bracket as brackets
from league import pairing
from league.models import (
    Round,
    Table,
    Tournament,
)
from league.selectors import (
    live_rounds,
    seat_names,
    tournament_standings,
)
from league.services.tournaments import formats
from league.services.tournaments.common import _active_players, _log

TIE_REFUSED = "a tie for the place that goes through must be played off: report the order"


def _cut_seeds(tournament: Tournament) -> list[str]:
    """The top cut, best first: the top ``top_cut`` of the Swiss standings still playing (in
    format pools, the playoff's seeds from the pools)."""
    if formats.is_pools(tournament):
        return formats.pool_playoff_seeds(tournament)
    playing = set(_active_players(tournament, tournament.rounds + 1))
    rows = [row["player"] for row in tournament_standings(tournament) if row["player"] in playing]
    return rows[: tournament.top_cut]


def _knockout_rounds(tournament: Tournament, done: Sequence[Round]) -> list[Round]:
    """The rounds of ``done`` played as knockouts: an elimination event's, a top cut's."""
    if tournament.format == Tournament.Format.ELIMINATION:
        return list(done)
    return [r for r in done if r.stage == "cut"]


def _bracket_rounds(tournament: Tournament, done: Sequence[Round]) -> list[Round]:
    """The rounds of ``done`` played in the bracket drawn and stored: none before it is drawn;
    from its ``first_round`` for a bracket drawn after knockout rounds paired without one."""
    if not tournament.bracket:
        return []
    first = tournament.bracket.get("first_round", 0)
    return [r for r in _knockout_rounds(tournament, done) if r.number >= first]


def _carried_over(tournament: Tournament, done: Sequence[Round]) -> list[Round]:
    """Knockout rounds paired before the event had a drawn bracket: an event that was under
    way when brackets came (issue 38). Its bracket is drawn, at the next round paired, from
    the players still in after them (:func:`_still_in`), and numbered from that round."""
    knockout = _knockout_rounds(tournament, done)
    if not tournament.bracket:
        return knockout
    first = tournament.bracket.get("first_round", 0)
    return [r for r in knockout if r.number < first]


def _still_in(tournament: Tournament, rounds: Sequence[Round]) -> list[str]:
    """Who went through the last of the knockout rounds paired before brackets, as those
    rounds were decided then: the top ``advance`` of each table by rank, then score, then
    seat; a bye went through. Players who have dropped since are out. In seed order (a top
    cut's: standing order). A round not complete yet is a RuleViolation."""
    last = rounds[-1]
    through: set[str] = {e.name for e in last.byes.select_related("user")}
    for table in last.tables.select_related("game").prefetch_related("game__seats__user"):
        if not table.game.result:
            raise RuleViolation(f"round {last.number} is not complete yet")
        names = seat_names(table.game)
        lines = table.game.result
        order = sorted(
            range(len(names)),
            key=lambda i: (
                lines[i]["rank"],
                -(lines[i]["score"] if lines[i]["score"] is not None else float("-inf")),
                i,
            ),
        )
        through.update(names[i] for i in order[: tournament.advance])
    if tournament.format == Tournament.Format.ELIMINATION:
        field = _active_players(tournament, last.number + 1)
    else:
        playing = set(_active_players(tournament, last.number + 1))
        field = [r["player"] for r in tournament_standings(tournament) if r["player"] in playing]
    return [p for p in field if p in through]


def _drawn(tournament: Tournament, done: Sequence[Round]) -> brackets.Bracket:
    """The bracket: as stored once its first round is played; before, drawn from the seeds."""
    if _bracket_rounds(tournament, done):
        return brackets.Bracket.from_json(tournament.bracket)
    return brackets.plan(
        _bracket_seeds(tournament, done), tournament.table_size, tournament.advance
    )


def _bracket_seeds(tournament: Tournament, done: Sequence[Round]) -> list[str]:
    """Who goes into the bracket, best first: an elimination event's players in seed order;
    a top cut's, by the standings before it; after rounds paired before brackets, who is
    still in."""
    before = _carried_over(tournament, done)
    if before:
        return _still_in(tournament, before)
    if tournament.format == Tournament.Format.ELIMINATION:
        return _active_players(tournament, len(done) + 1)
    return _cut_seeds(tournament)


def _bracket_draw(tournament: Tournament, done: Sequence[Round], by) -> None:
    """Store (and log) the bracket as its first round is paired (or paired again)."""
    if _bracket_rounds(tournament, done):
        return
    number = len(done) + 1
    before = _carried_over(tournament, done)
    tournament.bracket = _drawn(tournament, done).to_json()
    if before:
        tournament.bracket["first_round"] = number
    tournament.save(update_fields=["bracket"])
    data: dict[str, Any] = {"round": number, "bracket": tournament.bracket}
    if before:
        data["carried_over"] = [r.number for r in before]
    _log(tournament, "BracketDrawn", by, data)


def _bracket_pairing(tournament: Tournament, done: Sequence[Round], seats_had) -> Any:
    """The next round of the bracket (a ``pairing.Pairing``: its tables, and who goes through
    without playing), or None once it is decided. RuleViolation naming the table for a tie
    across the line that must be played off."""
    before = _carried_over(tournament, done)
    if before and not _bracket_rounds(tournament, done) and len(_still_in(tournament, before)) < 2:
        return None  # the rounds before brackets have decided it
    drawn = _drawn(tournament, done)
    played, dropped = _filled(tournament, drawn, done)
    try:
        nxt = drawn.round_to_play(played, dropped)
    except ValueError as exc:  # results the bracket has no table for (an event paired before it)
        raise RuleViolation(f"the bracket cannot go on: {exc}") from None
    if nxt is None:
        return None
    tables, through = nxt
    return pairing.Pairing(
        tables=[pairing.seat_order(table, seats_had) for table in tables], byes=through
    )


def _bracket_champion(tournament: Tournament, done: Sequence[Round]) -> str | None:
    last = _decided_before_brackets(tournament, done)
    if last is not None:
        return last
    drawn = _drawn(tournament, done)
    return drawn.champion(*_filled(tournament, drawn, done))


def _decided_before_brackets(tournament: Tournament, done: Sequence[Round]) -> str | None:
    """The one player left by knockout rounds paired before brackets, if they decided it."""
    before = _carried_over(tournament, done)
    if not before or _bracket_rounds(tournament, done):
        return None
    still_in = _still_in(tournament, before)
    return still_in[0] if len(still_in) == 1 else None


def _bracket_placings(tournament: Tournament, done: Sequence[Round]) -> list[tuple[int, int, str]]:
    """Final placings: the bracket's, then (after a top cut or a pools event's playoff, or
    knockout rounds paired before brackets) the standings for the rest."""
    last = _decided_before_brackets(tournament, done)
    if last is not None:
        placings = [(1, 1, last)]
        for row in tournament_standings(tournament):
            if row["player"] != last:
                placings.append((len(placings) + 1, len(placings) + 1, row["player"]))
        return placings
    drawn = _drawn(tournament, done)
    placings = drawn.placings(*_filled(tournament, drawn, done))
    if tournament.format != Tournament.Format.ELIMINATION or _carried_over(tournament, done):
        placed = set(drawn.seeds)
        for row in tournament_standings(tournament):
            if row["player"] not in placed:
                placings.append((len(placings) + 1, len(placings) + 1, row["player"]))
    return placings


def _bracket_state(tournament: Tournament, done: Sequence[Round]):
    """The drawn bracket, every table's state (league.bracket.TableState) and the tables (by
    their players) tied across the line and waiting for a play-off, for the pages."""
    drawn = _drawn(tournament, done)
    tied: list[frozenset[str]] = []
    played, dropped = _filled(tournament, drawn, done, strict=False, tied=tied)
    return drawn, drawn.resolve(played, dropped), tied


def _filled(
    tournament: Tournament,
    drawn: brackets.Bracket,
    done: Sequence[Round],
    *,
    strict: bool = True,
    tied: list[frozenset[str]] | None = None,
) -> tuple[list[list[list[str]]], dict[str, int]]:
    """What the bracket is filled from: each round played's finishing orders (ties settled by
    the event's rule), and the players who dropped out with how many of its rounds had been
    played when they did. With ``strict`` false, a round with a table not finished (or a tie
    not yet played off) ends what is read, so a page can show the bracket as it stands."""
    rounds = _bracket_rounds(tournament, done)
    numbers = [r.number for r in rounds]
    dropped = {
        e.name: sum(n <= e.dropped_after_round for n in numbers)
        for e in tournament.entries.select_related("user")
        if e.dropped_after_round is not None
    }
    broken = _tiebreaks(tournament)
    played: list[list[list[str]]] = []
    for round_ in rounds:
        nxt = drawn.next_round(played, dropped)
        if nxt is None:
            break
        tables = list(round_.tables.select_related("game").prefetch_related("game__seats__user"))
        going = _lines(drawn, nxt)
        orders = []
        for table in tables:
            try:
                if not table.game.result:
                    raise RuleViolation(f"round {round_.number} is not complete yet")
                orders.append(
                    _finishing_order(
                        tournament,
                        table,
                        drawn,
                        going.get(frozenset(seat_names(table.game)), 1),
                        broken.get((round_.number, table.number)),
                    )
                )
            except RuleViolation:
                if strict:
                    raise
                if tied is not None and table.game.result:
                    tied.append(frozenset(seat_names(table.game)))
        played.append(orders)
        if len(orders) < len(tables):
            break  # a round still being played (or a tie to play off) ends what is known
    return played, dropped


def _lines(drawn: brackets.Bracket, row: list[brackets.TableState]) -> dict[frozenset, int]:
    """How many go through each table to play in ``row`` (the final: its winner), by players."""
    return {
        frozenset(p for p in s.players if p): drawn.going_through(s.round, s.table)
        for s in row
        if s.status == "to play"
    }


def _tiebreaks(tournament: Tournament) -> dict[tuple[int, int], list[str]]:
    """The organisers' decisions of ties, by (round, table): the latest stands."""
    return {
        (e.data["round"], e.data["table"]): e.data["order"]
        for e in tournament.log.filter(kind="TableTiebroken").order_by("pk")
    }


def _finishing_order(
    tournament: Tournament,
    table: Table,
    drawn: brackets.Bracket,
    going: int,
    decided: list[str] | None = None,
) -> list[str]:
    """The table's players, best first: by rank; a tie by the event's rule (a played-off tie
    across the line, not yet decided, raises RuleViolation naming the table)."""
    if decided is not None:
        return list(decided)
    names = seat_names(table.game)
    ranks = {names[i]: r["rank"] for i, r in enumerate(table.game.result)}
    scores = {
        names[i]: r["score"] if r["score"] is not None else float("-inf")
        for i, r in enumerate(table.game.result)
    }
    seed = {player: i for i, player in enumerate(drawn.seeds)}
    rule = tournament.elimination_ties
    if rule == Tournament.EliminationTies.SCORE:
        order = sorted(names, key=lambda p: (ranks[p], -scores[p], seed.get(p, len(seed))))
    else:
        order = sorted(names, key=lambda p: (ranks[p], seed.get(p, len(seed))))
    if rule == Tournament.EliminationTies.PLAYOFF and tied_across([ranks[p] for p in order], going):
        raise RuleViolation(
            f"round {table.round.number}, table {table.number} is tied for the place that goes"
            " through: it must be played off, and an organiser records the order (tiebreak)"
        )
    return order


def tied_across(ranks: Sequence[int], going: int) -> bool:
    """Whether ``ranks`` (sorted) tie across the line after the first ``going``."""
    ranks = sorted(ranks)
    return 0 < going < len(ranks) and ranks[going - 1] == ranks[going]


def table_line(tournament: Tournament, table: Table) -> int | None:
    """How many go through ``table`` if it is one of a bracket (the final: 1), else None."""
    round_ = table.round
    if tournament.format != Tournament.Format.ELIMINATION and round_.stage != "cut":
        return None
    done = [r for r in live_rounds(tournament) if r.number < round_.number]
    if round_ in _carried_over(tournament, [*done, round_]):
        return None  # paired before brackets: its table goes by the rule it was paired under
    drawn = _drawn(tournament, [*done, round_])
    row = drawn.next_round(*_filled(tournament, drawn, done))
    return None if row is None else _lines(drawn, row).get(frozenset(seat_names(table.game)))


def tournament_bracket(tournament: Tournament) -> dict[str, Any] | None:
    """The bracket as it stands, for the page and the API (docs/api.md says the shape); before
    its first round, as it would be drawn now. None for an event without one."""
    if tournament.format != Tournament.Format.ELIMINATION and not tournament.top_cut:
        return None
    done = list(live_rounds(tournament))
    rounds = _bracket_rounds(tournament, done)
    try:
        drawn, states, tied = _bracket_state(tournament, done)
    except (ValueError, RuleViolation):
        # A field no bracket fits yet (open entry still filling), or knockout rounds paired
        # before brackets still being played: there is no bracket to show yet.
        return None
    playing = iter(rounds)
    out_rounds = []
    for r, row in enumerate(states):
        in_play = any(s.status in ("played", "to play") for s in row)
        service = next(playing, None) if in_play else None
        tables = {
            frozenset(seat_names(t.game)): t
            for t in (
                service.tables.select_related("game").prefetch_related("game__seats__user")
                if service
                else []
            )
        }
        out_rounds.append(
            {
                "round": r + 1,
                "name": _round_name(r, len(states), tournament.format),
                "number": service.number if service else None,
                "tables": [_table_out(drawn, state, tables, tied) for state in row],
            }
        )
    return {
        "drawn": bool(rounds),
        "table_size": drawn.table_size,
        "advance": drawn.advance,
        "seeds": list(drawn.seeds),
        "byes": drawn.byes,
        "rounds": out_rounds,
        "champion": states[-1][0].through[0]
        if states[-1][0].status in ("played", "walkover")
        else None,
    }


def _round_name(r: int, count: int, format: str) -> str:
    if r == count - 1:
        return "Final"
    if r == count - 2:
        return "Semi-finals"
    return (
        f"Round {r + 1}" if format == Tournament.Format.ELIMINATION else f"Top cut, round {r + 1}"
    )


def _table_out(
    drawn: brackets.Bracket,
    state: brackets.TableState,
    tables: dict[frozenset[str], Table],
    tied: list[frozenset[str]],
) -> dict[str, Any]:
    """One table of the bracket; ``tables``: the tournament's tables of its round, by players.
    A table tied across the line, waiting for its play-off, says "tied"."""
    present = frozenset(p for p in state.players if p)
    table = tables.get(present) if state.status in ("played", "to play") else None
    return {
        "bracket_table": state.table + 1,
        "table": table.number if table else None,
        "table_id": table.pk if table else None,
        "status": "tied" if state.status == "to play" and present in tied else state.status,
        "decided": state.decided,
        "going_through": drawn.going_through(state.round, state.table),
        "places": [
            {
                "player": player if state.decided else None,
                "from": {"seed": place.seed + 1}
                if place.seed is not None
                else {
                    "round": place.round + 1,
                    "bracket_table": place.table + 1,
                    "place": place.place + 1,
                },
            }
            for place, player in zip(state.places, state.players)
        ],
        "order": state.order,
        "through": state.through,
    }
