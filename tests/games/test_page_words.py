"""The pages speak the games' words, not the code's: no option values or ids, no bot account
names, no ratings to a decimal, no promise the code does not keep (issue 39). Each test reads
the text a person sees: the rendered HTML without its tags and scripts."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.play import services as game_services
from games.player_names import player_words
from league.services import ratings

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def seen(response) -> str:
    """The words on a page: its HTML without scripts, tags and repeated spaces."""
    page = response.content.decode()
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return re.sub(r"\s+", " ", html.unescape(page))


def test_ventlife_s_species_choice_is_in_the_rulebook_s_words(client, alice):
    client.force_login(alice)
    words = seen(client.get(reverse("game-new")))
    for code in ("first-game", "species ids", "tube-worms", "tube worms", "yeti-crabs"):
        assert code not in words, code
    assert "First game: Tube Worms, Volcano Snails, Blind Vent Shrimp and Yeti Crabs" in words
    assert "Random: four at random" in words and "Draft: the players take turns" in words
    for name in ("Giant Tube Worms", "Eelpout Fish", "Deep-Sea Octopus", "Vent Sponges"):
        assert name in words


def test_a_ventlife_game_still_starts_with_the_species_ticked(client, alice):
    client.force_login(alice)
    fields = {"game": "ventlife", "players": 2}
    fields |= {f"seat_{i}_who": "random" for i in range(6)}
    fields |= {"seat_0_who": "person", "seat_0_user": "alice", "on_timeout": "random"}
    fields |= {
        "option_ventlife_species": "draft",
        "option_ventlife_species_pick": ["octopus", "sponges", "eelpout", "yeti-crabs"],
    }
    answer = client.post(reverse("game-new"), fields)
    assert answer.status_code == 302, seen(answer)[:2000]
    from games.models import Game

    assert Game.objects.get().options == {
        "species": ["eelpout", "yeti-crabs", "octopus", "sponges"]
    }


def test_bots_are_named_as_people_call_them():
    assert player_words("bot-greedy") == "Greedy bot"
    assert player_words("bot-mcts") == "Search bot"
    assert player_words("bot-random-2") == "Random bot 2"
    assert player_words("alice") == "alice"
    assert player_words("bot-nonsense") == "bot-nonsense"  # not a bot: a member's name


@pytest.fixture
def lost_to_the_greedy_bot(alice, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = game_services.game_create(
            slug=DSA, seats=[{"user": "alice"}, {"bot": "greedy"}], options={}, created_by=alice
        )
        game_services.game_resign(game=game, seat=0, user=alice)
    ratings.ratings_update(slug=DSA)
    return game


def test_ratings_name_the_bot_and_are_whole_numbers(client, alice, lost_to_the_greedy_bot):
    # one game each: provisional, on the board when asked for
    board = seen(client.get(reverse("leaderboard", args=[DSA]) + "?provisional=1"))
    assert "bot-greedy" not in board
    assert "Greedy bot" in board
    assert len(re.findall(r"\b1[3-6]\d\d ± [23]\d\d\b", board)) == 2, board
    assert not re.search(r"\d\.\d", board), "a rating to a decimal"
    assert "Elo by pairwise" not in board and "OpenSkill" not in board

    client.force_login(alice)
    end = seen(client.get(f"/games/{lost_to_the_greedy_bot.pk}/"))
    # the rating shown (Glicko-2: a newcomer's first win moves it far), whole numbers
    assert re.search(r"Greedy bot: 1500 → 1[5-7]\d\d ± [23]\d\d \+1\d\d\b", end), end
    assert "bot-greedy" not in end

    player = seen(client.get(reverse("player", args=["bot-greedy"])))
    assert "bot-greedy" not in player and "Greedy bot" in player
    assert re.search(r"Rating 1[3-6]\d\d ± [23]\d\d after 1 rated game provisional", player)


def test_no_page_offers_to_turn_alerts_on(client, alice, lost_to_the_greedy_bot):
    client.force_login(alice)
    for url in (reverse("settings"), f"/games/{lost_to_the_greedy_bot.pk}/", reverse("game-new")):
        assert "alerts on" not in seen(client.get(url)).lower(), url


def test_how_ratings_work_speaks_players_words_with_the_figures_the_pages_use(
    client, alice, lost_to_the_greedy_bot
):
    how = seen(client.get(reverse("ratings_how")))
    assert "How ratings work" in how
    assert "1612 ± 80" in how  # the example in the form the pages show
    assert "Everyone starts at 1500 ± 350" in how  # a newcomer's Glicko-2 deviation
    assert "While the margin is above 100, your rating is provisional" in how
    assert "after a year away" in how and "twice the margin" in how
    for code in (
        "Glicko",
        "Elo",
        "OpenSkill",
        "deviation",
        "volatility",
        "sigma",
        "mu ",
        "RD",
        "K =",
        "provisional=1",
        "slug",
        "seat",
    ):
        assert code not in how, code
    assert re.search(r"\d\.\d", how) is None  # whole numbers only
    # linked from the places a player reads a rating
    link = f'href="{reverse("ratings_how")}"'
    assert link in client.get(reverse("leaderboard", args=[DSA])).content.decode()
    assert link in client.get(reverse("player", args=["bot-greedy"])).content.decode()
    client.force_login(alice)
    assert link in client.get(f"/games/{lost_to_the_greedy_bot.pk}/").content.decode()
