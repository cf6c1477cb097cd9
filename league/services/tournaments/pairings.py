"""Deciding the next round's pairing from the standings and the format (pure maths in league.pairing)."""

from __future__ import annotations

import random
from collections import Counter

from league import pairing
from league.models import (
    Membership,
    Round,
    Tournament,
)
from league.selectors import (
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
    past = [seat_names(t.game) for t in tables_of(tournament)]
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
        byes_had = Counter(e.user.username for r in done for e in r.byes.select_related("user"))
        return pairing.swiss_round(
            players,
            points,
            past,
            tournament.table_size,
            byes_had=byes_had,
            first_seats=seats_had,
            rng=rng,
            avoid=avoid,
        )
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        everyone = [
            e.user.username
            for e in tournament.entries.select_related("user")
            if not e.waitlisted and e.dropped_after_round != 0
        ]
        schedule = pairing.round_robin(
            everyone,
            tournament.table_size,
            tournament.rounds,
            rng=random.Random(f"{tournament.pk}:schedule"),
        )
        if number > len(schedule):
            return None
        planned = schedule[number - 1]
        playing = set(players)
        tables = [[p for p in table if p in playing] for table in planned.tables]
        byes = [p for p in planned.byes if p in playing]
        byes += [p for table in tables if len(table) == 1 for p in table]
        return pairing.Pairing(
            tables=[pairing.seat_order(t, seats_had) for t in tables if len(t) >= 2], byes=byes
        )
    raise AssertionError(f"unknown format {tournament.format!r}")
