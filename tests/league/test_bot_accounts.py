"""Bot accounts (league.services.bot_accounts, accounts.bots): a member makes their account a
bot's, for good and only before any rated game; it plays through the API with a token and never
from the pages; it is shown as a bot, rated on the ladders as the house bots are, and kept out
of what is for people."""

from __future__ import annotations

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from accounts.bots import is_bot
from accounts.models import Profile
from games.models import Game
from games.play import services
from league.models import Entry, Rating, RatingChange, Tournament
from league.services import bot_accounts, leagues, tournaments
from league.tournament_spec import TournamentSpec
from tests.tokens import key_for

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


@pytest.fixture
def robo(make_user):
    """A member's account made a bot's."""
    user = make_user("robo")
    bot_accounts.bot_account_make(user=user)
    return user


def by_token(user, scopes=("read", "play", "record", "organise")) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(user, scopes)}")
    return client


def by_session(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


# -- becoming one ---------------------------------------------------------------------------------


def test_a_member_makes_their_account_a_bots_for_good(alice):
    client = by_session(alice)
    assert client.get("/api/me/bot/").json() == {
        "username": "alice",
        "is_bot": False,
        "bot_since": None,
        "why_not": [],
    }
    made = client.post("/api/me/bot/")
    assert made.status_code == 201
    assert made.json()["is_bot"] is True and made.json()["bot_since"]
    assert Profile.objects.get(user=alice).bot_since is not None
    again = client.post("/api/me/bot/")
    assert again.status_code == 409 and "a bot's already" in again.json()["error"]


def test_only_the_session_or_a_token_with_every_scope_makes_a_bot_account(alice):
    refused = by_token(alice, ["read", "play"]).post("/api/me/bot/")
    assert refused.status_code == 403 and refused.json()["scope"] == "record"
    assert not is_bot(alice)
    assert by_token(alice).post("/api/me/bot/").status_code == 201


def test_an_account_that_played_a_rated_game_may_not_and_nothing_changes(alice, bob):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    openskill = {f"openskill_{a}_{b}": 25.0 for a in ("mu", "sigma") for b in ("before", "after")}
    RatingChange.objects.create(
        game=game,
        user=alice,
        slug=DSA,
        finished_at=timezone.now(),
        seat=0,
        rank=1,
        before=1500,
        after=1516,
        **openskill,
    )
    response = by_session(alice).post("/api/me/bot/")
    assert response.status_code == 409
    assert "played rated games" in response.json()["error"]
    assert not Profile.objects.filter(user=alice, bot_since__isnull=False).exists()
    assert "played rated games" in by_session(alice).get("/api/me/bot/").json()["why_not"][0]


def test_a_league_member_or_a_tournament_entrant_may_not(alice, bob, make_user):
    leagues.league_create(name="Harbour club", created_by=alice)
    assert "leagues are for people" in bot_accounts.why_not_bot(alice)[0]
    carol = make_user("carol")
    tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="online",
            players=["bob", "carol"],
        ),
        created_by=bob,
    )
    assert bot_accounts.why_not_bot(carol) == ["it is entered in a tournament that is not over"]


def test_a_house_bot_is_a_bot_already(django_user_model):
    user = django_user_model.objects.create(username="bot-random")
    assert bot_accounts.why_not_bot(user) == ["this account is a bot's already"]


# -- playing: through the API with a token, never from the pages ----------------------------------


@pytest.fixture
def game_with_robo(alice, robo):
    return services.game_create(
        slug=DSA, seats=[{"user": "robo"}, {"user": "alice"}], options={}, created_by=alice
    )


def first_move(client, game: Game):
    actions = client.get(f"/api/games/{game.pk}/actions/?seat=0").json()
    body = {"seat": 0, "expected_version": game.version, "action": actions[0]}
    return client.post(f"/api/games/{game.pk}/actions/", body, format="json")


def test_a_bot_account_plays_with_a_token(game_with_robo, robo):
    bot = by_token(robo, ["read", "play"])
    assert (
        bot.post(f"/api/games/{game_with_robo.pk}/accept/", {"seat": 0}, format="json").status_code
        == 201
    )
    game_with_robo.refresh_from_db()
    assert first_move(bot, game_with_robo).status_code == 201


def test_the_game_page_refuses_a_bot_accounts_moves_with_a_clear_message(
    game_with_robo, robo, client
):
    client.force_login(robo)
    page = client.get(f"/games/{game_with_robo.pk}/")
    assert "This is a bot account: it plays this game through the API" in page.content.decode()
    assert 'id="invitation"' not in page.content.decode()
    session = by_session(robo)
    moved = first_move(session, game_with_robo)  # what the page's script sends
    assert moved.status_code == 403
    assert moved.json() == {
        "error": "this is a bot account: it plays through the API with a token, not from "
        "the site's pages",
        "scope": "play",
    }
    resigned = session.post(f"/api/games/{game_with_robo.pk}/resign/", {"seat": 0}, format="json")
    assert resigned.status_code == 403
    game_with_robo.refresh_from_db()
    assert game_with_robo.version == 1
    accepted = client.post(f"/games/{game_with_robo.pk}/accept/", {"seat": 0}, follow=True)
    assert "it plays through the API with a token" in accepted.content.decode()
    assert not game_with_robo.seats.get(index=0).accepted
    assert client.get("/games/new/", follow=True).redirect_chain[-1][0] == "/"


def test_a_persons_session_still_plays(game_with_robo, alice):
    session = by_session(alice)
    response = session.post(f"/api/games/{game_with_robo.pk}/resign/", {"seat": 1}, format="json")
    assert response.status_code == 201


# -- shown as a bot, rated as the house bots are ---------------------------------------------------


def test_a_bot_account_is_shown_as_a_bot(game_with_robo, robo, alice):
    reader = by_token(alice, ["read"])
    players = {p["username"]: p["is_bot"] for p in reader.get("/api/players/").json()["results"]}
    assert players == {"alice": False, "robo": True}
    assert reader.get("/api/players/robo/").json()["is_bot"] is True
    seats = reader.get(f"/api/games/{game_with_robo.pk}/").json()["seats"]
    assert [(s["name"], s["is_bot"], s["bot"]) for s in seats] == [
        ("robo", True, None),
        ("alice", False, None),
    ]


def test_a_bot_account_is_rated_on_the_ladder_and_marked_as_a_bot(
    game_with_robo, robo, alice, client, django_capture_on_commit_callbacks
):
    bot = by_token(robo, ["read", "play"])
    bot.post(f"/api/games/{game_with_robo.pk}/accept/", {"seat": 0}, format="json")
    with django_capture_on_commit_callbacks(execute=True):  # the rating, once it has committed
        by_token(alice).post(f"/api/games/{game_with_robo.pk}/resign/", {"seat": 1}, format="json")
    game_with_robo.refresh_from_db()
    assert game_with_robo.status == "finished"
    rated = dict(Rating.objects.filter(slug=DSA).values_list("user__username", "games"))
    assert rated == {"robo": 1, "alice": 1}
    # one game: provisional, shown when asked for
    board = client.get(f"/ratings/{DSA}/?provisional=1").content.decode()
    row = board[board.index(">robo</a>") :][:200]
    assert '<span class="badge bot">bot</span>' in row
    assert '<span class="badge bot">bot</span>' in client.get("/players/robo/").content.decode()


# -- kept out of what is for people ---------------------------------------------------------------


def test_a_bot_account_is_kept_out_of_leagues_records_table_logs_and_the_lobby(
    alice, robo, make_user
):
    league = leagues.league_create(name="Harbour club", created_by=alice)
    client = by_token(alice)
    invited = client.post(f"/api/leagues/{league.slug}/members/", {"player": "robo"}, format="json")
    assert invited.status_code == 422
    assert invited.json()["error"] == "robo is a bot account, and leagues are for people"
    recorded = client.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-12-01",
            "results": [{"player": "alice", "rank": 1}, {"player": "robo", "rank": 2}],
        },
        format="json",
    )
    assert recorded.status_code == 422 and "robo is a bot" in recorded.json()["error"]
    logged = client.post(
        "/api/games/",
        {
            "game": DSA,
            "mode": "log",
            "scorekeeper": "alice",
            "seats": [{"user": "alice"}, {"user": "robo"}],
        },
        format="json",
    )
    assert logged.status_code == 422 and "bot account" in logged.json()["error"]
    open_game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"open": True}], options={}, created_by=alice
    )
    joined = by_token(robo).post(f"/api/games/{open_game.pk}/join/", {"seat": 1}, format="json")
    assert joined.status_code == 403
    assert (
        Game.objects.filter(mode="log").count() == 0
        and not league.members.filter(username="robo").exists()
    )


def cup(created_by, players, people_only=True) -> Tournament:
    return tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="online",
            players=players,
            people_only=people_only,
            entry_mode="open",
        ),
        created_by=created_by,
    )


def test_a_tournament_for_people_only_refuses_bots_of_both_kinds(alice, bob, robo):
    client = by_token(alice)
    body = {
        "name": "Cup",
        "game": DSA,
        "format": "swiss",
        "table_size": 2,
        "rounds": 1,
        "players": ["alice", "robo"],
        "people_only": True,
    }
    refused = client.post("/api/tournaments/", body, format="json")
    assert refused.status_code == 422
    assert refused.json()["error"] == "robo is a bot, and this tournament is for people only"
    house = client.post(
        "/api/tournaments/", {**body, "players": ["alice", "bot-greedy-x"]}, format="json"
    )
    assert house.status_code == 422 and "bot-greedy-x is a bot" in house.json()["error"]
    assert not Tournament.objects.exists()
    assert not type(alice).objects.filter(username="bot-greedy-x").exists()

    tournament = cup(alice, ["alice", "bob"])
    assert (
        client.post(
            f"/api/tournaments/{tournament.pk}/enter/", {"player": "robo"}, format="json"
        ).status_code
        == 422
    )
    registered = by_token(robo).post(f"/api/tournaments/{tournament.pk}/register/")
    assert registered.status_code == 422
    assert registered.json()["error"] == "robo is a bot, and this tournament is for people only"
    assert not Entry.objects.filter(tournament=tournament, user=robo).exists()


def test_a_tournament_open_to_bots_takes_a_bot_account_which_answers_its_own_entry(
    alice, bob, robo
):
    tournament = cup(alice, ["alice", "bob", "robo"], people_only=False)
    entry = Entry.objects.get(tournament=tournament, user=robo)
    assert entry.answer == Entry.Answer.INVITED  # its member answers, through the API
    answered = by_token(robo).post(f"/api/tournaments/{tournament.pk}/accept/", {}, format="json")
    assert answered.status_code == 201
    assert tournament.people_only is False
    detail = by_token(alice, ["read"]).get(f"/api/tournaments/{tournament.pk}/").json()
    assert detail["people_only"] is False


def test_the_tournament_page_marks_a_bot_account_and_says_who_may_enter(alice, bob, robo, client):
    open_to_bots = cup(alice, ["alice", "bob", "robo"], people_only=False)
    page = client.get(f"/tournaments/{open_to_bots.pk}/").content.decode()
    row = page[page.index(">robo</a>") :][:120]
    assert '<span class="badge bot">bot</span>' in row
    assert '<span class="badge bot">bot</span>' not in page[page.index(">bob</a>") :][:60]
    people = cup(alice, ["alice", "bob"])
    assert "people only, no bots" in client.get(f"/tournaments/{people.pk}/").content.decode()
