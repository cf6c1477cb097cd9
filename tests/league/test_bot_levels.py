"""Bot levels' Elo: ``manage.py simulate --rate`` plays the levels against each other, the
league fits and stores their Elo (random anchored at 1000), and the leaderboard shows it."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from league.models import BotLevelRating
from league.ratings import expected_score, fit_elo
from league.services.bot_levels import RANDOM_ANCHOR, level_ratings


def simulate(*args: str) -> str:
    out = io.StringIO()
    call_command("simulate", *args, stdout=out, stderr=io.StringIO())
    return out.getvalue()


RATE = ("--game", "deep-sea-adventure", "--rate", "--games", "6", "--seed", "4", "--json")


@pytest.mark.django_db
def test_rate_ranks_the_stronger_bot_higher_and_stores_it():
    report = json.loads(simulate(*RATE, "--bots", "random,greedy,mcts:30"))
    ratings = report["ratings"]
    assert ratings["random"] == RANDOM_ANCHOR
    # greedy and mcts beat random in these seeded games: both are rated above it.
    wins = {tuple(p["bots"]): p["wins"] for p in report["pairs"]}
    assert wins[("random", "greedy")]["greedy"] > wins[("random", "greedy")]["random"]
    assert ratings["greedy"] > ratings["random"]
    assert ratings["mcts:30"] > ratings["random"]
    assert report["games"] == 3 * 6
    stored = {r.level: r for r in level_ratings("deep-sea-adventure")}
    assert set(stored) == {"random", "greedy", "mcts"}
    assert stored["mcts"].rating == pytest.approx(ratings["mcts:30"], abs=0.05)
    assert stored["mcts"].budget == "30 iterations a move"
    assert stored["greedy"].budget == "" and stored["random"].games == 12


@pytest.mark.django_db
def test_the_same_seed_rates_the_same_and_a_new_measurement_replaces_the_last():
    first = simulate(*RATE, "--bots", "random,greedy")
    assert simulate(*RATE, "--bots", "random,greedy") == first
    assert BotLevelRating.objects.filter(slug="deep-sea-adventure").count() == 2
    simulate(*RATE, "--bots", "random,mcts:10")
    assert sorted(r.level for r in level_ratings("deep-sea-adventure")) == ["mcts", "random"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    "bots, message",
    [
        ("greedy,mcts:10", "random level"),
        ("random,mcts:10,mcts:20", "name each level once"),
        ("random", "at least two levels"),
    ],
)
def test_rate_refuses_what_it_cannot_rate_and_stores_nothing(bots, message):
    with pytest.raises(CommandError, match=message):
        simulate("--game", "abyss", "--rate", "--games", "1", "--bots", bots)
    assert not BotLevelRating.objects.exists()


@pytest.mark.django_db
def test_the_leaderboard_shows_each_bot_levels_elo(client):
    simulate(*RATE, "--bots", "random,greedy")
    page = client.get(reverse("leaderboard", args=["deep-sea-adventure"])).content.decode()
    assert "How strong the bots are" in page
    greedy = level_ratings("deep-sea-adventure")[0]
    assert greedy.level == "greedy"
    assert f"{greedy.rating:.0f}" in page and "Greedy bot" in page
    other = client.get(reverse("leaderboard", args=["abyss"])).content.decode()
    assert "How strong the bots are" not in other  # measured for one game only


def test_fit_elo_matches_the_results_and_does_not_depend_on_order():
    games = [(("a", "b"), (1, 2))] * 30 + [(("b", "a"), (1, 2))] * 10
    ratings = fit_elo(games, "b", 1000.0, prior_draws=0.0)
    assert ratings["b"] == 1000.0
    # a won 3 of 4: its expected score against b is then 0.75.
    assert expected_score(ratings["a"], ratings["b"]) == pytest.approx(0.75)
    assert fit_elo(list(reversed(games)), "b", 1000.0, prior_draws=0.0) == pytest.approx(ratings)


def test_fit_elo_keeps_a_clean_sweep_finite_and_orders_a_chain():
    games = [(("m", "g"), (1, 2))] * 7 + [(("g", "m"), (1, 2))] * 3
    games += [(("g", "r"), (1, 2))] * 10 + [(("m", "r"), (1, 2))] * 10
    ratings = fit_elo(games, "r", 1000.0)
    assert 1000.0 < ratings["g"] < ratings["m"] < 3000.0


def test_fit_elo_refuses_players_the_anchor_is_not_connected_to():
    with pytest.raises(ValueError, match="connected"):
        fit_elo([(("a", "b"), (1, 2)), (("c", "d"), (2, 1))], "a", 1000.0)
    with pytest.raises(ValueError, match="anchor"):
        fit_elo([(("a", "b"), (1, 2))], "z", 1000.0)
