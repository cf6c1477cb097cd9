"""Ratings of finished games: the Celery path, duplicates, late games, recompute, the API,
the pages and the commands."""

from __future__ import annotations

import io
import json
import re
import time
from datetime import timedelta

import pytest
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from games.models import Game
from games.play import services as game_services
from league import tasks
from league.models import RatedGame, Rating, RatingChange
from league.services import ratings as services

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def forfeit(winner, loser) -> Game:
    """A finished game the quick way: the loser resigns a two-player game."""
    game = game_services.game_create(
        slug=DSA,
        seats=[{"user": winner.username}, {"user": loser.username}],
        options={},
        created_by=winner,
    )
    game_services.game_resign(game=game, seat=1, user=loser)
    return game


def ratings(slug: str = DSA) -> dict[str, float]:
    return {
        r.user.username: r.rating for r in Rating.objects.filter(slug=slug).select_related("user")
    }


GLICKO = ("glicko_rating", "glicko_deviation", "glicko_volatility")
GLICKO_CHANGES = (
    "glicko_rating_before",
    "glicko_deviation_before",
    "glicko_rating_after",
    "glicko_deviation_after",
)


def states(slug: str = DSA) -> dict[str, tuple]:
    """Every stored number of every rating and rating change of ``slug``, by player (and
    game): what a recompute must reproduce to the last bit."""
    rows = Rating.objects.filter(slug=slug).values_list(
        "user__username", "rating", "games", "openskill_mu", "openskill_sigma", *GLICKO
    )
    changes = RatingChange.objects.filter(slug=slug).values_list(
        "user__username", "game_id", "before", "after", *GLICKO_CHANGES
    )
    return {
        "ratings": {name: tuple(rest) for name, *rest in rows},
        "changes": sorted(tuple(c) for c in changes),
    }


def test_a_finished_game_is_rated_through_the_celery_task_on_commit(
    alice, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        forfeit(alice, bob)
    assert ratings() == {"alice": pytest.approx(1516), "bob": pytest.approx(1484)}
    change = RatingChange.objects.get(user=alice)
    assert (change.before, change.after, change.rank) == (1500, pytest.approx(1516), 1)


def test_a_duplicate_task_changes_nothing(alice, bob):
    forfeit(alice, bob)
    assert tasks.rate_finished_games.apply(args=(DSA,)).get() == 1
    first = ratings()
    assert tasks.rate_finished_games.apply(args=(DSA,)).get() == 0
    assert ratings() == first
    assert RatingChange.objects.count() == 2


def test_games_are_rated_in_the_order_they_ended(alice, bob):
    forfeit(alice, bob)
    forfeit(bob, alice)
    services.ratings_update(slug=DSA)
    # 1516/1484 after the first; then bob (1484) beats alice (1516): bob gains more than 16.
    expected_bob = 1484 + 32 * (1 - 1 / (1 + 10 ** ((1516 - 1484) / 400)))
    assert ratings()["bob"] == pytest.approx(expected_bob)


def test_a_late_game_makes_the_ratings_equal_a_full_recompute(alice, bob, make_user):
    carol = make_user("carol")
    second, third = forfeit(bob, carol), forfeit(carol, alice)
    services.ratings_update(slug=DSA)
    # A game that ended before both commits only now (its transaction was slow).
    late = forfeit(alice, bob)
    Game.objects.filter(pk=late.pk).update(finished_at=second.finished_at - timedelta(seconds=1))
    services.ratings_update(slug=DSA)
    incremental = states()
    first_change = RatingChange.objects.filter(user=alice).order_by("finished_at").first()
    assert first_change.game_id == late.pk and first_change.before == 1500
    assert first_change.glicko_rating_before == 1500 and first_change.glicko_rating_after > 1500
    services.ratings_recompute(slug=DSA)
    assert states() == incremental
    assert RatedGame.objects.filter(slug=DSA).count() == 3
    assert {third.pk, second.pk} < set(RatedGame.objects.values_list("game_id", flat=True))


def test_rating_the_game_that_ended_takes_in_a_late_one_as_a_full_recompute(alice, bob, make_user):
    """The task names the game that ended: it is checked alone, and a late one still starts
    the ratings over, so they equal a full recompute."""
    carol = make_user("carol")
    second = forfeit(bob, carol)
    assert services.ratings_update(slug=DSA, game_id=second.pk) == 1
    third = forfeit(carol, alice)
    assert services.ratings_update(slug=DSA, game_id=third.pk) == 1
    late = forfeit(alice, bob)
    Game.objects.filter(pk=late.pk).update(finished_at=second.finished_at - timedelta(seconds=1))
    assert services.ratings_update(slug=DSA, game_id=late.pk) == 1
    incremental = states()
    assert RatingChange.objects.filter(user=alice).order_by("finished_at")[0].game_id == late.pk
    services.ratings_recompute(slug=DSA)
    assert states() == incremental
    assert services.ratings_update(slug=DSA, game_id=late.pk) == 0


def test_rating_a_corrected_game_recomputes(alice, bob):
    first, second = forfeit(alice, bob), forfeit(alice, bob)
    services.ratings_update(slug=DSA, game_id=second.pk)
    # A correction moves the game's version past the one it was rated at.
    Game.objects.filter(pk=first.pk).update(version=first.version + 1)
    assert services.ratings_update(slug=DSA, game_id=first.pk) == 2
    assert RatedGame.objects.get(game=first).version == first.version + 1


def test_recompute_reproduces_the_incremental_numbers_exactly(make_user):
    players = [make_user(name) for name in ("ann", "ben", "cat", "dan")]
    start = timezone.now() - timedelta(days=200)
    for i in range(12):
        winner, loser = players[i % 4], players[(i * 3 + 1) % 4]
        if winner != loser:
            game = forfeit(winner, loser)
            # days apart, unevenly, so that the Glicko-2 deviations age between games
            Game.objects.filter(pk=game.pk).update(finished_at=start + timedelta(days=i * i))
            services.ratings_update(slug=DSA)
    incremental = states()
    history = list(
        RatingChange.objects.order_by("game_id", "seat").values_list(
            "game_id", "user_id", "before", "after", *GLICKO_CHANGES
        )
    )
    result = services.ratings_recompute(slug=DSA)
    assert states() == incremental  # the same floats, not merely close
    assert (
        list(
            RatingChange.objects.order_by("game_id", "seat").values_list(
                "game_id", "user_id", "before", "after", *GLICKO_CHANGES
            )
        )
        == history
    )
    assert result.changed == 0 and result.players == 4


def test_a_glicko_deviation_grows_with_the_days_between_a_players_games(alice, bob):
    start = timezone.now() - timedelta(days=400)
    for days in (0, 1, 366):
        game = forfeit(alice, bob)
        Game.objects.filter(pk=game.pk).update(finished_at=start + timedelta(days=days))
        services.ratings_update(slug=DSA, game_id=game.pk)
    first, next_day, a_year_on = RatingChange.objects.filter(user=alice).order_by("finished_at")
    assert first.glicko_deviation_before == 350.0
    # sqrt(RD^2 + 5^2 * days): a day adds little, a year a lot
    assert next_day.glicko_deviation_before == pytest.approx(
        (first.glicko_deviation_after**2 + 25.0 * 1) ** 0.5
    )
    assert a_year_on.glicko_deviation_before == pytest.approx(
        (next_day.glicko_deviation_after**2 + 25.0 * 365) ** 0.5
    )
    assert a_year_on.glicko_deviation_before > next_day.glicko_deviation_after + 15
    row = Rating.objects.get(user=alice, slug=DSA)
    assert (row.glicko_rating, row.glicko_deviation) == (
        a_year_on.glicko_rating_after,
        a_year_on.glicko_deviation_after,
    )


def test_bots_get_ratings_of_their_own(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            slug=DSA, seats=[{"user": "alice"}, {"bot": "random"}], options={}, created_by=alice
        )
        game_services.game_resign(game=game, seat=0, user=alice)
    assert ratings()["bot-random"] == pytest.approx(1516)


def test_a_game_where_one_player_held_every_seat_is_not_rated(alice):
    game = game_services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "alice"}], options={}, created_by=alice
    )
    game_services.game_resign(game=game, seat=1, user=alice)
    services.ratings_update(slug=DSA)
    assert RatedGame.objects.get(game=game).skipped == "one player held several seats"
    assert not Rating.objects.exists()


def test_the_sweep_rates_what_a_lost_task_left(alice, bob):
    forfeit(alice, bob)  # no on-commit here: the task was never sent
    assert tasks.sweep_unrated_games.apply().get() == 1
    assert set(ratings()) == {"alice", "bob"}


# -- API and pages --------------------------------------------------------------------------------


def test_the_leaderboard_api(alice, bob):
    forfeit(alice, bob)
    services.ratings_update(slug=DSA)
    response = APIClient().get(f"/api/ratings/?game={DSA}")
    assert response.status_code == 200
    results = response.json()["results"]
    assert [(e["player"], e["games"], e["provisional"]) for e in results] == [
        ("alice", 1, True),
        ("bob", 1, True),
    ]
    # Elo stays, under its own name; the rating is Glicko-2's.
    assert [e["elo"] for e in results] == [pytest.approx(1516), pytest.approx(1484)]
    for entry in results:
        row = Rating.objects.get(user__username=entry["player"], slug=DSA)
        assert entry["rating"] == row.glicko_rating != 1500
        # aged by the seconds since the game: not by a point
        assert entry["deviation"] == pytest.approx(row.glicko_deviation, abs=0.01)
        assert 100 < entry["deviation"] < 350
        assert entry["conservative"] == pytest.approx(entry["rating"] - 2 * entry["deviation"])
    assert results[0]["rating"] > 1500 > results[1]["rating"]
    assert APIClient().get("/api/ratings/").status_code == 400
    assert "unknown game" in APIClient().get("/api/ratings/?game=chess").json()["error"]


def test_provisional_follows_the_deviation_not_the_games(alice, bob):
    forfeit(alice, bob)
    services.ratings_update(slug=DSA)
    # alice: one game but a small deviation (a rating carried over); bob: twelve games, but
    # the last three years ago, so his deviation has grown back.
    Rating.objects.filter(user=alice, slug=DSA).update(glicko_deviation=80.0)
    Rating.objects.filter(user=bob, slug=DSA).update(glicko_deviation=70.0, games=12)
    RatingChange.objects.filter(user=bob, slug=DSA).update(
        finished_at=timezone.now() - timedelta(days=3 * 365)
    )
    entries = APIClient().get(f"/api/ratings/?game={DSA}").json()["results"]
    assert [(e["player"], e["games"], e["provisional"]) for e in entries] == [
        ("alice", 1, False),
        ("bob", 12, True),
    ]
    bob_entry = entries[1]
    # aged, not what the games said: sqrt(70^2 + 5^2 * days)
    assert bob_entry["deviation"] == pytest.approx((70.0**2 + 25.0 * 3 * 365) ** 0.5, abs=0.1)


def test_the_leaderboard_ranks_by_rating_minus_two_deviations(
    client, alice, bob, django_user_model
):
    carol = django_user_model.objects.create_user("carol", password="x")
    # bob's rating is the highest of the established two, but he is less sure: alice ranks
    # first (1640 - 2 * 60 > 1690 - 2 * 95); carol, higher still, is provisional.
    for user, glicko, deviation in ((alice, 1640.0, 60.0), (bob, 1690.0, 95.0), (carol, 1800, 150)):
        Rating.objects.create(
            user=user,
            slug=DSA,
            rating=1500,
            games=12,
            openskill_mu=25,
            openskill_sigma=8,
            glicko_rating=glicko,
            glicko_deviation=deviation,
        )
    page = client.get(reverse("leaderboard", args=[DSA])).content.decode()
    assert page.index(">alice<") < page.index(">bob<") and ">carol<" not in page
    assert "(1 hidden)" in page
    page = client.get(reverse("leaderboard", args=[DSA]) + "?provisional=1").content.decode()
    assert page.index(">alice<") < page.index(">bob<") < page.index(">carol<")
    api = APIClient().get(f"/api/ratings/?game={DSA}").json()["results"]
    assert [e["player"] for e in api] == ["alice", "bob", "carol"]


def test_the_player_api_gives_ratings_with_history_and_recent_games(alice, bob):
    forfeit(alice, bob)
    forfeit(bob, alice)
    services.ratings_update(slug=DSA)
    body = APIClient().get("/api/players/alice/").json()
    assert body["username"] == "alice" and body["is_bot"] is False
    (entry,) = body["ratings"]
    assert entry["game"] == DSA and entry["games"] == 2
    assert [round(h["after"] - h["before"], 6) for h in entry["history"]][0] == 16
    assert entry["history"][-1]["after"] == pytest.approx(entry["elo"])
    assert entry["history"][-1]["rating_after"] == pytest.approx(entry["rating"])
    assert entry["provisional"] is True and entry["deviation"] > 100
    assert entry["history"][1]["rating_before"] == entry["history"][0]["rating_after"]
    # the second game read the first's deviation, aged by the moment between them
    assert entry["history"][1]["deviation_before"] == pytest.approx(
        entry["history"][0]["deviation_after"], abs=0.01
    )
    assert len(body["recent_games"]) == 2
    assert APIClient().get("/api/players/nobody/").status_code == 404
    listing = APIClient().get("/api/players/?search=ali").json()["results"]
    assert listing == [{"username": "alice", "is_bot": False}]


def test_the_leaderboard_and_player_pages(client, alice, bob):
    forfeit(alice, bob)
    services.ratings_update(slug=DSA)
    page = client.get(reverse("leaderboard", args=[DSA])).content.decode()
    # One game each: both provisional, hidden until asked for.
    assert "alice" not in page and "Show provisional ratings too" in page
    page = client.get(reverse("leaderboard", args=[DSA]) + "?provisional=1").content.decode()
    for name in ("alice", "bob"):
        row = Rating.objects.get(user__username=name, slug=DSA)
        shown = f"{round(row.glicko_rating)} ± {round(row.glicko_deviation)}"
        assert shown in page  # whole numbers, with the margin
    assert "provisional" in page and "Hide provisional ratings" in page
    assert "Elo by pairwise" not in page and "OpenSkill" not in page
    assert ">Rating<" in page and "minus twice its margin" in page
    assert re.search(r"\d\.\d", page.split("<main", 1)[-1]) is None  # no decimals
    assert client.get(reverse("ratings")).status_code == 302
    assert client.get(reverse("leaderboard", args=["chess"])).status_code == 404
    player = client.get(reverse("player", args=["alice"])).content.decode()
    alice_row = Rating.objects.get(user__username="alice", slug=DSA)
    shown = f"Rating <strong>{round(alice_row.glicko_rating)} ± "
    assert "<polyline" in player and "<polygon" in player and shown in player
    assert "Provisional: we are not sure of this rating yet" in player
    assert "1516.0" not in player


# -- commands -------------------------------------------------------------------------------------


def test_recompute_ratings_command_reports_what_changed(alice, bob):
    forfeit(alice, bob)
    out = io.StringIO()
    call_command("recompute_ratings", "--game", DSA, stdout=out, stderr=io.StringIO())
    assert f"{DSA}: 1 games, 2 players, 2 ratings changed" in out.getvalue()
    out = io.StringIO()
    call_command("recompute_ratings", "--game", DSA, stdout=out, stderr=io.StringIO())
    assert "0 ratings changed" in out.getvalue()


def test_rating_report_predicts_before_it_updates(alice, bob):
    for _ in range(4):
        forfeit(alice, bob)
    out = io.StringIO()
    call_command("rating_report", "--game", DSA, "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["games"] == 4
    # The first game is a coin toss for Elo (a seeded random pick between the two, not the
    # first seat); the next three favour alice, who keeps winning.
    assert report["elo"]["accuracy"] in (0.75, 1.0)
    assert report["candidates"]["elo k=32"]["log_loss"] == report["elo"]["log_loss"]
    assert report["uniform"]["log_loss"] == pytest.approx(0.6931, abs=1e-3)
    assert report["elo"]["log_loss"] < report["uniform"]["log_loss"]


def test_commands_refuse_an_unknown_game():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="unknown game"):
        call_command("rating_report", "--game", "chess")
    with pytest.raises(CommandError, match="unknown game"):
        call_command("recompute_ratings", "--game", "chess")


# -- the real worker ------------------------------------------------------------------------------


@pytest.mark.celery_worker
@pytest.mark.django_db(transaction=True)
def test_a_game_finished_on_the_worker_is_rated_by_the_worker(alice):
    game = game_services.game_create(
        slug=DSA, seats=[{"bot": "random"}, {"user": "alice"}], options={}, created_by=alice
    )
    deadline = time.monotonic() + 60
    game.refresh_from_db()
    while game.current_player != 1 and time.monotonic() < deadline:
        time.sleep(0.2)
        game.refresh_from_db()
    game_services.game_resign(game=game, seat=1, user=alice)
    while not Rating.objects.filter(slug=DSA).exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert ratings() == {"bot-random": pytest.approx(1516), "alice": pytest.approx(1484)}
