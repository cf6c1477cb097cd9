"""Rebuilding every game type's ratings at once (league.services.ratings.ratings_rebuild): the
pages see all of them as they were or all rebuilt, and games ending meanwhile are not lost."""

from __future__ import annotations

import datetime as dt
import io
import threading
import time

import pytest
from django.core.management import call_command
from django.db import connection
from rest_framework.test import APIClient

from games.models import Game, GameMode, GameStatus, Seat
from league.models import RatedGame, Rating, RatingChange
from league.services import ratings as services
from tests.league.bulk import finished_records

DSA = "deep-sea-adventure"
SLUGS = ("abyss", DSA)


def elo_by_game(slug_rows) -> dict[str, float]:
    return {row["game"]: row["elo"] for row in slug_rows}


def elo_by_player(board) -> dict[str, float]:
    """The leaderboard's Elo by player (the deviation shown ages by the second: left out)."""
    return {row["player"]: row["elo"] for row in board["results"]}


def numbers() -> dict:
    """Every stored number of every rating and change of the two game types."""
    return {
        "ratings": sorted(
            Rating.objects.filter(slug__in=SLUGS).values_list(
                "slug", "user__username", "rating", "games", "openskill_mu", "glicko_rating"
            )
        ),
        "changes": sorted(
            RatingChange.objects.filter(slug__in=SLUGS).values_list(
                "slug", "game_id", "user__username", "before", "after", "glicko_rating_after"
            )
        ),
    }


def test_the_rebuild_rates_every_game_type_as_a_recompute_of_each_does(alice, bob, make_user):
    finished_records(12, [alice, bob, make_user("carol")], slugs=SLUGS, guest=False)
    for slug in SLUGS:
        services.ratings_recompute(slug=slug)
    each = numbers()
    Rating.objects.all().delete()
    seen = []
    results = services.ratings_rebuild(slugs=reversed(SLUGS), progress=seen.append)
    assert list(results) == sorted(SLUGS)  # in slug order, the order every locker follows
    assert {slug: r.games for slug, r in results.items()} == {"abyss": 6, DSA: 6}
    assert all(r.changed == 3 for r in results.values())  # rows deleted above: all new
    assert seen == [1] * 12
    assert numbers() == each


def test_the_command_rebuilds_every_game_in_one_go(alice, bob, settings):
    finished_records(4, [alice, bob], slugs=SLUGS, guest=False)
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out, stderr=io.StringIO())
    assert "abyss: 2 games, 2 players, 2 ratings changed" in out.getvalue()
    assert f"{DSA}: 2 games, 2 players, 2 ratings changed" in out.getvalue()
    settings.HADAL_ELO_K = 16
    out = io.StringIO()
    call_command("recompute_ratings", stdout=out, stderr=io.StringIO())
    assert f"{DSA}: 2 games, 2 players, 2 ratings changed" in out.getvalue()
    assert "ventlife: 0 games, 0 players, 0 ratings changed" in out.getvalue()


# -- on PostgreSQL, with readers and writers beside it --------------------------------------------


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_readers_see_every_rating_old_or_every_rating_new_never_a_mix(
    alice, bob, make_user, settings
):
    finished_records(30, [alice, bob, make_user("carol")], slugs=SLUGS, guest=False)
    services.ratings_rebuild(slugs=SLUGS)
    client = APIClient()
    old_player = elo_by_game(client.get("/api/players/alice/").json()["ratings"])
    old_board = elo_by_player(client.get(f"/api/ratings/?game={DSA}").json())
    assert set(old_player) == set(SLUGS)

    reads: list[tuple[float, float, int, int, dict, dict]] = []
    stop = threading.Event()

    def read():
        reader = APIClient()
        try:
            while not stop.is_set():
                began = time.monotonic()
                player = reader.get("/api/players/alice/")
                board = reader.get(f"/api/ratings/?game={DSA}")
                reads.append(
                    (
                        began,
                        time.monotonic(),
                        player.status_code,
                        board.status_code,
                        elo_by_game(player.json()["ratings"]),
                        elo_by_player(board.json()),
                    )
                )
        finally:
            connection.close()

    rebuilding: list[float] = []

    def slowly(count: int) -> None:
        rebuilding.append(time.monotonic())
        time.sleep(0.03)  # time for readers to come while it runs

    settings.HADAL_ELO_K = 16  # a changed parameter: every Elo differs after the rebuild
    thread = threading.Thread(target=read)
    thread.start()
    try:
        time.sleep(0.1)
        services.ratings_rebuild(slugs=SLUGS, progress=slowly)
        done = time.monotonic()
        time.sleep(0.1)
    finally:
        stop.set()
        thread.join(30)
    new_player = elo_by_game(client.get("/api/players/alice/").json()["ratings"])
    new_board = elo_by_player(client.get(f"/api/ratings/?game={DSA}").json())
    assert all(new_player[slug] != old_player[slug] for slug in SLUGS)
    assert new_board != old_board

    during = [r for r in reads if r[0] >= rebuilding[0] and r[1] <= done]
    assert during, "no read while the rebuild ran"
    assert all(player == board == 200 for _, _, player, board, _, _ in reads)
    mixed = [r[4] for r in reads if r[4] not in (old_player, new_player)]
    assert not mixed, f"{len(mixed)} of {len(reads)} reads saw a half-rebuilt player: {mixed[0]}"
    assert all(r[5] in (old_board, new_board) for r in reads)
    assert reads[-1][4] == new_player


def finish(slug: str, players, when) -> Game:
    """A finished two-player record, committed, as a game ending now would be."""
    game = Game.objects.create(
        slug=slug,
        mode=GameMode.RECORD,
        rules_version=0,
        num_players=2,
        status=GameStatus.FINISHED,
        version=4,
        result=[
            {"player": user.username, "score": 10 - rank, "rank": rank + 1}
            for rank, user in enumerate(players)
        ],
        finished_at=when,
    )
    Seat.objects.bulk_create(Seat(game=game, index=i, user=u) for i, u in enumerate(players))
    return game


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_games_ending_during_the_rebuild_are_rated_after_it(alice, bob):
    games = finished_records(20, [alice, bob], slugs=SLUGS, guest=False)
    services.ratings_rebuild(slugs=SLUGS)  # rated as a site's are before its model changes
    later = games[-1].finished_at + dt.timedelta(days=1)
    taken: dict[str, int] = {}
    waited: list[bool] = []

    def end_a_game(slug: str) -> None:
        try:
            game = finish(slug, [bob, alice], later)
            taken[slug] = services.ratings_update(slug=slug, game_id=game.pk)
        finally:
            connection.close()

    # Abyss comes first: while it rebuilds its ledger is locked, Deep Sea Adventure's not yet.
    enders = [threading.Thread(target=end_a_game, args=(slug,)) for slug in SLUGS]

    def meanwhile(count: int) -> None:
        if not waited:
            for ender in enders:
                ender.start()
            time.sleep(0.5)
            # The game of the game type being rebuilt waits for the rebuild to commit...
            waited.append(enders[0].is_alive())
            # ... the other one's is rated already, and the rebuild will take it in.
            waited.append(enders[1].is_alive())

    services.ratings_rebuild(slugs=SLUGS, progress=meanwhile)
    for ender in enders:
        ender.join(30)
    assert waited == [True, False]
    assert taken == {"abyss": 1, DSA: 1}
    finished = Game.objects.filter(slug__in=SLUGS, status=GameStatus.FINISHED)
    assert RatedGame.objects.filter(slug__in=SLUGS).count() == finished.count() == 22
    as_kept = numbers()
    for slug in SLUGS:
        services.ratings_recompute(slug=slug)
    assert numbers() == as_kept  # the same numbers as a rebuild from scratch
