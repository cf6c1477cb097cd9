"""Invitations, open seats, the lobby and rematches (games.play.lobby): who comes to sit at a game,
and the bad input around it (answers twice, late answers, seats taken) as clear 409s that
change nothing."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db.models import F

from games import store, tasks
from games.models import Event, Game
from games.play import lobby, reads, services
from games.signals import game_finished, invitation_sent

User = get_user_model()

pytestmark = pytest.mark.django_db
DSA = "deep-sea-adventure"


def create(api, seats, **more):
    response = api.post("/api/games/", {"game": DSA, "seats": seats, **more}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def log_of(game_id: int) -> list[tuple[int, str]]:
    return list(Event.objects.filter(game_id=game_id).values_list("seq", "kind"))


# -- invitations ----------------------------------------------------------------------------------


def test_an_invitation_is_announced_to_the_invited_person_only(
    api, bob, django_capture_on_commit_callbacks
):
    heard = []

    def listen(sender, game, seat, user_id, **kwargs):
        heard.append((game.id, seat, User.objects.get(pk=user_id).username))

    invitation_sent.connect(listen)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            game = create(api, [{"user": "alice"}, {"user": "bob"}, {"bot": "random"}])
    finally:
        invitation_sent.disconnect(listen)
    assert heard == [(game["id"], 1, "bob")]


def test_invitations_show_in_the_nav_and_on_their_page(
    api, client, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):  # the notice follows the commit
        game = create(api, [{"user": "alice"}, {"user": "bob"}])
    client.force_login(bob)
    page = client.get("/invitations/").content.decode()
    assert 'id="nav-invitations-count" aria-label="1 waiting">1<' in page
    assert "from alice" in page and "you would play 2nd" in page
    assert f'action="/games/{game["id"]}/accept/"' in page
    with django_capture_on_commit_callbacks(execute=True):
        client.post(f"/games/{game['id']}/accept/", {"seat": 1})
    page = client.get("/invitations/").content.decode()
    assert 'id="nav-invitations-count" aria-label="0 waiting" hidden>0<' in page
    assert "Nobody has invited you" in page


def test_the_api_lists_your_unanswered_invitations(api, api_for, bob):
    game = create(api, [{"user": "alice"}, {"user": "bob"}])
    create(api, [{"user": "alice"}, {"bot": "random"}])
    listed = api_for(bob).get("/api/games/invited/").json()["results"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert api.get("/api/games/invited/").json()["results"] == []  # alice created it
    api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    assert api_for(bob).get("/api/games/invited/").json()["results"] == []


def test_accepting_twice_is_a_409_that_changes_nothing(api, api_for, bob):
    game = create(api, [{"user": "alice"}, {"user": "bob"}])
    assert (
        api_for(bob)
        .post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
        .status_code
        == 201
    )
    before = log_of(game["id"])
    again = api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    assert again.status_code == 409 and "already taken" in again.json()["error"]
    assert log_of(game["id"]) == before


def test_declining_voids_the_game_and_a_later_accept_is_a_409(api, api_for, bob, make_user):
    carol = make_user("carol")
    game = create(api, [{"user": "alice"}, {"user": "bob"}, {"user": "carol"}])
    assert (
        api_for(bob)
        .post(f"/api/games/{game['id']}/decline/", {"seat": 1}, format="json")
        .status_code
        == 201
    )
    row = Game.objects.get(pk=game["id"])
    assert row.status == "void" and row.result is None
    assert [kind for _, kind in log_of(game["id"])][-2:] == ["SeatDeclined", "GameVoided"]
    before = log_of(game["id"])
    late = api_for(carol).post(f"/api/games/{game['id']}/accept/", {"seat": 2}, format="json")
    assert late.status_code == 409 and "called off" in late.json()["error"]
    assert log_of(game["id"]) == before


def age_invitations(game_id: int, hours: float) -> None:
    Game.objects.filter(pk=game_id).update(created_at=F("created_at") - timedelta(hours=hours))


def test_an_unanswered_invitation_lapses_the_game_is_voided_and_nothing_rated(
    api, api_for, bob, settings, django_capture_on_commit_callbacks
):
    settings.HADAL_INVITATION_HOURS = 24
    game = create(api, [{"user": "alice"}, {"user": "bob"}])
    answered = create(api, [{"user": "alice"}, {"user": "bob"}])
    api_for(bob).post(f"/api/games/{answered['id']}/accept/", {"seat": 1}, format="json")
    age_invitations(game["id"], 23)
    assert lobby.lapse_invitations() == 0  # not yet
    age_invitations(game["id"], 2)
    age_invitations(answered["id"], 25)
    finished = []

    def heard(sender, game_id, **kwargs):
        finished.append(game_id)

    game_finished.connect(heard)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            assert tasks.sweep_stalled_bots.apply().get() == 1
    finally:
        game_finished.disconnect(heard)
    row = Game.objects.get(pk=game["id"])
    assert row.status == "void" and row.result is None and row.current_player is None
    voided = Event.objects.get(game_id=game["id"], kind="GameVoided")
    assert voided.data == {"reason": "lapsed", "seats": [1]}
    assert game["id"] not in finished
    assert [kind for _, kind in log_of(game["id"])][0] == "GameCreated"  # nothing deleted
    assert Game.objects.get(pk=answered["id"]).status == "active"
    late = api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    assert late.status_code == 409 and "called off" in late.json()["error"]
    assert lobby.lapse_invitations() == 0  # once


# -- open seats and the lobby ---------------------------------------------------------------------


def test_an_open_game_waits_for_its_open_seat_then_starts(api, api_for, bob, client):
    game = create(
        api,
        [{"user": "alice"}, {"open": True}],
        time_control={"move_seconds": 60, "on_timeout": "random"},
    )
    assert game["seats"][1]["user"] is None and game["seats"][1]["accepted"] is False
    assert game["clock"]["deadline"] is None
    early = api.post(
        f"/api/games/{game['id']}/actions/",
        {"seat": 0, "expected_version": game["version"], "action": {"type": "continue"}},
        format="json",
    )
    assert early.status_code == 409 and "open seat" in early.json()["error"]
    client.force_login(bob)
    lobby_page = client.get("/lobby/").content.decode()
    assert f'action="/games/{game["id"]}/join/"' in lobby_page and "Join, playing 2nd" in lobby_page
    assert [g["id"] for g in api.get("/api/games/open/").json()["results"]] == [game["id"]]
    joined = api_for(bob).post(f"/api/games/{game['id']}/join/", {"seat": 1}, format="json")
    assert joined.status_code == 201
    assert joined.json()["events"][0]["kind"] == "SeatJoined"
    after = api.get(f"/api/games/{game['id']}/").json()
    assert after["seats"][1]["user"] == "bob" and after["seats"][1]["accepted"] is True
    assert after["clock"]["deadline"] is not None  # everyone is seated: the clock runs
    assert api.get("/api/games/open/").json()["results"] == []
    moved = api.post(
        f"/api/games/{game['id']}/actions/",
        {"seat": 0, "expected_version": after["version"], "action": {"type": "continue"}},
        format="json",
    )
    assert moved.status_code == 201


def test_a_bot_to_play_first_waits_for_the_open_seat(
    api, api_for, bob, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game = create(api, [{"bot": "random"}, {"user": "alice"}, {"open": True}])
    assert Game.objects.get(pk=game["id"]).version == game["version"]  # the bot waits
    with django_capture_on_commit_callbacks(execute=True):
        api_for(bob).post(f"/api/games/{game['id']}/join/", {"seat": 2}, format="json")
    moves = Event.objects.filter(game_id=game["id"], kind="ActionApplied", seat=0)
    assert moves.exists()  # once the seat was taken, the bot played


@pytest.mark.parametrize(
    "joiner, seat, status, words",
    [
        ("carol", 1, 409, "that seat is taken"),  # bob's
        ("carol", 0, 409, "that seat is taken"),  # the creator's
        ("bob", 2, 409, "you already sit at this game"),  # joining your own game twice
        ("alice", 2, 409, "you already sit at this game"),
        ("carol", 7, 422, "seat"),  # a seat this game does not have
    ],
)
def test_joining_badly_is_refused_and_changes_nothing(
    api, api_for, bob, make_user, joiner, seat, status, words
):
    users = {"bob": bob, "carol": make_user("carol")}
    game = create(api, [{"user": "alice"}, {"open": True}, {"open": True}])
    api_for(bob).post(f"/api/games/{game['id']}/join/", {"seat": 1}, format="json")
    before = log_of(game["id"])
    client = api if joiner == "alice" else api_for(users[joiner])
    answer = client.post(f"/api/games/{game['id']}/join/", {"seat": seat}, format="json")
    assert answer.status_code == status and words in answer.json()["error"]
    assert log_of(game["id"]) == before


def test_joining_a_game_called_off_is_a_409(api, api_for, bob, settings):
    settings.HADAL_INVITATION_HOURS = 1
    game = create(api, [{"user": "alice"}, {"open": True}])
    age_invitations(game["id"], 2)
    assert lobby.lapse_invitations() == 1  # an open seat nobody took lapses too
    answer = api_for(bob).post(f"/api/games/{game['id']}/join/", {"seat": 1}, format="json")
    assert answer.status_code == 409 and "called off" in answer.json()["error"]


def test_two_people_taking_the_last_seat_one_gets_a_409(api, api_for, bob, make_user, monkeypatch):
    """Both read the game while the seat was open; the store's version check lets one in."""
    carol = make_user("carol")
    game = create(api, [{"user": "alice"}, {"open": True}])
    seen_before = store.load_head(game["id"])
    assert (
        api_for(bob).post(f"/api/games/{game['id']}/join/", {"seat": 1}, format="json").status_code
        == 201
    )
    after_bob = log_of(game["id"])
    reads = []
    real = store.load_head

    def stale_first(game_id, *args):
        reads.append(game_id)
        return seen_before if len(reads) == 1 else real(game_id, *args)

    monkeypatch.setattr(store, "load_head", stale_first)
    answer = api_for(carol).post(f"/api/games/{game['id']}/join/", {"seat": 1}, format="json")
    assert answer.status_code == 409 and "that seat is taken" in answer.json()["error"]
    assert len(reads) == 2  # the stale write was refused, the second look saw bob
    assert log_of(game["id"]) == after_bob
    assert Game.objects.get(pk=game["id"]).seats.get(index=1).user == bob


def test_the_lobby_lists_live_games_to_watch_without_hidden_information(api, api_for, bob, client):
    live = create(api, [{"user": "alice"}, {"bot": "random"}])
    waiting = create(api, [{"user": "alice"}, {"user": "bob"}])
    page = client.get("/lobby/").content.decode()
    assert f'href="/games/{live["id"]}/"' in page
    assert f'href="/games/{waiting["id"]}/"' not in page  # bob has not sat down yet
    watched = client.get(f"/games/{live['id']}/").content.decode()
    assert "You are watching this game." in watched


# -- rematch ------------------------------------------------------------------------------------


def finished_game(api, api_for, bob, **more):
    game = create(api, [{"user": "alice"}, {"user": "bob"}], **more)
    api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    api.post(f"/api/games/{game['id']}/resign/", {"seat": 0}, format="json")
    assert Game.objects.get(pk=game["id"]).status == "finished"
    return game


def test_a_rematch_invites_the_same_seats_rotated_to_the_same_game(api, api_for, bob):
    clock = {"bank_seconds": 600, "increment_seconds": 5, "on_timeout": "forfeit"}
    old = finished_game(api, api_for, bob, time_control=clock)
    answer = api_for(bob).post(f"/api/games/{old['id']}/rematch/")
    assert answer.status_code == 201
    new = answer.json()
    assert new["game"] == DSA and new["options"] == old["options"]
    assert {k: new["time_control"][k] for k in clock} == clock
    assert [(s["user"], s["accepted"]) for s in new["seats"]] == [("bob", True), ("alice", False)]
    created = Event.objects.get(game_id=new["id"], kind="GameCreated")
    assert created.data["rematch_of"] == old["id"]
    before = log_of(old["id"])
    again = api.post(f"/api/games/{old['id']}/rematch/")
    assert again.status_code == 409 and "already been offered" in again.json()["error"]
    assert log_of(old["id"]) == before and Game.objects.count() == 2


def test_a_rematch_before_the_end_or_by_a_stranger_is_refused(api, api_for, bob, make_user):
    game = create(api, [{"user": "alice"}, {"bot": "random"}])
    early = api.post(f"/api/games/{game['id']}/rematch/")
    assert early.status_code == 409 and "once the game is over" in early.json()["error"]
    stranger = api_for(make_user("carol")).post(f"/api/games/{game['id']}/rematch/")
    assert stranger.status_code == 403
    assert Game.objects.count() == 1


def test_a_game_page_posts_a_rematch_and_lands_on_it(api, api_for, bob, client):
    old = finished_game(api, api_for, bob)
    client.force_login(bob)
    response = client.post(f"/games/{old['id']}/rematch/")
    new = Game.objects.exclude(pk=old["id"]).get()
    assert response.status_code == 302 and response.url == f"/games/{new.pk}/"
    assert reads.seats_of(new, bob) == {0}


def test_the_game_page_offers_its_open_seat_to_a_visitor_not_to_its_players(api, client, bob):
    game = create(api, [{"user": "alice"}, {"open": True}, {"open": True}])
    client.force_login(bob)
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "Join, playing 2nd" in page and "Join, playing 3rd" in page
    client.post(f"/games/{game['id']}/join/", {"seat": 2})
    page = client.get(f"/games/{game['id']}/").content.decode()
    assert "Join, playing" not in page  # bob sits at it now
    assert Game.objects.get(pk=game["id"]).seats.get(index=2).user == bob


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_people_racing_for_the_last_seat_one_gets_in(make_user):
    """Two threads, two connections, one open seat: one joins, the other is told it is taken."""
    import threading

    from core.errors import Conflict

    alice, bob, carol = make_user("alice"), make_user("bob"), make_user("carol")
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"open": True}], options={}, created_by=alice
    )
    start = threading.Barrier(2)
    outcomes: dict[str, str] = {}

    def join(user):
        from django.db import connection

        try:
            start.wait()
            lobby.game_join(game=game.pk, seat=1, user=user)
            outcomes[user.username] = "joined"
        except Conflict as exc:
            outcomes[user.username] = str(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=join, args=(u,)) for u in (bob, carol)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes.values()) == ["joined", "that seat is taken"]
    winner = next(name for name, outcome in outcomes.items() if outcome == "joined")
    assert Game.objects.get(pk=game.pk).seats.get(index=1).user.username == winner
    assert Event.objects.filter(game=game, kind="SeatJoined").count() == 1


def test_the_creator_calls_off_a_game_and_a_later_accept_is_a_409(api, api_for, bob, client):
    game = create(api, [{"user": "alice"}, {"user": "bob"}])
    assert api_for(bob).post(f"/api/games/{game['id']}/cancel/").status_code == 403
    answer = api.post(f"/api/games/{game['id']}/cancel/")
    assert answer.status_code == 201
    assert Game.objects.get(pk=game["id"]).status == "void"
    assert Event.objects.get(game_id=game["id"], kind="GameVoided").data == {"reason": "cancelled"}
    before = log_of(game["id"])
    late = api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    assert late.status_code == 409 and "called off" in late.json()["error"]
    again = api.post(f"/api/games/{game['id']}/cancel/")
    assert again.status_code == 409
    assert log_of(game["id"]) == before
    client.force_login(bob)
    assert "Called off" in client.get(f"/games/{game['id']}/").content.decode()


def test_a_game_everyone_sat_down_to_cannot_be_called_off(api, api_for, bob):
    game = create(api, [{"user": "alice"}, {"user": "bob"}])
    api_for(bob).post(f"/api/games/{game['id']}/accept/", {"seat": 1}, format="json")
    answer = api.post(f"/api/games/{game['id']}/cancel/")
    assert answer.status_code == 409 and "resign" in answer.json()["error"]
    assert Game.objects.get(pk=game["id"]).status == "active"
