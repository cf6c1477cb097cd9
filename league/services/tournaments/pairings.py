"""Deciding the next round's pairing from the standings and the format (pure maths in league.pairing)."""

from __future__ import annotations

import random
from collections import Counter

from core.errors import RuleViolation
from games.catalog import game_type
from league import pairing
from league.models import (
    Membership,
    Round,
    Tournament,
)
from league.selectors import (
    claims_of,
    seat_names,
    tables_of,
    tournament_standings,
)
from league.services.tournaments import formats
from league.services.tournaments.common import _active_players, _stage_of
from league.services.tournaments.elimination import _bracket_pairing


def _club_groups(tournament: Tournament, players: list[str]) -> list[list[str]]:
    """Players sharing a league (a club) other than the tournament's own, one list per club."""
    memberships = Membership.objects.filter(user__username__in=players)
    if tournament.league_id is not None:
        memberships = memberships.exclude(league_id=tournament.league_id)
    clubs: dict[int, list[str]] = {}
    for league_id, name in memberships.values_list("league_id", "user__username"):
        clubs.setdefault(league_id, []).append(name)
    return [sorted(names) for names in clubs.values() if len(names) > 1]


def _next_pairing(tournament: Tournament, number: int, done: list[Round]):
    players = _active_players(tournament, number)
    claims = claims_of(tournament)
    past = [seat_names(t.game, claims) for t in tables_of(tournament)]
    seats_had = pairing.seat_counts(past)
    rng = random.Random(f"{tournament.pk}:{number}")
    avoid = _club_groups(tournament, players) if number <= tournament.avoid_club_rounds else []
    if _stage_of(tournament, number) == "cut" or tournament.format == Tournament.Format.ELIMINATION:
        return _bracket_pairing(tournament, done, seats_had)  # a pools event's playoff too
    if formats.is_pools(tournament):
        return formats.pools_pairing(tournament, number, seats_had)
    if formats.is_double(tournament):
        return formats.double_pairing(tournament, number, seats_had)
    if tournament.format == Tournament.Format.SWISS and not done:
        return pairing.swiss_first_round(
            players, tournament.table_size, first_seats=seats_had, avoid=avoid
        )
    if tournament.format == Tournament.Format.SWISS:
        points = {row["player"]: row["points"] for row in tournament_standings(tournament)}
        byes_had = _byes_had(done)
        return _with_games(
            tournament,
            pairing.swiss_round(
                players,
                points,
                past,
                tournament.table_size,
                byes_had=byes_had,
                first_seats=seats_had,
                rng=rng,
                avoid=avoid,
            ),
            seats_had,
            past,
            byes_had,
        )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        planned = _round_robin_next(tournament, number, done, players, past, seats_had)
        if planned is None:
            return None
        return _with_games(tournament, planned, seats_had, past, _byes_had(done))
    raise AssertionError(f"unknown format {tournament.format!r}")


def _with_games(
    tournament: Tournament,
    planned: pairing.Pairing,
    seats_had: dict,
    past: list[list[str]],
    byes_had: Counter,
) -> pairing.Pairing:
    """A round that would seat nobody is played all the same. At tables of 2, where drops
    have broken every pair of the circle's round, those left are paired afresh (fewest
    repeats; an odd one out has the bye). At tables of 3-4 (drops left fewer players than
    the event's smallest table) those left sit at one table where the game takes that many
    (every game here takes 2), a short table on the full table's scale. One player left is
    no round: refused, changing nothing."""
    if planned.tables:
        return planned
    left = planned.byes
    if len(left) < 2:
        who = left[0] if left else "nobody"
        raise RuleViolation(
            f"only {who} is still playing, and a round needs at least two players:"
            " enter or re-enter a player to play on, or end the tournament"
        )
    game = game_type(tournament.slug)
    if len(left) < game.min_players:
        raise RuleViolation(
            f"only {len(left)} players are still playing, and {game.name} needs at least"
            f" {game.min_players}: enter or re-enter players to play on"
        )
    if tournament.table_size == 2:
        return pairing.round_robin_round(left, 2, past, byes_had=byes_had, first_seats=seats_had)
    return pairing.Pairing(tables=[pairing.seat_order(left, seats_had)], byes=[])


def _byes_had(done: list[Round]) -> Counter:
    return Counter(e.name for r in done for e in r.byes.select_related("user"))


def _round_robin_next(
    tournament: Tournament,
    number: int,
    done: list[Round],
    players: list[str],
    past: list[list[str]],
    seats_had: dict,
) -> pairing.Pairing | None:
    """The round's tables from the schedule drawn for the field at the start, as long as that
    field is the one playing. Once someone has dropped or come in late, at tables of 3-4 the
    round is planned again for the players left (``pairing.round_robin_round``: tables as full
    as the numbers allow, fewest repeats against the rounds played); at tables of 2 the circle
    keeps its schedule and a dropped player's opponent has the bye, as in any round robin."""
    entries = [
        e
        for e in tournament.entries.select_related("user")
        if not e.waitlisted and e.dropped_after_round != 0
    ]
    everyone = [e.name for e in entries]
    schedule = pairing.round_robin(
        everyone,
        tournament.table_size,
        tournament.rounds,
        rng=random.Random(f"{tournament.pk}:schedule"),
    )
    if number > len(schedule):
        return None
    playing = set(players)
    changed = playing != set(everyone) or any(e.entered_after_round for e in entries)
    if changed and tournament.table_size > 2:
        drawn = list(everyone)
        random.Random(f"{tournament.pk}:schedule").shuffle(drawn)  # the schedule's draw
        return pairing.round_robin_round(
            [p for p in drawn if p in playing],
            tournament.table_size,
            past,
            byes_had=_byes_had(done),
            first_seats=seats_had,
        )
    planned = schedule[number - 1]
    tables = [[p for p in table if p in playing] for table in planned.tables]
    byes = [p for p in planned.byes if p in playing]
    byes += [p for table in tables if len(table) == 1 for p in table]
    return pairing.Pairing(
        tables=[pairing.seat_order(t, seats_had) for t in tables if len(t) >= 2], byes=byes
    )
