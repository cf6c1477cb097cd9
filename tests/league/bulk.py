"""Many finished club records at once, straight into the tables, for tests that need hundreds
of games (the query counts, the chart's pages) without recording each through the store."""

from __future__ import annotations

import datetime as dt

from django.utils import timezone

from games.models import Game, GameMode, GameStatus, Seat
from league.models import RatingChange

START = timezone.make_aware(dt.datetime(2025, 1, 1, 20, 0))


def finished_records(
    count: int, players: list, *, league=None, slugs=("oceans", "deep-sea-adventure"), guest=True
) -> list[Game]:
    """``count`` finished records, a day apart, of the slugs in turn: every player, and a
    guest at every other game; the first player wins every third, and each game moves its
    members' ratings by one point (a RatingChange each)."""
    games = []
    for i in range(count):
        order = list(players) if i % 3 == 0 else list(players[1:]) + [players[0]]
        names = [u.username for u in order] + (["Zoe"] if guest and i % 2 else [])
        games.append(
            Game(
                slug=slugs[i % len(slugs)],
                mode=GameMode.RECORD,
                rules_version=0,
                num_players=len(names),
                status=GameStatus.FINISHED,
                version=4,
                result=[
                    {"player": name, "score": 40 - 5 * rank, "rank": rank + 1}
                    for rank, name in enumerate(names)
                ],
                finished_at=START + dt.timedelta(days=i),
            )
        )
    games = Game.objects.bulk_create(games)
    seats, changes = [], []
    for i, game in enumerate(games):
        order = list(players) if i % 3 == 0 else list(players[1:]) + [players[0]]
        for index, user in enumerate(order):
            seats.append(Seat(game=game, index=index, user=user))
            changes.append(
                RatingChange(
                    game=game,
                    user=user,
                    slug=game.slug,
                    finished_at=game.finished_at,
                    seat=index,
                    rank=index + 1,
                    before=1500 + i,
                    after=1501 + i,
                    openskill_mu_before=25,
                    openskill_mu_after=25,
                    openskill_sigma_before=8,
                    openskill_sigma_after=8,
                )
            )
        if len(game.result) > len(order):
            seats.append(Seat(game=game, index=len(order), guest="Zoe"))
    Seat.objects.bulk_create(seats)
    RatingChange.objects.bulk_create(changes)
    if league is not None:
        league.games.add(*games)
    return games
