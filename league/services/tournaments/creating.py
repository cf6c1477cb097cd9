"""Creating a tournament from its checked spec, with its entries seeded."""

from __future__ import annotations

import random

from django.contrib.auth.models import AbstractUser
from django.db import transaction

from core.errors import (
    NotYourSeat,
)
from league import notices
from league.models import (
    Entry,
    Rating,
    Tournament,
)
from league.ratings import DEFAULT_RATING
from league.selectors import (
    is_league_organiser,
)
from league.services.tournaments.common import _answer, _log, _player
from league.tournament_spec import TournamentSpec


@transaction.atomic
def tournament_create(*, spec: TournamentSpec, created_by: AbstractUser) -> Tournament:
    """The tournament ``spec`` describes (its settings checked as it was made), with its
    entries, seeded as it says. The entry order, the seeding and the seeds are logged."""
    users = [_player(name, people_only=spec.people_only) for name in spec.players]
    if spec.league is not None and not is_league_organiser(spec.league, created_by):
        raise NotYourSeat("only the league's organisers may hold its tournaments")
    tournament = Tournament.objects.create(
        name=spec.name,
        slug=spec.game,
        format=spec.format,
        table_size=spec.table_size,
        rounds=spec.rounds,
        mode=spec.mode,
        options=spec.options,
        placement_points=spec.placement_points,
        tiebreaks=spec.tiebreaks,
        bye_points=spec.bye_points,
        advance=spec.advance,
        seeding=spec.seeding,
        league=spec.league,
        season=spec.season,
        time_control=spec.time_control,
        created_by=created_by,
        entry_mode=spec.entry_mode,
        cap=spec.cap,
        check_in=spec.check_in,
        people_only=spec.people_only,
        vacation_allowed=spec.vacation_allowed,
        top_cut=spec.top_cut,
        avoid_club_rounds=spec.avoid_club_rounds,
        round_minutes=spec.round_minutes,
        elimination_ties=spec.elimination_ties,
        pools=spec.pools,
        pool_advance=spec.pool_advance,
        grand_final_reset=spec.grand_final_reset,
    )
    tournament.organisers.add(created_by)
    seeded = _seed(users, spec.seeding, spec.game)
    Entry.objects.bulk_create(
        [
            Entry(tournament=tournament, user=u, seed=i + 1, answer=_answer(u, created_by))
            for i, u in enumerate(seeded)
        ]
    )
    _log(
        tournament,
        "TournamentCreated",
        created_by,
        {
            "players": [u.username for u in users],
            "seeding": spec.seeding,
            "seeds": [u.username for u in seeded],
        },
    )
    if tournament.check_in:
        for user in seeded:
            notices.check_in_open(tournament, user.pk)
    return tournament


def _seed(users: list, seeding: str, slug: str) -> list:
    if seeding == Tournament.Seeding.RANDOM:
        drawn = list(users)
        random.SystemRandom().shuffle(drawn)
        return drawn
    if seeding == Tournament.Seeding.RATING:
        elo = dict(
            Rating.objects.filter(slug=slug, user__in=users).values_list("user_id", "rating")
        )
        return sorted(users, key=lambda u: -elo.get(u.pk, DEFAULT_RATING))  # stable on ties
    return list(users)
