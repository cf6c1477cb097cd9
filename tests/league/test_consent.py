"""Nobody changes another member's rating without their consent (issue 12, item 5; issue 33,
item 2).

A recorded result naming other members is rated once each has confirmed it, or a league
organiser has for the league's members; a named member may dispute it. A game never plays or
forfeits a person's moves before they have taken their seat. Joining a league, being entered in
a tournament and being seated at a table log are invitations the member answers; until they
say yes, what names them waits (league.consent).
"""

from __future__ import annotations

import datetime as dt
import io
import json
from functools import partial
from unittest import mock

import pytest
from django.utils import timezone

from games import tasks
from games.models import Event, Game
from games.play import services
from games.records import reads as record_reads
from league.models import League, RatedGame, Rating, RatingChange
from league.services.ratings import ratings_update
from tests.games.shown import shown
from tests.league import tournament_steps
from tests.league.tournament_steps import kinds, override, pair, ranked

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"


@pytest.fixture
def u37(make_user):
    return make_user("u37")


@pytest.fixture
def u38(make_user):
    return make_user("u38")


def record(client, winner="u37", loser="u38", **extra):
    return client.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-11-20",
            "results": [{"player": winner, "rank": 1}, {"player": loser, "rank": 2}],
            **extra,
        },
        format="json",
    )


def rated(slug=DSA) -> dict[str, float]:
    ratings_update(slug=slug)
    return {c.user.username: c.after - c.before for c in RatingChange.objects.all()}


def test_a_stranger_cannot_rate_two_members_without_them(api, api_for, u37, u38):
    response = record(api)  # alice records "u37 beat u38" without being at the table
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "active" and body["result"] is None
    assert body["record"]["status"] == "awaiting confirmation"
    assert body["record"]["waiting_for"] == ["u37", "u38"]
    assert rated() == {} and not Rating.objects.exists()
    game_id = body["id"]
    assert api_for(u37).post(f"/api/matches/{game_id}/confirm/", {}, format="json").json()[
        "record"
    ]["waiting_for"] == ["u38"]
    assert rated() == {}
    done = api_for(u38).post(f"/api/matches/{game_id}/confirm/", {}, format="json").json()
    assert done["status"] == "finished" and done["record"]["status"] == "final"
    assert rated() == {"u37": pytest.approx(16), "u38": pytest.approx(-16)}
    assert Game.objects.get(pk=game_id).finished_at == dt.datetime(2026, 11, 20, 12, tzinfo=dt.UTC)


def test_a_named_member_disputes_and_nothing_is_rated_until_it_is_put_right(api, api_for, u37, u38):
    game_id = record(api).json()["id"]
    disputed = api_for(u38).post(
        f"/api/matches/{game_id}/dispute/", {"reason": "I won that one"}, format="json"
    )
    assert disputed.status_code == 201
    assert disputed.json()["record"]["status"] == "disputed"
    assert disputed.json()["record"]["disputes"][0]["reason"] == "I won that one"
    refused = api_for(u37).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert refused.status_code == 409
    assert rated() == {}
    # The recorder corrects it; the correction needs both again.
    corrected = api.post(
        f"/api/matches/{game_id}/correct/",
        {
            "results": [{"player": "u37", "rank": 2}, {"player": "u38", "rank": 1}],
            "reason": "swapped",
        },
        format="json",
    )
    assert corrected.status_code == 201
    assert corrected.json()["record"]["waiting_for"] == ["u37", "u38"]
    for user in (u37, u38):
        api_for(user).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert rated() == {"u37": pytest.approx(-16), "u38": pytest.approx(16)}
    kinds = list(Event.objects.filter(game_id=game_id).values_list("kind", flat=True))
    assert kinds == [
        "GameCreated",
        "ResultRecorded",
        "ResultDisputed",
        "ResultCorrected",
        "ResultConfirmed",
        "ResultConfirmed",
        "GameFinished",
    ]


def test_only_named_members_confirm_once_and_only_while_it_waits(api, api_for, u37, u38, make_user):
    game_id = record(api).json()["id"]
    outsider = api_for(make_user("zed"))
    assert outsider.post(f"/api/matches/{game_id}/confirm/", {}, format="json").status_code == 403
    assert outsider.post(f"/api/matches/{game_id}/dispute/", {}, format="json").status_code == 403
    assert (
        api_for(u37).post(f"/api/matches/{game_id}/confirm/", {}, format="json").status_code == 201
    )
    again = api_for(u37).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert again.status_code == 409 and "already" in again.json()["error"]
    assert (
        api_for(u37).post(f"/api/matches/{game_id}/dispute/", {}, format="json").status_code == 409
    )
    api_for(u38).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    final = api_for(u38).post(f"/api/matches/{game_id}/confirm/", {}, format="json")
    assert final.status_code == 409 and "final" in final.json()["error"]


def test_a_league_organiser_records_or_confirms_for_the_leagues_members(api, api_for, u37, u38):
    api.post("/api/leagues/", {"name": "Harbour"}, format="json")
    for user in (u37, u38):
        api.post("/api/leagues/harbour/members/", {"player": user.username}, format="json")
        assert api_for(user).post("/api/leagues/harbour/accept/").status_code == 201
    by_organiser = record(api, league="harbour").json()
    assert by_organiser["status"] == "finished"
    by_member = record(api_for(u37), league="harbour").json()
    assert by_member["record"]["waiting_for"] == ["u38"]
    confirmed = api.post(f"/api/matches/{by_member['id']}/confirm/", {}, format="json")
    assert confirmed.status_code == 201 and confirmed.json()["status"] == "finished"
    assert RatedGame.objects.count() == 0
    ratings_update(slug=DSA)
    assert RatedGame.objects.count() == 2


def test_recording_only_yourself_and_guests_needs_nobody(api, alice):
    response = api.post(
        "/api/matches/",
        {
            "game": DSA,
            "played_at": "2026-11-20",
            "results": [
                {"player": "alice", "rank": 1},
                {"player": "Guest", "rank": 2, "guest": True},
            ],
        },
        format="json",
    )
    assert response.json()["status"] == "finished"


def test_the_record_page_offers_confirm_and_dispute_to_the_named(api, client, u37, u38):
    game_id = record(api).json()["id"]
    client.force_login(u38)
    page = client.get(f"/games/{game_id}/").content.decode()
    assert "Waiting for u37 and u38 to confirm" in page
    assert f'action="/matches/{game_id}/confirm/"' in page
    response = client.post(f"/matches/{game_id}/dispute/", {"reason": "not so"})
    assert response.status_code == 302
    page = client.get(f"/games/{game_id}/").content.decode()
    assert "Disputed by u38" in page and "not so" in page
    assert f'action="/matches/{game_id}/confirm/"' not in page


# -- a person's clock starts only once they have taken their seat -----------------------------------


def clocked(api, seats, seconds=5, on_timeout="forfeit"):
    response = api.post(
        "/api/games/",
        {
            "game": DSA,
            "seats": seats,
            "time_control": {"move_seconds": seconds, "on_timeout": on_timeout},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def later(seconds):
    return mock.patch(
        "django.utils.timezone.now", return_value=timezone.now() + dt.timedelta(seconds=seconds)
    )


def test_nobody_forfeits_a_game_they_never_saw(api, u37):
    game = clocked(api, [{"user": "u37"}, {"user": "alice"}])  # u37 is to move first
    assert game["seats"][0]["accepted"] is False and game["seats"][1]["accepted"] is True
    assert game["time_control"]["deadline"] is None
    with later(3600):
        assert services.game_timeout(game_id=game["id"], seat=0, version=game["version"]) is None
        tasks.sweep_stalled_bots()
    assert Game.objects.get(pk=game["id"]).status == "active"
    assert not Event.objects.filter(game_id=game["id"], kind="SeatResigned").exists()


def test_the_clock_starts_once_everyone_has_accepted(api, api_for, u37):
    game = clocked(api, [{"user": "u37"}, {"user": "alice"}])
    accepted = api_for(u37).post(f"/api/games/{game['id']}/accept/", {"seat": 0}, format="json")
    assert accepted.status_code == 201
    assert accepted.json()["events"][0]["kind"] == "SeatAccepted"
    body = api.get(f"/api/games/{game['id']}/").json()
    assert body["time_control"]["deadline"] is not None
    with later(60):
        tasks.sweep_stalled_bots()
    assert Game.objects.get(pk=game["id"]).status == "finished"  # u37 forfeited, as agreed


def test_declining_calls_the_game_off_and_nothing_is_rated(api, api_for, u37):
    game = clocked(api, [{"user": "alice"}, {"user": "u37"}])
    declined = api_for(u37).post(f"/api/games/{game['id']}/decline/", {"seat": 1}, format="json")
    assert declined.status_code == 201
    body = api.get(f"/api/games/{game['id']}/").json()
    assert body["status"] == "void" and body["result"] is None
    assert (
        api_for(u37)
        .post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
        .status_code
        == 409
    )
    assert not RatedGame.objects.exists()


def test_accepting_twice_or_someone_elses_seat_is_refused(api, api_for, u37, u38):
    game = clocked(api, [{"user": "alice"}, {"user": "u37"}])
    url = f"/api/games/{game['id']}/accept/"
    assert api_for(u38).post(url, {"seat": 1}, format="json").status_code == 403
    assert api_for(u37).post(url, {"seat": 1}, format="json").status_code == 201
    twice = api_for(u37).post(url, {"seat": 1}, format="json")
    assert twice.status_code == 409 and twice.json()["error"]
    decline = api_for(u37).post(f"/api/games/{game['id']}/decline/", {"seat": 1}, format="json")
    assert decline.status_code == 409 and "resign" in decline.json()["error"]


def test_a_first_move_takes_the_seat_and_unclocked_games_play_at_once(api, api_for, u37):
    response = api.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "u37"}, {"user": "alice"}]}, format="json"
    ).json()
    move = api_for(u37).post(
        f"/api/games/{response['id']}/actions/",
        {"seat": 0, "expected_version": 1, "action": {"type": "continue"}},
        format="json",
    )
    assert move.status_code == 201
    assert api.get(f"/api/games/{response['id']}/").json()["seats"][0]["accepted"] is True


def test_tournament_entrants_are_seated_by_entering(api_for, make_user):
    organiser = api_for(make_user("org"))
    for name in ("ann", "ben"):
        make_user(name)
    tid = organiser.post(
        "/api/tournaments/",
        {
            "name": "Blitz",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
            "time_control": {"move_seconds": 30, "on_timeout": "random"},
        },
        format="json",
    ).json()["id"]
    table = organiser.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    game = organiser.get(f"/api/games/{table['game']}/").json()
    assert all(seat["accepted"] for seat in game["seats"])
    assert game["time_control"]["deadline"] is not None


def test_the_game_page_offers_the_invited_accept_and_decline(api, client, u37):
    game = clocked(api, [{"user": "alice"}, {"user": "u37"}])
    client.force_login(u37)
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "You are invited" in page
    assert client.post(f"/games/{game['id']}/accept/", {"seat": 1}).status_code == 302
    assert Game.objects.get(pk=game["id"]).seats.get(index=1).accepted
    assert "You are invited" not in client.get(f"/games/{game['id']}/").content.decode()


# -- the four side doors (issue 33, item 2): nobody is rated for what they never agreed to ---------
#
# Each door as the outside attacker walked through it: alice, a member like any other, rates u75
# and u76 (or u50), who were never asked.


@pytest.fixture
def strangers(make_user):
    return {name: make_user(name) for name in ("u75", "u76")}


def my_own_league(client, name="Side door") -> str:
    response = client.post("/api/leagues/", {"name": name}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["slug"]


def changes_of(*names) -> list[RatingChange]:
    return list(RatingChange.objects.filter(user__username__in=names))


def test_door_a_an_organiser_of_their_own_league_adds_two_members_and_records_a_result(
    api, strangers, django_capture_on_commit_callbacks
):
    league = my_own_league(api)
    for name in strangers:
        assert (
            api.post(f"/api/leagues/{league}/members/", {"player": name}, format="json").status_code
            == 201
        )
    with django_capture_on_commit_callbacks(execute=True):
        body = record(api, "u75", "u76", league=league).json()
    assert body["status"] == "active" and body["record"]["waiting_for"] == ["u75", "u76"]
    assert changes_of("u75", "u76") == [] and not Rating.objects.exists()
    assert api.get(f"/api/leagues/{league}/standings/").json() == []


LEAGUE_CSV = "play,date,game,player,guest,score,rank\n" + "".join(
    f"p{n},2026-0{n}-01,abyss,u50,no,80,1\np{n},2026-0{n}-01,abyss,alice,no,{60 + n},2\n"
    for n in range(1, 6)
)


def test_door_b_the_same_organiser_imports_plays_naming_a_member_who_never_agreed(
    api, client, alice, make_user, django_capture_on_commit_callbacks
):
    from django.core.files.uploadedfile import SimpleUploadedFile

    make_user("u50")
    league = my_own_league(api)
    api.post(f"/api/leagues/{league}/members/", {"player": "u50"}, format="json")
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/leagues/{league}/import/",
            {"format": "csv", "file": SimpleUploadedFile("plays.csv", LEAGUE_CSV.encode())},
        )
    assert response.status_code == 302
    games = Game.objects.filter(leagues__slug=league)
    assert games.count() == 5 and {g.status for g in games} == {"active"}
    assert changes_of("u50") == [] and not Rating.objects.filter(user__username="u50").exists()
    assert api.get(f"/api/leagues/{league}/standings/").json() == []


table_tournament = partial(tournament_steps.create, name="Self-made open", rounds=1)


def test_door_c_a_self_made_tournaments_organiser_overrides_a_result(
    api, strangers, django_capture_on_commit_callbacks
):
    tid = table_tournament(api, ["u75", "u76"])
    table = pair(api, tid)["tables"][0]
    results = [{"player": "u75", "rank": 1, "score": 9}, {"player": "u76", "rank": 2, "score": 1}]
    with django_capture_on_commit_callbacks(execute=True):
        overridden = api.post(
            f"/api/tournaments/{tid}/tables/{table['id']}/override/",
            {"results": results},
            format="json",
        )
    assert overridden.status_code == 201 and overridden.json()["status"] == "final"
    # Event day goes on: the table counts for the tournament...
    standings = {row["player"]: row for row in api.get(f"/api/tournaments/{tid}/standings/").json()}
    assert standings["u75"]["points"] == 1 and standings["u75"]["wins"] == 1
    # ... but rates nobody who never agreed to play.
    assert changes_of("u75", "u76") == [] and not Rating.objects.exists()


def log_table(client, seats, scorekeeper="alice") -> dict:
    response = client.post(
        "/api/games/",
        {"game": DSA, "mode": "log", "scorekeeper": scorekeeper, "seats": seats},
        format="json",
    )
    assert response.status_code == 201, response.json()
    return response.json()


def enter_to_the_end(client, game_id: int, rng) -> None:
    while (now := client.get(f"/api/games/{game_id}/log/").json())["due"] is not None:
        response = client.post(
            f"/api/games/{game_id}/actions/",
            {
                "seat": "chance" if now["due"] == "chance" else now["seat"],
                "expected_version": now["version"],
                "action": rng.choice(now["choices"]),
            },
            format="json",
        )
        assert response.status_code == 201, response.json()


def test_door_d_a_scorekeeper_not_seated_keeps_a_log_of_two_members_and_chooses_every_die(
    api, strangers, django_capture_on_commit_callbacks
):
    import random

    game = log_table(api, [{"user": "u75"}, {"user": "u76"}])
    with django_capture_on_commit_callbacks(execute=True):
        enter_to_the_end(api, game["id"], random.Random(75))
    assert api.get(f"/api/games/{game['id']}/").json()["status"] == "finished"
    assert changes_of("u75", "u76") == [] and not Rating.objects.exists()


# -- joining a league is an invitation the member accepts ------------------------------------------


def invite(client, league, name, role="member"):
    return client.post(
        f"/api/leagues/{league}/members/", {"player": name, "role": role}, format="json"
    )


def test_harbour_invites_u75_who_joins_and_from_then_on_the_organisers_word_stands(
    api, api_for, strangers
):
    league = my_own_league(api, "Harbour")
    asked = invite(api, league, "u75")
    assert asked.status_code == 201
    body = asked.json()
    assert body["added"] == {"player": "u75", "role": "member", "status": "invited"}
    assert [m["player"] for m in body["members"]] == ["alice"]  # the creator owns it
    assert body["members"][0]["role"] == "owner"
    assert [(i["player"], i["invited_by"]) for i in body["invited"]] == [("u75", "alice")]
    assert api.get("/api/leagues/").json() == [
        {"slug": "harbour", "name": "Harbour", "members": 1, "visibility": "public"}
    ]
    u75 = api_for(strangers["u75"])
    mine = u75.get("/api/me/invitations/").json()["leagues"]
    assert [(i["league"], i["invited_by"], i["accept"]) for i in mine] == [
        ("harbour", "alice", "/api/leagues/harbour/accept/")
    ]

    joined = u75.post("/api/leagues/harbour/accept/")
    assert joined.status_code == 201
    assert [m["player"] for m in joined.json()["members"]] == ["alice", "u75"]
    assert (
        joined.json()["invited"] == [] and u75.get("/api/me/invitations/").json()["leagues"] == []
    )
    # alice's record of a game between two members is final at once...
    assert record(api, "alice", "u75", league=league).json()["status"] == "finished"
    # ... and of one naming u76, who was never asked, it waits for u76 alone.
    waiting = record(api, "u75", "u76", league=league).json()
    assert waiting["status"] == "active" and waiting["record"]["waiting_for"] == ["u76"]


def test_an_invited_person_is_no_member_until_they_accept(api, api_for, strangers):
    league = my_own_league(api, "Harbour")
    for name in strangers:
        invite(api, league, name)
    api_for(strangers["u75"]).post(f"/api/leagues/{league}/accept/")
    # u76 may not record the league's games, and alice's word does not stand for u76 ...
    assert record(api_for(strangers["u76"]), league=league).status_code == 403
    game = record(api, "u75", "u76", league=league).json()
    assert game["record"]["waiting_for"] == ["u76"]
    # ... even when she confirms it: a clear 409, and nothing written.
    before = Event.objects.filter(game_id=game["id"]).count()
    refused = api.post(f"/api/matches/{game['id']}/confirm/", {}, format="json")
    assert refused.status_code == 409
    assert "u76 has not agreed to be one" in refused.json()["error"]
    assert Event.objects.filter(game_id=game["id"]).count() == before
    # Nor does her correction: it waits for u76 as well.
    corrected = api.post(
        f"/api/matches/{game['id']}/correct/",
        {"results": [{"player": "u75", "rank": 2}, {"player": "u76", "rank": 1}]},
        format="json",
    ).json()
    assert corrected["status"] == "active" and corrected["record"]["waiting_for"] == ["u76"]
    assert rated() == {}
    # u76's own confirmation makes it final.
    done = api_for(strangers["u76"]).post(f"/api/matches/{game['id']}/confirm/", format="json")
    assert done.json()["status"] == "finished"
    assert rated() == {"u75": pytest.approx(-16), "u76": pytest.approx(16)}


def test_an_organisers_confirmation_stands_for_the_members_it_covers_and_waits_for_the_rest(
    api, api_for, strangers, make_user
):
    league = my_own_league(api, "Harbour")
    u77 = make_user("u77")
    for user in (strangers["u75"], u77):
        invite(api, league, user.username)
        api_for(user).post(f"/api/leagues/{league}/accept/")
    invite(api, league, "u76")
    game = (
        api_for(u77)
        .post(
            "/api/matches/",
            {
                "game": DSA,
                "played_at": "2026-11-20",
                "league": league,
                "results": [
                    {"player": "u75", "rank": 1},
                    {"player": "u76", "rank": 2},
                    {"player": "u77", "rank": 3},
                ],
            },
            format="json",
        )
        .json()
    )
    assert game["record"]["waiting_for"] == ["u75", "u76"]
    confirmed = api.post(f"/api/matches/{game['id']}/confirm/", format="json").json()
    assert confirmed["status"] == "active" and confirmed["record"]["waiting_for"] == ["u76"]
    event = Event.objects.filter(game_id=game["id"], kind="ResultConfirmed").get()
    assert shown(event) == {"on_behalf_of": ["u75"], "v": 2}
    # The invitation accepted later does not confirm what was recorded before: u76 says so.
    api_for(strangers["u76"]).post(f"/api/leagues/{league}/accept/")
    assert Game.objects.get(pk=game["id"]).status == "active"
    api_for(strangers["u76"]).post(f"/api/matches/{game['id']}/confirm/", format="json")
    assert Game.objects.get(pk=game["id"]).status == "finished"


def test_declining_removes_the_invitation_and_the_organiser_may_ask_again(api, api_for, strangers):
    league = my_own_league(api, "Harbour")
    invite(api, league, "u75", role="organiser")
    u75 = api_for(strangers["u75"])
    declined = u75.post(f"/api/leagues/{league}/decline/")
    assert declined.status_code == 200 and declined.json()["invited"] == []
    again = u75.post(f"/api/leagues/{league}/accept/")
    assert again.status_code == 409 and "no invitation" in again.json()["error"]
    assert u75.post(f"/api/leagues/{league}/decline/").status_code == 409
    assert invite(api, league, "u75").json()["added"]["status"] == "invited"
    joined = u75.post(f"/api/leagues/{league}/accept/").json()
    assert {"player": "u75", "role": "member"} in joined["members"]  # the role asked last


def test_nobody_answers_another_persons_invitation_and_bad_answers_change_nothing(
    api, api_for, strangers
):
    league = my_own_league(api, "Harbour")
    invite(api, league, "u75")
    u76 = api_for(strangers["u76"])
    other = u76.post(f"/api/leagues/{league}/accept/", {"player": "u75"}, format="json")
    assert other.status_code == 403 and "answer your own" in other.json()["error"]
    assert (
        api.post(f"/api/leagues/{league}/decline/", {"player": "u75"}, format="json").status_code
        == 403
    )
    assert u76.post(f"/api/leagues/{league}/accept/").status_code == 409  # never asked
    assert api.post(f"/api/leagues/{league}/accept/").status_code == 409  # a member already
    assert u76.post("/api/leagues/no-such-club/accept/").status_code == 404
    assert api_for(strangers["u75"]).post(f"/api/leagues/{league}/accept/").status_code == 201
    twice = api_for(strangers["u75"]).post(f"/api/leagues/{league}/accept/")
    assert twice.status_code == 409 and "a member of Harbour already" in twice.json()["error"]
    # Only an organiser invites, and only a person.
    assert invite(api_for(strangers["u75"]), league, "u76").status_code == 403
    assert invite(api, league, "bot-random").status_code == 404  # no such person
    assert invite(api, league, "nobody").status_code == 404
    assert api.get(f"/api/leagues/{league}/").json()["invited"] == []
    assert [m["player"] for m in api.get(f"/api/leagues/{league}/").json()["members"]] == [
        "alice",
        "u75",
    ]


def test_the_league_page_and_the_invitations_page_offer_to_join(api, client, strangers):
    league = my_own_league(api, "Harbour")
    invite(api, league, "u75")
    invite(api, league, "u76")
    client.force_login(strangers["u75"])
    page = client.get(f"/leagues/{league}/").content.decode()
    assert "You are invited to join Harbour" in page
    assert f'action="/leagues/{league}/accept/"' in page
    assert 'id="invited"' in page and "u76" in page
    listed = client.get("/invitations/").content.decode()
    assert 'id="league-invitations"' in listed and f'action="/leagues/{league}/decline/"' in listed
    response = client.post(f"/leagues/{league}/accept/", {"next": "/invitations/"})
    assert response.status_code == 302 and response["Location"] == "/invitations/"
    assert 'id="league-invitations"' not in client.get("/invitations/").content.decode()
    page = client.get(f"/leagues/{league}/").content.decode()
    assert "You are invited" not in page
    client.force_login(strangers["u76"])
    assert client.post(f"/leagues/{league}/decline/").status_code == 302
    assert "You are invited" not in client.get(f"/leagues/{league}/").content.decode()


# -- imports: a play naming someone who has not joined waits for them ------------------------------


def test_an_import_keeps_the_members_plays_final_and_holds_the_rest_for_confirmation(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    from league.services.plays import plays_import

    alice = strangers["u75"].__class__.objects.get(username="alice")
    league = my_own_league(api, "Harbour")
    invite(api, league, "u75")
    api_for(strangers["u75"]).post(f"/api/leagues/{league}/accept/")
    invite(api, league, "u76")  # asked, not yet answered
    text = (
        "play,date,game,player,guest,score,rank\n"
        "p1,2026-01-01,abyss,alice,no,80,1\np1,2026-01-01,abyss,u75,no,70,2\n"
        "p2,2026-02-01,abyss,u75,no,80,1\np2,2026-02-01,abyss,u76,no,70,2\n"
        "p3,2026-03-01,abyss,alice,no,80,1\np3,2026-03-01,abyss,u76,no,70,2\n"
        "p3,2026-03-01,abyss,Zoe,yes,60,3\n"
    )
    club = League.objects.get(slug=league)
    dry = plays_import(league=club, content=text, format="csv", by=alice, dry_run=True)
    assert dry.lines()[-1] == (
        "2 plays would wait for the confirmation of members who have not joined the league: u76 (2)"
    )
    with django_capture_on_commit_callbacks(execute=True):
        report = plays_import(league=club, content=text, format="csv", by=alice)
    assert report.imported and report.waiting == {"u76": 2}
    first, second, third = Game.objects.filter(leagues=club).order_by("pk")
    assert first.status == "finished"  # alice and u75, a member: final, as before
    waits = [record_reads.result_state(g) for g in (second, third)]
    assert [(g.status, w["waiting_for"]) for g, w in zip((second, third), waits)] == [
        ("active", ["u76"]),
        ("active", ["u76"]),
    ]
    assert waits[0]["confirmed_by"] == ["alice", "u75"]  # her word stands for u75
    assert set(changes_of("u75")) == set(
        RatingChange.objects.filter(game=first, user__username="u75")
    )
    assert changes_of("u76") == []
    # u76 confirms one of them: it is final, and rated in the order played.
    with django_capture_on_commit_callbacks(execute=True):
        api_for(strangers["u76"]).post(f"/api/matches/{third.pk}/confirm/", format="json")
    assert [c.game_id for c in changes_of("u76")] == [third.pk]
    assert_equal_to_a_recompute("abyss")


def assert_equal_to_a_recompute(slug: str) -> None:
    """The ratings as the service keeps them are those ``manage.py recompute_ratings`` makes."""
    from django.core.management import call_command

    def now():
        return (
            sorted(
                (r.user_id, round(r.rating, 9), r.games, round(r.openskill_mu, 9))
                for r in Rating.objects.filter(slug=slug)
            ),
            sorted(
                (c.game_id, c.user_id, round(c.before, 9), round(c.after, 9))
                for c in RatingChange.objects.filter(slug=slug)
            ),
            sorted(
                RatedGame.objects.filter(slug=slug).values_list("game_id", "skipped", "version")
            ),
        )

    kept = now()
    call_command("recompute_ratings", "--game", slug, stdout=io.StringIO())
    assert now() == kept


def test_a_bgstats_import_takes_an_invited_person_as_a_member_whose_plays_wait(api, strangers):
    from league.services.plays import plays_import

    alice = strangers["u75"].__class__.objects.get(username="alice")
    league = my_own_league(api, "Harbour")
    invite(api, league, "u75")
    export = {
        "games": [{"id": 1, "name": "Abyss", "highestWins": True}],
        "players": [{"id": 1, "name": "alice"}, {"id": 2, "name": "U75"}],
        "locations": [],
        "plays": [
            {
                "playDate": "2026-01-01 20:00:00",
                "gameRefId": 1,
                "playerScores": [
                    {"playerRefId": 1, "score": "80", "winner": True},
                    {"playerRefId": 2, "score": "70", "winner": False},
                ],
            }
        ],
    }
    report = plays_import(
        league=League.objects.get(slug=league),
        content=json.dumps(export),
        format="bgstats",
        by=alice,
    )
    assert report.members == {"U75": "u75", "alice": "alice"} and report.waiting == {"u75": 1}
    game = Game.objects.get()
    assert game.status == "active" and record_reads.result_state(game)["waiting_for"] == ["u75"]


# -- tournaments: an organiser's entry is an invitation the entrant accepts -------------------------


def answer(client, tid, what="accept", **body):
    return client.post(f"/api/tournaments/{tid}/{what}/", body, format="json")


def settle(client, tid, table, winner, loser):
    """The organiser's result at a table of two: ``winner`` 9, ``loser`` 1."""
    return override(client, tid, table, ranked(winner, loser, scores=(9, 1)))


def test_the_held_table_is_rated_once_both_entrants_accept_and_equals_a_recompute(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    tid = table_tournament(api, ["u75", "u76"])
    body = api.get(f"/api/tournaments/{tid}/").json()
    assert [(p["player"], p["answer"]) for p in body["players"]] == [
        ("u75", "invited"),
        ("u76", "invited"),
    ]
    table = pair(api, tid)["tables"][0]
    with django_capture_on_commit_callbacks(execute=True):
        settle(api, tid, table["id"], "u75", "u76")
    marker = RatedGame.objects.get(game_id=table["game"])
    assert marker.consent == "waiting" and marker.skipped == (
        "waiting for u75 to accept their entry and u76 to accept their entry"
    )
    # A game of another table, played later, is rated meanwhile: the held one will come late.
    with django_capture_on_commit_callbacks(execute=True):
        record(api, "alice", "u75")  # u75 confirms below; alice recorded it
        later = Game.objects.filter(mode="record").latest("pk")
        api_for(strangers["u75"]).post(f"/api/matches/{later.pk}/confirm/", format="json")
    assert {c.user.username for c in RatingChange.objects.filter(game=later)} == {"alice", "u75"}

    with django_capture_on_commit_callbacks(execute=True):
        assert answer(api_for(strangers["u75"]), tid).json()["players"][0]["answer"] == "accepted"
    assert RatedGame.objects.get(game_id=table["game"]).skipped == (
        "waiting for u76 to accept their entry"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert answer(api_for(strangers["u76"]), tid).status_code == 201
    assert {c.user.username for c in RatingChange.objects.filter(game_id=table["game"])} == {
        "u75",
        "u76",
    }
    # The tournament game (20 November) went before alice's record (the 20th too, later):
    # rated in its place, as a full recompute does it.
    assert_equal_to_a_recompute(DSA)
    assert kinds(tid).count("EntryAccepted") == 2


def test_event_day_runs_on_entries_not_yet_accepted_and_a_confirmed_result_is_agreement(
    api, api_for, make_user, django_capture_on_commit_callbacks
):
    people = {name: make_user(name) for name in ("ann", "ben", "cat", "dan")}
    tid = table_tournament(api, list(people), rounds=2)
    round1 = pair(api, tid)
    reported, settled = round1["tables"]
    # At one table both players report and confirm: they agreed to that result.
    a, b = reported["seats"]
    results = [{"player": a, "rank": 1, "score": 5}, {"player": b, "rank": 2, "score": 2}]
    url = f"/api/tournaments/{tid}/tables/{reported['id']}"
    with django_capture_on_commit_callbacks(execute=True):
        api_for(people[a]).post(f"{url}/report/", {"results": results}, format="json")
        api_for(people[b]).post(f"{url}/confirm/", {"results": results}, format="json")
    # At the other, one reports and the organiser settles it otherwise: nobody agreed to that.
    c, d = settled["seats"]
    api_for(people[c]).post(
        f"/api/tournaments/{tid}/tables/{settled['id']}/report/",
        {"results": [{"player": c, "rank": 1}, {"player": d, "rank": 2}]},
        format="json",
    )
    with django_capture_on_commit_callbacks(execute=True):
        settle(api, tid, settled["id"], d, c)
    # Both count, and round 2 pairs on them.
    standings = api.get(f"/api/tournaments/{tid}/standings/").json()
    assert sorted(row["points"] for row in standings) == [0, 0, 1, 1]
    assert api.post(f"/api/tournaments/{tid}/rounds/", format="json").status_code == 201
    assert {c_.user.username for c_ in RatingChange.objects.filter(game_id=reported["game"])} == {
        a,
        b,
    }
    held = RatedGame.objects.get(game_id=settled["game"])
    assert (
        held.consent == "waiting"
        and not RatingChange.objects.filter(game_id=settled["game"]).exists()
    )
    assert held.skipped == f"waiting for {c} to accept their entry and {d} to accept their entry"


def test_entering_oneself_is_agreeing(api_for, make_user, django_capture_on_commit_callbacks):
    org = api_for(make_user("org"))
    ann, ben = make_user("ann"), make_user("ben")
    tid = table_tournament(org, [], entry_mode="open")
    for user in (ann, ben):
        assert api_for(user).post(f"/api/tournaments/{tid}/register/").status_code == 201
    players = org.get(f"/api/tournaments/{tid}/").json()["players"]
    assert {p["answer"] for p in players} == {"accepted"}
    assert answer(api_for(ann), tid).status_code == 409  # nothing to accept
    table = pair(org, tid)["tables"][0]
    with django_capture_on_commit_callbacks(execute=True):
        settle(org, tid, table["id"], "ann", "ben")
    assert RatingChange.objects.filter(game_id=table["game"]).count() == 2


def test_declining_withdraws_the_entrant_and_their_place_goes_to_the_waitlist(api_for, make_user):
    org = api_for(make_user("org"))
    people = {name: make_user(name) for name in ("ann", "ben", "cat")}
    tid = table_tournament(org, ["ann", "ben"], cap=2, entry_mode="open")
    assert api_for(people["cat"]).post(f"/api/tournaments/{tid}/register/").status_code == 201
    declined = answer(api_for(people["ann"]), tid, "decline")
    assert declined.status_code == 201
    by_name = {p["player"]: p for p in declined.json()["players"]}
    assert by_name["ann"]["answer"] == "declined" and by_name["ann"]["dropped"]
    assert not by_name["cat"]["waitlisted"]  # moved up into the place ann left
    again = answer(api_for(people["ann"]), tid)
    assert again.status_code == 409 and "declined" in again.json()["error"]
    assert answer(api_for(people["ann"]), tid, "decline").status_code == 409
    # The organisers may enter her again: asked again, she may say yes this time.
    assert (
        org.post(f"/api/tournaments/{tid}/enter/", {"player": "ann"}, format="json").status_code
        == 201
    )
    assert answer(api_for(people["ann"]), tid).status_code == 201


def test_a_declined_entry_leaves_the_games_it_played_unrated(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    tid = table_tournament(api, ["u75", "u76"], rounds=2)
    table = pair(api, tid)["tables"][0]
    answer(api_for(strangers["u75"]), tid)
    with django_capture_on_commit_callbacks(execute=True):
        settle(api, tid, table["id"], "u75", "u76")
        answer(api_for(strangers["u76"]), tid, "decline")
    marker = RatedGame.objects.get(game_id=table["game"])
    assert marker.consent == "waiting"
    assert "u76 to be entered again and accept" in marker.skipped
    assert not RatingChange.objects.exists()
    body = api.get(f"/api/tournaments/{tid}/").json()
    assert [p["dropped"] for p in body["players"]] == [False, True]
    # Put back in, u76 is asked again; this time the yes rates the game played.
    back = api.post(f"/api/tournaments/{tid}/reenter/", {"player": "u76"}, format="json")
    assert back.json()["players"][1]["answer"] == "invited"
    with django_capture_on_commit_callbacks(execute=True):
        assert answer(api_for(strangers["u76"]), tid).status_code == 201
    assert RatingChange.objects.filter(game_id=table["game"]).count() == 2


def test_nobody_answers_for_another_entrant_and_bad_answers_change_nothing(api, api_for, strangers):
    tid = table_tournament(api, ["u75", "u76"])
    other = answer(api_for(strangers["u76"]), tid, player="u75")
    assert other.status_code == 403 and "answer your own" in other.json()["error"]
    assert answer(api, tid, player="u75").status_code == 403  # not even an organiser
    assert answer(api, tid).status_code == 409  # alice is not entered
    assert api_for(strangers["u75"]).post("/api/tournaments/999999/accept/").status_code == 404
    assert answer(api_for(strangers["u75"]), tid).status_code == 201
    twice = answer(api_for(strangers["u75"]), tid)
    assert twice.status_code == 409 and "already" in twice.json()["error"]
    dropping = answer(api_for(strangers["u75"]), tid, "decline")
    assert dropping.status_code == 409 and "drop out" in dropping.json()["error"]
    assert [p["answer"] for p in api.get(f"/api/tournaments/{tid}/").json()["players"]] == [
        "accepted",
        "invited",
    ]


def test_an_online_tournament_game_waits_for_the_entries_too(
    api_for, make_user, django_capture_on_commit_callbacks
):
    org = api_for(make_user("org"))
    ann, ben = make_user("ann"), make_user("ben")
    tid = org.post(
        "/api/tournaments/",
        {
            "name": "Blitz",
            "game": DSA,
            "format": "swiss",
            "table_size": 2,
            "rounds": 1,
            "mode": "online",
            "players": ["ann", "ben"],
        },
        format="json",
    ).json()["id"]
    table = org.post(f"/api/tournaments/{tid}/rounds/").json()["tables"][0]
    loser = {"ann": ann, "ben": ben}[table["seats"][1]]
    with django_capture_on_commit_callbacks(execute=True):
        api_for(loser).post(f"/api/games/{table['game']}/resign/", {"seat": 1}, format="json")
    assert Game.objects.get(pk=table["game"]).status == "finished"
    assert not RatingChange.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        answer(api_for(ann), tid)
        answer(api_for(ben), tid)
    assert RatingChange.objects.filter(game_id=table["game"]).count() == 2


def test_the_tournament_page_and_the_invitations_page_ask_the_entrant(
    api, client, strangers, django_capture_on_commit_callbacks
):
    tid = table_tournament(api, ["u75", "u76"])
    table = pair(api, tid)["tables"][0]
    with django_capture_on_commit_callbacks(execute=True):
        settle(api, tid, table["id"], "u75", "u76")
    client.force_login(strangers["u75"])
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert 'id="entry-invitation"' in page and f'action="/tournaments/{tid}/accept/"' in page
    assert "Not yet accepted their entry: u75, u76" in page
    listed = client.get("/invitations/").content.decode()
    assert 'id="entry-invitations"' in listed and f'action="/tournaments/{tid}/decline/"' in listed
    game_page = client.get(f"/games/{table['game']}/").content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/tournaments/{tid}/accept/")
    assert response.status_code == 302
    page = client.get(f"/tournaments/{tid}/").content.decode()
    assert 'id="entry-invitation"' not in page and "Not yet accepted their entry: u76" in page
    assert game_page  # the table's page reads


# -- the rating gate: held, not skipped forever; the sweep does not spin on it ---------------------


def held_table(api, strangers, on_commit) -> tuple[int, int]:
    """A table-mode tournament of u75 and u76, neither of whom has accepted, its one table
    settled by the organiser: (tournament, game)."""
    tid = table_tournament(api, ["u75", "u76"])
    table = pair(api, tid)["tables"][0]
    with on_commit(execute=True):
        settle(api, tid, table["id"], "u75", "u76")
    return tid, table["game"]


def test_the_sweep_leaves_a_held_game_alone_and_recompute_holds_it_too(
    api, strangers, django_capture_on_commit_callbacks
):
    from league import tasks as league_tasks
    from league.services import ratings

    _, game = held_table(api, strangers, django_capture_on_commit_callbacks)
    assert RatedGame.objects.get(game_id=game).consent == "waiting"
    assert ratings.slugs_with_unrated_games() == []
    with mock.patch.object(ratings, "ratings_recompute", wraps=ratings.ratings_recompute) as redo:
        assert league_tasks.sweep_unrated_games() == 0
        assert ratings_update(slug=DSA) == 0
    assert redo.call_count == 0  # no recompute for a game that still waits
    assert_equal_to_a_recompute(DSA)
    assert RatedGame.objects.get(game_id=game).consent == "waiting"
    assert not RatingChange.objects.exists()


@pytest.mark.after_commit_errors
def test_an_agreement_whose_task_was_lost_is_rated_by_the_sweep(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    from league import tasks as league_tasks
    from league.services import ratings

    tid, game = held_table(api, strangers, django_capture_on_commit_callbacks)
    with (
        mock.patch("league.tasks.rate_finished_games.delay", side_effect=OSError("broker")),
        django_capture_on_commit_callbacks(execute=True),
    ):
        answer(api_for(strangers["u75"]), tid)
        answer(api_for(strangers["u76"]), tid)
    assert RatedGame.objects.get(game_id=game).consent == "waiting"  # the task never ran
    assert ratings.slugs_with_unrated_games() == [DSA]
    assert league_tasks.sweep_unrated_games() == 1
    assert RatingChange.objects.filter(game_id=game).count() == 2
    assert ratings.slugs_with_unrated_games() == []
    assert_equal_to_a_recompute(DSA)


def test_the_rating_panel_says_why_a_game_is_not_rated_yet(
    api, strangers, django_capture_on_commit_callbacks
):
    from league.selectors import rating_changes_of

    _, game = held_table(api, strangers, django_capture_on_commit_callbacks)
    panel = rating_changes_of(Game.objects.get(pk=game))
    assert panel["held"] and panel["skipped"] == (
        "waiting for u75 to accept their entry and u76 to accept their entry"
    )


# -- table logs: a member seated accepts their seat before the log is rated ------------------------


def seat_answer(client, game_id, seat, what="accept"):
    return client.post(f"/api/games/{game_id}/{what}/", {"seat": seat}, format="json")


def finished_log(api, seats, on_commit, seed=75) -> dict:
    import random

    game = log_table(api, seats)
    with on_commit(execute=True):
        enter_to_the_end(api, game["id"], random.Random(seed))
    return api.get(f"/api/games/{game['id']}/").json()


def test_the_log_is_rated_once_both_seated_accept_after_the_game_and_equals_a_recompute(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    from games.records.verify import verify

    game = finished_log(api, [{"user": "u75"}, {"user": "u76"}], django_capture_on_commit_callbacks)
    assert [s["accepted"] for s in game["seats"]] == [False, False]
    assert RatedGame.objects.get(game_id=game["id"]).skipped == (
        "waiting for u75 to accept their seat and u76 to accept their seat"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert seat_answer(api_for(strangers["u75"]), game["id"], 0).status_code == 201
    assert RatedGame.objects.get(game_id=game["id"]).skipped == (
        "waiting for u76 to accept their seat"
    )
    with django_capture_on_commit_callbacks(execute=True):
        assert seat_answer(api_for(strangers["u76"]), game["id"], 1).status_code == 201
    assert {c.user.username for c in RatingChange.objects.filter(game_id=game["id"])} == {
        "u75",
        "u76",
    }
    assert_equal_to_a_recompute(DSA)
    # The log, its acceptances after the end included, still verifies offline.
    bundle = verify(api.get(f"/api/games/{game['id']}/export/").content)
    assert bundle.replayed
    kinds = list(Event.objects.filter(game_id=game["id"]).values_list("kind", flat=True))
    assert kinds[-3:] == ["GameFinished", "SeatAccepted", "SeatAccepted"]


def test_a_seat_declined_means_the_log_is_never_rated_and_says_so(
    api, api_for, client, strangers, django_capture_on_commit_callbacks
):
    game = log_table(api, [{"user": "u75"}, {"user": "u76"}])
    # u76 refuses while it is kept: the log goes on, as the table plays on.
    declined = seat_answer(api_for(strangers["u76"]), game["id"], 1, "decline")
    assert declined.status_code == 201 and declined.json()["events"][0]["kind"] == "SeatDeclined"
    assert api.get(f"/api/games/{game['id']}/").json()["status"] == "active"
    again = seat_answer(api_for(strangers["u76"]), game["id"], 1)
    assert again.status_code == 409 and "declined" in again.json()["error"]
    assert seat_answer(api_for(strangers["u76"]), game["id"], 1, "decline").status_code == 409
    import random

    with django_capture_on_commit_callbacks(execute=True):
        enter_to_the_end(api, game["id"], random.Random(76))
        seat_answer(api_for(strangers["u75"]), game["id"], 0)
    marker = RatedGame.objects.get(game_id=game["id"])
    assert marker.consent == "refused" and marker.skipped == "u76 declined their seat"
    assert not RatingChange.objects.exists()
    assert_equal_to_a_recompute(DSA)
    client.force_login(strangers["u75"])
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "u76 declined their seat: this table log is never rated." in page


def test_the_scorekeepers_seat_and_the_creators_are_agreed_the_others_are_asked(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    # alice sets it up and plays; u75 keeps it; u76 is asked.
    game = log_table(api, [{"user": "alice"}, {"user": "u75"}, {"user": "u76"}], scorekeeper="u75")
    assert [s["accepted"] for s in game["seats"]] == [True, True, False]
    created = Event.objects.get(game_id=game["id"], seq=1).data
    assert created["accepted"] == [0, 1]
    assert seat_answer(api_for(strangers["u75"]), game["id"], 1).status_code == 409
    assert seat_answer(api_for(strangers["u75"]), game["id"], 2).status_code == 403
    assert seat_answer(api_for(strangers["u76"]), game["id"], 7).status_code == 422  # not its seat
    # Agreeing does not show u76 what only the scorekeeper sees while the log is kept.
    assert seat_answer(api_for(strangers["u76"]), game["id"], 2).status_code == 201
    assert (
        api_for(strangers["u76"]).get(f"/api/games/{game['id']}/state/?seat=2").status_code == 403
    )


def test_the_pages_ask_a_member_seated_at_a_log(api, client, strangers):
    game = log_table(api, [{"user": "u75"}, {"user": "u76"}])
    client.force_login(strangers["u75"])
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "You are seated at this table log" in page
    assert "Rated once u75, u76 accept their seats." in page
    listed = client.get("/invitations/").content.decode()
    assert 'id="log-invitations"' in listed
    invited = api_for_user(strangers["u75"]).get("/api/games/invited/").json()["results"]
    assert [g["id"] for g in invited] == [game["id"]]
    response = client.post(f"/games/{game['id']}/accept/", {"seat": 0, "next": "/invitations/"})
    assert response.status_code == 302 and response["Location"] == "/invitations/"
    assert 'id="log-invitations"' not in client.get("/invitations/").content.decode()
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "You are seated at this table log" not in page and "Rated once u76 accepts" in page


def api_for_user(user):
    from rest_framework.test import APIClient

    from tests.tokens import key_for

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(user)}")
    return client


def test_a_league_tournaments_held_table_is_out_of_the_league_standings_until_agreed(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    league = my_own_league(api, "Harbour")
    for name in strangers:
        invite(api, league, name)
        api_for(strangers[name]).post(f"/api/leagues/{league}/accept/")
    # Members of the league, but entered in its tournament by alice without being asked.
    tid = table_tournament(api, ["u75", "u76"], league=league)
    table = pair(api, tid)["tables"][0]
    with django_capture_on_commit_callbacks(execute=True):
        settle(api, tid, table["id"], "u75", "u76")
    assert api.get(f"/api/leagues/{league}/standings/").json() == []
    assert len(api.get(f"/api/tournaments/{tid}/standings/").json()) == 2  # event day goes on
    with django_capture_on_commit_callbacks(execute=True):
        for name in strangers:
            answer(api_for(strangers[name]), tid)
    rows = api.get(f"/api/leagues/{league}/standings/").json()
    assert [(r["player"], r["games"], r["wins"]) for r in rows] == [("u75", 1, 1), ("u76", 1, 0)]


def test_the_schema_documents_every_answer(api):
    schema = api.get("/api/schema/?format=json").json()
    paths, schemas = schema["paths"], schema["components"]["schemas"]
    for path in (
        "/api/leagues/{slug}/accept/",
        "/api/leagues/{slug}/decline/",
        "/api/tournaments/{id}/accept/",
        "/api/tournaments/{id}/decline/",
    ):
        responses = paths[path]["post"]["responses"]
        assert {"403", "404", "409"} <= set(responses), path
    assert set(paths["/api/me/invitations/"]["get"]["responses"]["200"]["content"]) == {
        "application/json"
    }
    assert "invited" in schemas["LeagueOut"]["properties"]
    assert schemas["MembershipStatusEnum"]["enum"] == ["invited", "member"]
    assert schemas["AnswerEnum"]["enum"] == ["invited", "accepted", "declined"]
    assert "answer" in schemas["EntryOut"]["properties"]


def test_checking_in_yourself_accepts_the_entry(api_for, make_user):
    org = api_for(make_user("org"))
    ann = make_user("ann")
    make_user("ben")
    tid = table_tournament(org, ["ann", "ben"], check_in=True)
    org.post(f"/api/tournaments/{tid}/checkin/", {"player": "ben"}, format="json")
    api_for(ann).post(f"/api/tournaments/{tid}/checkin/", {}, format="json")
    players = {p["player"]: p for p in org.get(f"/api/tournaments/{tid}/").json()["players"]}
    assert (players["ann"]["checked_in"], players["ann"]["answer"]) == (True, "accepted")
    assert (players["ben"]["checked_in"], players["ben"]["answer"]) == (True, "invited")


def test_the_invitations_page_lists_the_records_waiting_for_you(api, client, strangers):
    game = record(api, "u75", "u76").json()
    client.force_login(strangers["u75"])
    listed = client.get("/invitations/").content.decode()
    assert (
        'id="records-to-confirm"' in listed and f'action="/matches/{game["id"]}/confirm/"' in listed
    )
    response = client.post(f"/matches/{game['id']}/confirm/", {"next": "/invitations/"})
    assert response["Location"] == "/invitations/"
    assert 'id="records-to-confirm"' not in client.get("/invitations/").content.decode()


def test_one_yes_releases_every_game_it_held_in_the_order_they_ended(
    api, api_for, strangers, django_capture_on_commit_callbacks
):
    answer(api_for(strangers["u75"]), tid := table_tournament(api, ["u75", "u76"], rounds=2))
    games = []
    for winner, loser in (("u75", "u76"), ("u76", "u75")):
        table = pair(api, tid)["tables"][0]
        with django_capture_on_commit_callbacks(execute=True):
            settle(api, tid, table["id"], winner, loser)
        games.append(table["game"])
    assert set(RatedGame.objects.values_list("consent", flat=True)) == {"waiting"}
    with django_capture_on_commit_callbacks(execute=True):
        answer(api_for(strangers["u76"]), tid)
    # u75 won the first at 1500 each (+16); u76, 1484 by then, won the second (+17).
    assert {
        (c.game_id, c.user.username, round(c.after - c.before)) for c in RatingChange.objects.all()
    } == {
        (games[0], "u75", 16),
        (games[0], "u76", -16),
        (games[1], "u75", -17),
        (games[1], "u76", 17),
    }
    assert_equal_to_a_recompute(DSA)
