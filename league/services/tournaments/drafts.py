"""The organiser's desk: a round's draft (swap two players, fix one to a table, give or take a
bye, then publish or discard it) and the tables players must always sit at.

A draft is the next round's pairing kept as names (``RoundDraft``), made by
``round_pair(draft=True)``: it has no games and tells nobody. Each edit is checked, changes
nothing when refused, is logged, and says what it costs (the pairs it seats again); publishing
writes the round exactly as pairing at once does (``rounds._publish``)."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core import inputs
from core.errors import InvalidInput, RuleViolation, UnknownName
from league import pairing
from league.models import Entry, Round, RoundDraft, Tournament
from league.selectors import claims_of, live_rounds, seat_names, tables_of, tournament_standings
from league.services.tournaments.common import (
    _active_players,
    _entry_named,
    _log,
    _require_organiser,
)
from league.services.tournaments.rounds import _complete, _publish

MAX_TABLE_NUMBER = 999


def entry_fix_table(*, tournament: Tournament, player: Any, table: Any, by: AbstractUser) -> Entry:
    """Fix ``player`` to table number ``table`` for every round paired from now on (None
    frees them): pairing moves their table there (``pairing.fix_tables``)."""
    _require_organiser(tournament, by)
    entry = _entry_named(tournament, player, missing=UnknownName)
    name = entry.name
    if table is not None:
        table = _whole(table, "table", MAX_TABLE_NUMBER)
    entry.fixed_table = table
    entry.save(update_fields=["fixed_table"])
    _log(tournament, "TableFixed", by, {"player": name, "table": table})
    return entry


def _whole(value: Any, name: str, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= high:
        raise InvalidInput(f"{name} must be a whole number from 1 to {high}")
    return value


def _draft_of(tournament: Tournament, number: int) -> RoundDraft:
    draft = RoundDraft.objects.select_for_update().filter(tournament=tournament).first()
    if draft is None or draft.number != number:
        raise UnknownName(f"round {number} has no draft")
    return draft


@transaction.atomic
def draft_edit(
    *, tournament: Tournament, number: int, by: AbstractUser, edit: dict[str, Any]
) -> tuple[RoundDraft, list[str]]:
    """Apply one edit to round ``number``'s draft: ``{"swap": [a, b]}``, ``{"fix": {"player",
    "table"}}`` or ``{"bye": {"player", "give": bool}}``. Returns the draft and what the edit
    costs, in words. A refused edit raises and changes nothing."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    draft = _draft_of(tournament, number)
    if not isinstance(edit, dict) or len(edit) != 1:
        raise InvalidInput('give one edit: "swap", "fix" or "bye"')
    ((kind, value),) = edit.items()
    if kind in ("swap", "bye") and _in_a_bracket(tournament, draft.stage):
        raise RuleViolation(
            "a bracket's tables are fixed when it is drawn: a swap or a bye would change who"
            " meets whom; move a table to another number, or settle an absent player's table"
            " by a forfeit once the round is published"
        )
    tables = [list(t) for t in draft.tables]
    byes = list(draft.byes)
    if kind == "swap":
        a, b = _swap(tables, byes, value, number)
        logged: dict[str, Any] = {"swap": [a, b]}
    elif kind == "fix":
        player, table = _fix(tables, value, number)
        moved = pairing.fix_tables(pairing.Pairing(tables=tables, byes=byes), {player: table})
        tables = moved.tables
        logged = {"fix": {"player": player, "table": table}}
    elif kind == "bye":
        player, give = _bye(tables, byes, value, number, tournament.table_size)
        logged = {"bye": {"player": player, "give": give}}
    else:
        raise InvalidInput(f'no edit {kind!r}: give "swap", "fix" or "bye"')
    costs = _costs(draft.tables, tables, _past(tournament))
    for name in byes:
        if name not in draft.byes:
            costs += _bye_costs(tournament, name)
    if tournament.format == Tournament.Format.SWISS and draft.stage == "main":
        costs += _mixing_costs(tournament, draft.tables, tables)
    draft.tables, draft.byes = tables, byes
    draft.save(update_fields=["tables", "byes"])
    _log(
        tournament,
        "DraftEdited",
        by,
        {"round": number, **logged, "tables": tables, "byes": byes},
    )
    return draft, costs


def _in_round(name: Any, tables: list[list[str]], byes: list[str], number: int) -> str:
    name = inputs.text(name, "player", 150)
    if name not in byes and not any(name in t for t in tables):
        raise InvalidInput(f"{name} is not in round {number}")
    return name


def _swap(tables: list[list[str]], byes: list[str], value: Any, number: int) -> tuple[str, str]:
    """Exchange two players' places (a seat, or a bye), in place."""
    if not isinstance(value, list) or len(value) != 2:
        raise InvalidInput('"swap" takes two players: ["Ana", "Bo"]')
    a, b = (_in_round(v, tables, byes, number) for v in value)
    if a == b:
        raise InvalidInput(f"a swap of {a} with {a} would seat {a} twice")
    places = [row for row in [*tables, byes]]
    where_a = next(row for row in places if a in row)
    where_b = next(row for row in places if b in row)
    i, j = where_a.index(a), where_b.index(b)
    where_a[i], where_b[j] = b, a
    return a, b


def _fix(tables: list[list[str]], value: Any, number: int) -> tuple[str, int]:
    if not isinstance(value, dict) or set(value) != {"player", "table"}:
        raise InvalidInput('"fix" takes {"player": name, "table": number}')
    name = inputs.text(value["player"], "player", 150)
    if not any(name in t for t in tables):
        raise InvalidInput(f"{name} has no table in round {number}: seat them first")
    table = value["table"]
    if isinstance(table, bool) or not isinstance(table, int):
        raise InvalidInput("the table must be a whole number")
    if not 1 <= table <= len(tables):
        raise InvalidInput(
            f"round {number} has tables 1 to {len(tables)}: there is no table {table}"
        )
    return name, table


def _bye(
    tables: list[list[str]], byes: list[str], value: Any, number: int, size: int
) -> tuple[str, bool]:
    """Give a seated player a bye, or seat a player who has one at the smallest table with
    room; in place. A table may not be left with one player."""
    if not isinstance(value, dict) or not set(value) <= {"player", "give"} or "player" not in value:
        raise InvalidInput('"bye" takes {"player": name, "give": true or false}')
    give = value.get("give", True)
    if not isinstance(give, bool):
        raise InvalidInput('"give" is true (give a bye) or false (take it back)')
    name = _in_round(value["player"], tables, byes, number)
    if give:
        if name in byes:
            raise InvalidInput(f"{name} has a bye already")
        table = next(t for t in tables if name in t)
        if len(table) <= pairing.MIN_TABLE:
            number_at = tables.index(table) + 1
            raise RuleViolation(
                f"table {number_at} would be left with one player: swap {name} instead"
            )
        table.remove(name)
        byes.append(name)
        return name, True
    if name not in byes:
        raise InvalidInput(f"{name} has no bye in round {number}")
    room = [t for t in tables if len(t) < size]
    if not room:
        raise RuleViolation(
            f"every table is full: swap {name} with a seated player to take the bye back"
        )
    byes.remove(name)
    min(room, key=len).append(name)
    return name, False


def _past(tournament: Tournament) -> list[list[str]]:
    claims = claims_of(tournament)
    return [seat_names(t.game, claims) for t in tables_of(tournament)]


def _costs(before: list[list[str]], after: list[list[str]], past: list[list[str]]) -> list[str]:
    """The repeats an edit adds, in words ("Ana and Bo have met before")."""
    had = {frozenset((a, b)) for _, a, b, _ in pairing.repeated_pairs(before, past)}
    return [
        f"{a} and {b} have met before{_times(times)} (table {number})"
        for number, a, b, times in pairing.repeated_pairs(after, past)
        if frozenset((a, b)) not in had
    ]


def _times(times: int) -> str:
    return "" if times == 1 else f", {'twice' if times == 2 else f'{times} times'}"


def _bye_costs(tournament: Tournament, name: str) -> list[str]:
    had = sum(
        1 for r in live_rounds(tournament) for e in r.byes.select_related("user") if e.name == name
    )
    return [f"{name} has had a bye before{_times(had)}"] if had else []


def _mixing_costs(
    tournament: Tournament, before: list[list[str]], after: list[list[str]]
) -> list[str]:
    """In a Swiss round, a rise in the score difference at tables (the sum over each table's
    pairs of their gap in points, as pairing weighs it), in words."""
    points = {row["player"]: row["points"] for row in tournament_standings(tournament)}

    def gap(tables: list[list[str]]) -> float:
        return sum(
            abs(points.get(a, 0) - points.get(b, 0))
            for table in tables
            for i, a in enumerate(table)
            for b in table[i + 1 :]
        )

    was, now = gap(before), gap(after)
    if now <= was + 1e-9:
        return []
    return [f"the score difference at tables rises from {was:g} to {now:g} points"]


@transaction.atomic
def draft_publish(*, tournament: Tournament, number: int, by: AbstractUser) -> Round:
    """Publish round ``number``'s draft: its games, notices and webhooks, exactly as pairing
    at once. Refused, changing nothing, if the field has changed since it was drafted."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    draft = _draft_of(tournament, number)
    done = list(live_rounds(tournament))
    if done and not _complete(done[-1]):
        raise RuleViolation(f"round {done[-1].number} is not complete yet")
    drafted = {p for t in draft.tables for p in t} | set(draft.byes)
    playing = set(_active_players(tournament, number))
    if drafted != playing:
        changed = sorted(drafted ^ playing)
        raise RuleViolation(
            f"the field has changed since round {number} was drafted ({', '.join(changed)}):"
            " discard the draft and pair the round again"
        )
    pairing_ = pairing.Pairing(tables=[list(t) for t in draft.tables], byes=list(draft.byes))
    draft.delete()
    return _publish(tournament, number, pairing_, by, stage=draft.stage, done=done)


@transaction.atomic
def draft_discard(*, tournament: Tournament, number: int, by: AbstractUser) -> None:
    """Throw round ``number``'s draft away: the round can be paired afresh."""
    tournament = Tournament.objects.select_for_update().get(pk=tournament.pk)
    _require_organiser(tournament, by)
    _draft_of(tournament, number).delete()
    _log(tournament, "DraftDiscarded", by, {"round": number})


def _in_a_bracket(tournament: Tournament, stage: str) -> bool:
    """Whether the draft's round is played in a bracket (an elimination event, a top cut or a
    pools event's playoff, or double elimination), whose tables the bracket fixes."""
    return stage == "cut" or tournament.format in (
        Tournament.Format.ELIMINATION,
        Tournament.Format.DOUBLE_ELIMINATION,
    )
