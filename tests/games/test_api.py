"""HTTP API v1, as DESIGN.md's table states it, including every error path."""

from __future__ import annotations

import random

import pytest
from rest_framework.test import APIClient

from games.models import Event, Game

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"


@pytest.fixture
def game_id(api, bob):
    response = api.post(
        "/api/games/", {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}]}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def events_count(game_id: int) -> int:
    return Event.objects.filter(game_id=game_id).count()


def post_action(client, game_id, seat, action, version=None, **extra):
    if version is None:
        version = client.get(f"/api/games/{game_id}/").json()["version"]
    return client.post(
        f"/api/games/{game_id}/actions/",
        {"seat": seat, "expected_version": version, "action": action, **extra},
        format="json",
    )


# -- auth -----------------------------------------------------------------------------------------


def test_token_auth_round_trip(alice):
    client = APIClient()
    assert client.get("/api/games/").status_code == 401
    bad = client.post("/api/auth/token/", {"username": "alice", "password": "wrong"}, format="json")
    assert bad.status_code == 400 and "error" in bad.json()
    token = client.post(
        "/api/auth/token/", {"username": "alice", "password": "pw-for-tests-only"}, format="json"
    )
    assert token.status_code == 200
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    assert client.get("/api/games/").status_code == 200


def test_anonymous_spectators_may_watch_but_not_act(game_id):
    anonymous = APIClient()
    assert anonymous.get(f"/api/games/{game_id}/").status_code == 200
    assert anonymous.get(f"/api/games/{game_id}/state/").json()["divers"][0]["scored"] == []
    assert anonymous.get(f"/api/games/{game_id}/events/").status_code == 200
    assert anonymous.get(f"/api/games/{game_id}/state/?seat=0").status_code == 403
    for path, body in (
        ("actions/", {"seat": 0, "expected_version": 1, "action": {"type": "continue"}}),
        ("resign/", {"seat": 0}),
    ):
        response = anonymous.post(f"/api/games/{game_id}/{path}", body, format="json")
        assert response.status_code == 401 and "error" in response.json()
    assert anonymous.get(f"/api/games/{game_id}/actions/?seat=0").status_code == 401
    assert events_count(game_id) == 1


# -- types and creation ---------------------------------------------------------------------------


def test_game_types_lists_deep_sea_adventure_with_its_spec():
    response = APIClient().get("/api/games/types/")
    assert response.status_code == 200
    spec = {t["slug"]: t for t in response.json()}[DSA]
    assert (spec["min_players"], spec["max_players"]) == (2, 6)
    # Scored chips lie face up and unrevealed ones are unknown to all: nothing is hidden.
    assert spec["hidden_information"] is False
    assert {t["slug"]: t for t in response.json()}["abyss"]["hidden_information"] is True


def test_create_returns_the_game_in_the_contract_shape(api, game_id):
    body = api.get(f"/api/games/{game_id}/").json()
    assert {"id", "game", "status", "version", "seats", "current_player", "result"} <= set(body)
    assert body["game"] == DSA and body["status"] == "active" and body["result"] is None
    assert [s["user"] for s in body["seats"]] == ["alice", "bob"]
    assert body["current_player"] == 0 and body["version"] == 1


@pytest.mark.parametrize(
    "payload, message",
    [
        ({"game": "chess", "seats": [{"user": "alice"}, {"user": "bob"}]}, "unknown game"),
        ({"game": DSA, "seats": [{"user": "alice"}]}, "2 to 6 players"),
        ({"game": DSA, "seats": [{"user": "alice"}] * 7}, "2 to 6 players"),
        ({"game": DSA, "seats": [{"user": "alice"}, {"user": "nobody"}]}, "no user 'nobody'"),
        ({"game": DSA, "seats": [{"user": "alice"}, {"bot": "grandmaster"}]}, "unknown bot level"),
        ({"game": DSA, "seats": [{"user": "alice"}, {"user": "bot-grandmaster"}]}, "no user"),
        ({"game": DSA, "seats": [{"user": "alice"}, {"bot": "random", "user": "bob"}]}, "seat 1"),
        (
            {"game": DSA, "seats": [{"user": "alice"}, {"bot": "random"}], "options": {"x": 1}},
            "unknown option",
        ),
        ({"game": DSA, "seats": "alice"}, "seats"),
        ({"seats": [{"user": "alice"}]}, "game"),
    ],
)
def test_bad_creation_is_a_400_with_a_reason_and_creates_nothing(api, bob, payload, message):
    response = api.post("/api/games/", payload, format="json")
    # 404 for a name that names nothing, as for an address; 422 for what the game's rules refuse
    status = {"no user": 404, "2 to 6 players": 422, "unknown option": 422}.get(
        message.split(" '")[0], 400
    )
    assert response.status_code == status, response.json()
    assert message in response.json()["error"]
    assert Game.objects.count() == 0


def test_malformed_json_is_a_400(api):
    response = api.post("/api/games/", "{not json", content_type="application/json")
    assert response.status_code == 400 and "error" in response.json()


def test_unknown_game_is_a_404(api):
    for path in ("", "state/", "actions/?seat=0", "events/"):
        response = api.get(f"/api/games/999999/{path}")
        assert response.status_code == 404 and response.json() == {"error": "not found"}


# -- views and actions ----------------------------------------------------------------------------


def test_state_is_only_for_the_seat_holder_and_spectators_get_the_public_view(
    api, api_for, bob, game_id
):
    own = api.get(f"/api/games/{game_id}/state/?seat=0")
    assert own.status_code == 200 and own.json()["divers"][0]["scored"] == []
    assert own.json()["version"] == 1
    other = api.get(f"/api/games/{game_id}/state/?seat=1")
    assert other.status_code == 403 and "seat 1" in other.json()["error"]
    spectator = api.get(f"/api/games/{game_id}/state/").json()
    assert spectator["divers"][0]["scored"] == []
    assert api.get(f"/api/games/{game_id}/state/?seat=9").status_code == 422  # not its seat
    assert api.get(f"/api/games/{game_id}/state/?seat=12").status_code == 400  # no game's
    assert api.get(f"/api/games/{game_id}/state/?seat=x").status_code == 400


def test_legal_actions_for_the_seat_to_act_and_empty_otherwise(api, api_for, bob, game_id):
    assert api.get(f"/api/games/{game_id}/actions/?seat=0").json() == [{"type": "continue"}]
    assert api_for(bob).get(f"/api/games/{game_id}/actions/?seat=1").json() == []
    assert api.get(f"/api/games/{game_id}/actions/?seat=1").status_code == 403
    assert api.get(f"/api/games/{game_id}/actions/").status_code == 400


def test_posting_an_action_appends_it_and_the_server_rolls_the_dice(api, game_id):
    response = post_action(api, game_id, 0, {"type": "continue"}, version=1)
    assert response.status_code == 201, response.json()
    body = response.json()
    kinds = [e["kind"] for e in body["events"]]
    assert kinds[:2] == ["ActionApplied", "ChanceResolved"]
    assert body["events"][1]["data"]["action"]["type"] == "roll"
    assert body["version"] == 1 + len(kinds)
    game = api.get(f"/api/games/{game_id}/").json()
    assert game["version"] == body["version"] and game["current_player"] in (0, 1)
    state = api.get(f"/api/games/{game_id}/state/?seat=0").json()
    assert state["divers"][0]["position"] > 0


def test_a_stale_version_is_a_409_carrying_the_current_version(api, game_id):
    assert post_action(api, game_id, 0, {"type": "continue"}, version=1).status_code == 201
    before = events_count(game_id)
    stale = post_action(api, game_id, 0, {"type": "continue"}, version=1)
    assert stale.status_code == 409
    assert stale.json()["version"] == before
    assert events_count(game_id) == before


@pytest.mark.parametrize(
    "action, reason",
    [
        ({"type": "turn_back"}, "submarine"),
        ({"type": "take"}, ""),
        ({"type": "fly"}, "not legal"),
    ],
)
def test_an_illegal_action_is_a_422_with_the_rules_reason(api, game_id, action, reason):
    response = post_action(api, game_id, 0, action, version=1)
    assert response.status_code == 422
    assert reason in response.json()["error"]
    assert events_count(game_id) == 1


def test_acting_out_of_turn_is_a_422(api_for, bob, game_id):
    response = post_action(api_for(bob), game_id, 1, {"type": "continue"}, version=1)
    assert response.status_code == 422 and "not seat 1's turn" in response.json()["error"]
    assert events_count(game_id) == 1


def test_acting_for_someone_elses_seat_is_a_403(api, api_for, make_user, game_id):
    carol = api_for(make_user("carol"))
    response = post_action(carol, game_id, 0, {"type": "continue"}, version=1)
    assert response.status_code == 403
    assert events_count(game_id) == 1


@pytest.mark.parametrize(
    "payload",
    [
        {"seat": 0, "action": {"type": "continue"}},
        {"seat": 0, "expected_version": "one", "action": {"type": "continue"}},
        {"seat": 0, "expected_version": 1, "action": "continue"},
        {"expected_version": 1, "action": {"type": "continue"}},
        {"seat": 0, "expected_version": 1, "action": {"type": "continue"}, "idempotency_key": ""},
    ],
)
def test_a_malformed_action_body_is_a_400(api, game_id, payload):
    response = api.post(f"/api/games/{game_id}/actions/", payload, format="json")
    assert response.status_code == 400 and "error" in response.json()
    assert events_count(game_id) == 1


def test_a_number_of_the_wrong_json_type_is_not_a_legal_action(api, game_id):
    response = post_action(api, game_id, 0, {"type": "continue", "extra": True}, version=1)
    assert response.status_code == 422


def test_an_idempotency_key_makes_a_retry_safe(api, game_id):
    first = post_action(api, game_id, 0, {"type": "continue"}, version=1, idempotency_key="abc")
    retry = post_action(api, game_id, 0, {"type": "continue"}, version=1, idempotency_key="abc")
    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry.headers["Idempotent-Replayed"] == "true"
    assert events_count(game_id) == first.json()["version"]


# -- a whole game, and what each seat may see -----------------------------------------------------


def play_to_the_end(clients: dict[int, APIClient], game_id: int, limit: int = 3000) -> dict:
    for _ in range(limit):
        game = clients[0].get(f"/api/games/{game_id}/").json()
        if game["status"] == "finished":
            return game
        seat = game["current_player"]
        actions = clients[seat].get(f"/api/games/{game_id}/actions/?seat={seat}").json()
        # Prefer turning back with loot, so chips get revealed and scored.
        choice = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        response = post_action(clients[seat], game_id, seat, choice, version=game["version"])
        assert response.status_code == 201, response.json()
    raise AssertionError("the game did not finish")


def test_a_whole_game_through_the_api_with_every_revealed_value_in_the_log(
    api, api_for, bob, game_id
):
    game = play_to_the_end({0: api, 1: api_for(bob)}, game_id)
    assert game["status"] == "finished" and game["current_player"] is None
    assert [r["player"] for r in game["result"]] == ["alice", "bob"]
    ranks = sorted(r["rank"] for r in game["result"])
    assert ranks[0] == 1

    reveals = Event.objects.filter(
        game_id=game_id, kind="ChanceResolved", data__action__type="reveal"
    )
    assert reveals.exists(), "the scripted play should bring chips home"
    # After the end, the whole log is public.
    log = api.get(f"/api/games/{game_id}/events/").json()
    assert all(
        "value" in e["data"]["action"]
        for e in log
        if e["kind"] == "ChanceResolved" and e["data"]["action"]["type"] == "reveal"
    )


def test_reveals_are_public_to_every_seat_and_spectator_while_the_game_runs(
    api, api_for, bob, game_id
):
    clients = {0: api, 1: api_for(bob)}
    for _ in range(3000):
        game = api.get(f"/api/games/{game_id}/").json()
        done = Event.objects.filter(game_id=game_id, data__action__type="reveal").exists()
        if done or game["status"] != "active":
            break
        seat = game["current_player"]
        actions = clients[seat].get(f"/api/games/{game_id}/actions/?seat={seat}").json()
        choice = next((a for a in actions if a["type"] in ("turn_back", "take")), actions[0])
        post_action(clients[seat], game_id, seat, choice, version=game["version"])
    assert api.get(f"/api/games/{game_id}/").json()["status"] == "active"
    reveal = Event.objects.filter(game_id=game_id, data__action__type="reveal").first()
    assert reveal is not None
    value = reveal.data["action"]["value"]
    spectator = APIClient()
    for client in (*clients.values(), spectator):
        logged = {e["seq"]: e for e in client.get(f"/api/games/{game_id}/events/").json()}
        assert logged[reveal.seq]["data"]["action"]["value"] == value
        owner = reveal.data["action"]["seat"]
        scored = client.get(f"/api/games/{game_id}/state/").json()["divers"][owner]["scored"]
        assert value in scored


def test_the_events_endpoint_redacts_what_a_seat_may_not_see_while_the_game_runs(
    api_for, alice, bob
):
    # Abyss: a Monster token drawn (or stolen) is seen by its owner only until the game ends.
    clients = {0: api_for(alice), 1: api_for(bob)}
    created = clients[0].post(
        "/api/games/",
        {"game": "abyss", "seats": [{"user": "alice"}, {"user": "bob"}]},
        format="json",
    )
    game_id = created.json()["id"]
    rng = random.Random(3)

    def private_event():
        for event in Event.objects.filter(game_id=game_id, kind="ChanceResolved"):
            if event.data.get("private_to"):
                return event
        return None

    for _ in range(4000):
        game = clients[0].get(f"/api/games/{game_id}/").json()
        if private_event() is not None or game["status"] != "active":
            break
        seat = game["current_player"]
        actions = clients[seat].get(f"/api/games/{game_id}/actions/?seat={seat}").json()
        fights = [a for a in actions if a["type"] in ("fight", "explore")]
        choice = rng.choice(fights) if fights and rng.random() < 0.8 else rng.choice(actions)
        post_action(clients[seat], game_id, seat, choice, version=game["version"])
    event = private_event()
    assert event is not None, "random play should draw a Monster token"
    assert clients[0].get(f"/api/games/{game_id}/").json()["status"] == "active"
    (owner,) = event.data["private_to"]
    full = event.data["action"]
    seen = {e["seq"]: e for e in clients[owner].get(f"/api/games/{game_id}/events/").json()}
    assert seen[event.seq]["data"]["action"] == full
    for client in (clients[1 - owner], APIClient()):
        logged = {e["seq"]: e for e in client.get(f"/api/games/{game_id}/events/").json()}
        redacted = logged[event.seq]["data"]
        assert redacted["action"] == event.data["public"] != full
        assert "private_to" not in redacted and "public" not in redacted


def test_state_at_an_earlier_version_replays_to_that_point(api, game_id):
    post_action(api, game_id, 0, {"type": "continue"}, version=1)
    at_one = api.get(f"/api/games/{game_id}/state/?seat=0&at=1").json()
    assert at_one["version"] == 1 and at_one["divers"][0]["position"] == 0
    head = api.get(f"/api/games/{game_id}/state/?seat=0").json()
    assert head["divers"][0]["position"] > 0
    assert api.get(f"/api/games/{game_id}/state/?at=0").status_code == 400
    assert api.get(f"/api/games/{game_id}/state/?at=999").status_code == 422  # not reached


# -- resigning and bots ---------------------------------------------------------------------------


def test_resigning_a_two_player_game_forfeits_it(api, game_id):
    response = api.post(f"/api/games/{game_id}/resign/", {"seat": 0}, format="json")
    assert response.status_code == 201
    assert [e["kind"] for e in response.json()["events"]] == ["SeatResigned", "GameFinished"]
    game = api.get(f"/api/games/{game_id}/").json()
    assert game["status"] == "finished"
    assert [(r["player"], r["rank"]) for r in game["result"]] == [("alice", 2), ("bob", 1)]
    again = api.post(f"/api/games/{game_id}/resign/", {"seat": 0}, format="json")
    assert again.status_code == 422
    assert post_action(api, game_id, 0, {"type": "continue"}).status_code == 422


def test_resigning_someone_elses_seat_is_a_403(api, game_id):
    assert api.post(f"/api/games/{game_id}/resign/", {"seat": 1}, format="json").status_code == 403
    assert events_count(game_id) == 1


def test_a_resigned_seat_is_played_by_the_random_bot_and_ranked_last(
    api, api_for, bob, make_user, django_capture_on_commit_callbacks
):
    make_user("carol")
    game_id = api.post(
        "/api/games/",
        {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}, {"user": "carol"}]},
        format="json",
    ).json()["id"]
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"/api/games/{game_id}/resign/", {"seat": 0}, format="json")
    game = api.get(f"/api/games/{game_id}/").json()
    assert game["status"] == "active" and game["current_player"] != 0
    assert Event.objects.filter(game_id=game_id, seat=0, kind="ActionApplied").exists()
    clients = {1: api_for(bob), 2: api_for(bob.__class__.objects.get(username="carol"))}
    for _ in range(3000):
        game = api.get(f"/api/games/{game_id}/").json()
        if game["status"] == "finished":
            break
        seat = game["current_player"]
        actions = clients[seat].get(f"/api/games/{game_id}/actions/?seat={seat}").json()
        with django_capture_on_commit_callbacks(execute=True):
            post_action(clients[seat], game_id, seat, actions[0], version=game["version"])
    assert game["status"] == "finished"
    assert game["result"][0]["rank"] == 3


def test_a_game_against_the_random_bot_plays_through_with_nobody_polling(
    api, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        game_id = api.post(
            "/api/games/",
            {"game": DSA, "seats": [{"bot": "random"}, {"user": "alice"}]},
            format="json",
        ).json()["id"]
    game = api.get(f"/api/games/{game_id}/").json()
    assert game["current_player"] == 1, "the bot moved first, on commit"
    assert game["seats"][0] == {
        "seat": 0,
        "user": None,
        "bot": "random",
        "guest": None,
        "resigned": False,
        "accepted": True,
        "name": "Random bot",
        "is_bot": True,
    }
    assert game["seats"][1]["name"] == "alice" and game["seats"][1]["is_bot"] is False
    for _ in range(3000):
        game = api.get(f"/api/games/{game_id}/").json()
        if game["status"] == "finished":
            break
        assert game["current_player"] == 1
        actions = api.get(f"/api/games/{game_id}/actions/?seat=1").json()
        with django_capture_on_commit_callbacks(execute=True):
            post_action(api, game_id, 1, actions[-1], version=game["version"])
    assert game["status"] == "finished"
    assert game["result"][0]["player"] == "bot-random"


def test_the_openapi_schema_and_swagger_ui_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200 and b"/api/games/{id}/actions/" in schema.content
    docs = client.get("/api/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    # Served from our own static files, so the page works offline: no CDN.
    assert "/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn" not in page.lower() and "unpkg" not in page.lower()
