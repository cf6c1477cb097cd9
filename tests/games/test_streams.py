"""The event streams against real servers: uvicorn (ASGI, production) in a thread on the test
database; Django's live server (WSGI, as `make run` serves); and, with Redis and PostgreSQL,
two uvicorn processes, a move made through one reaching a stream held open by the other."""

from __future__ import annotations

import contextlib
import json
import os
import random
import time

import pytest
from django.db import connection

from games.live import streams
from games.models import Event, GameStatus
from games.play import reads, seating, services
from games.selectors import game_with_seats
from tests.games.sse import Stream, call, uvicorn_process, uvicorn_thread
from tests.tokens import key_for

pytestmark = pytest.mark.django_db(transaction=True)

DSA = "deep-sea-adventure"


@pytest.fixture(autouse=True)
def quick_keepalive(settings):
    settings.HADAL_STREAM_KEEPALIVE = 0.5


@pytest.fixture
def server():
    with uvicorn_thread() as address:
        yield address


def token(user) -> dict[str, str]:
    return {"Authorization": f"Token {key_for(user)}"}


def session(client, user) -> dict[str, str]:
    client.force_login(user)
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}"}


def new_game(alice, slug: str = DSA):
    return services.game_create(
        slug=slug, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )


def move(address: str, game_id: int, headers: dict[str, str]) -> dict:
    """The player to act makes their first legal move through the API."""
    status, game = call(address, "GET", f"/api/games/{game_id}/", headers)
    seat = game["current_player"]
    _, actions = call(address, "GET", f"/api/games/{game_id}/actions/?seat={seat}", headers)
    body = {"seat": seat, "expected_version": game["version"], "action": actions[0]}
    status, appended = call(address, "POST", f"/api/games/{game_id}/actions/", headers, body)
    assert status == 201, appended
    return appended


def reach(stream: Stream, version: int) -> list[dict]:
    return stream.messages_until(lambda m: int(m["id"]) == version)


# -- one server, two clients ---------------------------------------------------------------------


def test_a_move_by_one_player_reaches_the_other_players_stream(server, client, alice, bob):
    game = new_game(alice)
    # bob listens signed in to the site (session), alice plays with a token.
    watching = Stream(
        server, f"/api/games/{game.pk}/stream/?after={game.version}", session(client, bob)
    )
    assert watching.status == 200
    assert watching.response.getheader("Content-Type").startswith("text/event-stream")
    appended = move(server, game.pk, token(alice))
    [*_, last] = messages = reach(watching, appended["version"])
    assert [m["data"]["event"] for m in messages] == appended["events"]
    assert [int(m["id"]) for m in messages] == [e["seq"] for e in appended["events"]]
    assert last["data"]["head"] == appended["version"]
    game.refresh_from_db()
    assert last["data"]["current_player"] == game.current_player
    assert last["data"]["your_turn"] == (game.current_player == 1)
    watching.close()


def test_a_players_own_stream_by_token_carries_their_move_and_their_turn(server, alice, bob):
    game = new_game(alice)
    mine = Stream(server, f"/api/games/{game.pk}/stream/", token(alice))
    created = reach(mine, game.version)
    assert created[0]["data"]["event"]["kind"] == "GameCreated"
    assert created[-1]["data"]["your_turn"] is True  # seat 0 opens
    appended = move(server, game.pk, token(alice))
    assert reach(mine, appended["version"])[-1]["data"]["head"] == appended["version"]
    mine.close()


def test_a_stream_resumes_after_its_last_event_id(server, alice, bob):
    game = new_game(alice)
    first = move(server, game.pk, token(alice))
    first_seq = first["events"][0]["seq"]
    resumed = Stream(
        server, f"/api/games/{game.pk}/stream/", {**token(bob), "Last-Event-ID": str(first_seq)}
    )
    messages = reach(resumed, first["version"])
    assert [int(m["id"]) for m in messages] == list(range(first_seq + 1, first["version"] + 1))
    resumed.close()


@pytest.mark.parametrize("last_id", ["999999", "banana", "-3", ""])
def test_a_stale_or_garbage_last_event_id_resumes_from_what_exists(server, alice, bob, last_id):
    game = new_game(alice)
    stream = Stream(
        server,
        f"/api/games/{game.pk}/stream/?after={game.version}",
        {**token(bob), "Last-Event-ID": last_id},
    )
    assert stream.status == 200
    appended = move(server, game.pk, token(alice))
    messages = reach(stream, appended["version"])
    # Too large: resumes at the head; not a number: where the client asked (?after).
    assert int(messages[0]["id"]) == game.version + 1
    stream.close()


def frames(chunk: str) -> list[dict]:
    return [json.loads(line[6:]) for line in chunk.splitlines() if line.startswith("data: ")]


def test_a_move_committed_between_reading_the_game_and_its_log_is_not_sent_stale(
    monkeypatch, alice, bob
):
    # A stream reads the game's row, then its log. A move committed between the two reads was
    # sent with the older row's head, so no message ever had its version equal to its head
    # (the page waits for one to read the game again), and the move's own message from the hub
    # was then dropped as sent: the page sat on the old position (seen in the browser tests
    # on a loaded machine). What a stream sends stops at the row it read; the move follows.
    game = new_game(alice)
    row = game_with_seats(game.pk)
    feed = streams.GameFeed(game=row, user=alice, after=row.version)
    services.game_resign(game=game.pk, seat=1, user=bob)  # committed after the row was read
    monkeypatch.setattr(streams, "game_with_seats", lambda game_id: row)
    assert frames(feed.catch_up()) == []
    assert (feed.last, feed.done) == (row.version, False)
    monkeypatch.undo()  # the hub's message, or the next read, brings the move with its head
    sent = frames(feed.catch_up())
    game.refresh_from_db()
    assert [f["version"] for f in sent] == list(range(row.version + 1, game.version + 1))
    assert all(f["head"] == game.version for f in sent)
    assert sent[-1]["status"] == "finished" and feed.done


def test_a_finished_game_streams_its_log_then_ends_and_a_retry_gets_204(server, alice, bob):
    game = new_game(alice)
    services.game_resign(game=game.pk, seat=1, user=bob)
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED
    stream = Stream(server, f"/api/games/{game.pk}/stream/", token(alice))
    messages = reach(stream, game.version)
    assert messages[-1]["data"]["status"] == "finished"
    with pytest.raises(EOFError):
        stream.next_message()
    again = Stream(
        server,
        f"/api/games/{game.pk}/stream/",
        {**token(alice), "Last-Event-ID": str(game.version)},
    )
    assert again.status == 204  # EventSource stops reconnecting


def test_quiet_streams_get_keep_alive_comments(server, alice, bob):
    game = new_game(alice)
    stream = Stream(server, f"/api/games/{game.pk}/stream/?after={game.version}", token(bob))
    appended = move(server, game.pk, token(alice))
    reach(stream, appended["version"])
    stream.connection.sock.settimeout(3)  # the keep-alive comes every 0.5 s here
    assert stream.response.readline() == b": keep-alive\n"
    stream.close()


# -- bad input ------------------------------------------------------------------------------------


def test_streams_refuse_what_the_json_api_refuses(server, alice, bob):
    game = new_game(alice)
    assert Stream(server, "/api/games/987654/stream/", token(alice)).status == 404
    bad_token = {"Authorization": "Token not-a-token"}
    assert Stream(server, f"/api/games/{game.pk}/stream/", bad_token).status == 401
    for after, status in (("x", 400), ("-1", 400), (str(game.version + 1), 422)):
        refused = Stream(server, f"/api/games/{game.pk}/stream/?after={after}", token(alice))
        assert refused.status == status
        assert "after" in refused.response.read().decode()
    assert Stream(server, "/api/me/stream/", {}).status in (401, 403)
    # Spectators may watch a game, as they may read its events.
    assert Stream(server, f"/api/games/{game.pk}/stream/", {}).status == 200


# -- hidden information ---------------------------------------------------------------------------


def test_an_abyss_stream_for_one_seat_never_carries_the_other_seats_tokens(server, alice, bob):
    """A Monster token drawn is its owner's until the game ends: alice's stream (seat 0) gets
    bob's draws in their public form, exactly as alice's /events/ gives them."""
    game = new_game(alice, "abyss")
    stream = Stream(server, f"/api/games/{game.pk}/stream/", token(alice))
    users = {0: alice, 1: bob}
    rng = random.Random(5)

    def bobs_private():
        return [
            e
            for e in Event.objects.filter(game_id=game.pk, kind="ChanceResolved")
            if e.data.get("private_to") == [1]
        ]

    for _ in range(3000):
        game.refresh_from_db()
        if len(bobs_private()) >= 2 or game.status != GameStatus.ACTIVE:
            break
        seat = game.current_player
        actions = reads.game_legal_actions(game=game, user=users[seat], seat=seat)
        fights = [a for a in actions if a["type"] in ("fight", "explore")]
        choice = rng.choice(fights) if fights and rng.random() < 0.8 else rng.choice(actions)
        services.game_action_append(
            game=game.pk, seat=seat, expected_version=game.version, action=choice, user=users[seat]
        )
    game.refresh_from_db()
    hidden = bobs_private()
    assert hidden and game.status == GameStatus.ACTIVE, "random play should draw Monster tokens"
    streamed = [m["data"]["event"] for m in reach(stream, game.version)]
    _, as_alice_reads = call(server, "GET", f"/api/games/{game.pk}/events/", token(alice))
    assert streamed == as_alice_reads
    by_seq = {e["seq"]: e for e in streamed}
    for event in hidden:
        assert by_seq[event.seq]["data"] == {"action": event.data["public"]}
        assert event.data["action"] != event.data["public"]
    stream.close()


# -- a person's stream ----------------------------------------------------------------------------


def notices(stream, until) -> list[dict]:
    """The notices (messages with an id) up to the first for which ``until`` holds; the
    counts that follow each are left aside."""
    seen = stream.messages_until(lambda m: "id" in m and until(m["data"]))
    return [m for m in seen if "id" in m]


def test_my_stream_says_when_it_becomes_my_turn_and_when_i_am_invited(server, alice, bob):
    game = new_game(alice)
    mine = Stream(server, "/api/me/stream/", token(bob))
    # On connecting: what waits for bob now, the seat he is offered, then his counts.
    opening = mine.next_message()
    assert opening["data"] == {
        **opening["data"],
        "type": "invitation",
        "kind": "invitation",
        "game": game.pk,
        "seat": 1,
        "url": f"/games/{game.pk}/",
        "read": False,
    }
    assert opening["id"] == str(opening["data"]["id"])  # a reconnect resumes after it
    assert mine.next_message()["data"] == {
        "type": "counts",
        "unread": 1,
        "turns": 0,
        "invitations": 1,
    }
    # Nobody's turn begins before he has taken his seat; then his comes round.
    seating.game_accept(game=game.pk, seat=1, user=bob)
    assert mine.next_message()["data"] == {
        "type": "counts",
        "unread": 0,
        "turns": 0,
        "invitations": 0,
    }
    while game.current_player != 1:
        appended = move(server, game.pk, token(alice))
        game.refresh_from_db()
    [turn] = notices(mine, lambda n: n["kind"] == "your_turn")
    assert turn["data"] == {
        **turn["data"],
        "type": "your_turn",
        "game": game.pk,
        "seat": 1,
        "version": appended["version"],
        "text": "Your turn in Deep Sea Adventure against alice",
    }
    assert mine.next_message()["data"]["turns"] == 1
    invited = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    arrived = notices(mine, lambda n: n.get("game") == invited.pk)
    assert arrived[-1]["data"]["type"] == "invitation"
    assert int(arrived[-1]["id"]) > int(turn["id"])
    mine.close()
    # Reconnecting after the turn's notice: only what came after it and is still open.
    again = Stream(server, "/api/me/stream/", {**token(bob), "Last-Event-ID": turn["id"]})
    resumed = again.next_message()
    assert resumed["id"] == arrived[-1]["id"]
    assert again.next_message()["data"] == {
        "type": "counts",
        "unread": 2,
        "turns": 1,
        "invitations": 1,
    }
    again.close()


def test_a_paired_round_reaches_the_players_streams(server, alice, bob):
    from league.services import tournaments
    from league.tournament_spec import TournamentSpec

    tournament = tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["alice", "bob"],
        ),
        created_by=alice,
    )
    mine = Stream(server, "/api/me/stream/", token(bob))
    tournaments.round_pair(tournament=tournament, by=alice)
    [notice] = notices(mine, lambda n: n["type"] == "round_paired")
    assert notice["data"] == {
        **notice["data"],
        "type": "round_paired",
        "kind": "round_paired",
        "tournament": "Cup",
        "round": 1,
        "table": 1,
        "text": "Round 1 of Cup: you play at table 1",
        "url": f"/tournaments/{tournament.pk}/",
    }
    mine.close()


# -- WSGI, as `make run` serves -------------------------------------------------------------------


def test_under_runserver_a_stream_is_fed_in_process(live_server, alice, bob):
    address = live_server.url.removeprefix("http://")
    game = new_game(alice)
    watching = Stream(address, f"/api/games/{game.pk}/stream/?after={game.version}", token(bob))
    assert watching.status == 200
    appended = move(address, game.pk, token(alice))
    assert reach(watching, appended["version"])[-1]["data"]["head"] == appended["version"]
    watching.close()


# -- Redis between processes (CI) -----------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.postgres
@pytest.mark.redis
def test_a_move_served_by_one_process_reaches_a_stream_held_by_another(alice, bob):
    settings_dict = connection.settings_dict
    password = f":{settings_dict['PASSWORD']}" if settings_dict.get("PASSWORD") else ""
    database = (
        f"postgres://{settings_dict['USER']}{password}@{settings_dict['HOST']}:"
        f"{settings_dict['PORT']}/{settings_dict['NAME']}"
    )
    env = {
        "DATABASE_URL": database,
        "HADAL_STREAM_REDIS_URL": os.environ["REDIS_URL"],
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "HADAL_STREAM_KEEPALIVE": "1",
    }
    game = new_game(alice)
    with uvicorn_process(env) as first, uvicorn_process(env) as second:
        watching = Stream(second, f"/api/games/{game.pk}/stream/?after={game.version}", token(bob))
        assert watching.status == 200
        for _ in range(3):
            appended = move(first, game.pk, token(alice) if _turn(game) == 0 else token(bob))
            messages = reach(watching, appended["version"])
            assert [m["data"]["event"]["seq"] for m in messages][-1] == appended["version"]
        watching.close()


def _turn(game) -> int:
    game.refresh_from_db()
    return game.current_player


def test_a_stream_the_client_leaves_stops_listening(server, alice, bob):
    """The client goes: the server ends the stream and drops its subscription."""
    import time

    from games.live import push

    game = new_game(alice)
    hub = push.hub()
    local = getattr(hub, "local", hub)  # RedisHub fans out through a LocalHub of its own
    channel = push.game_channel(game.pk)
    streams = [Stream(server, f"/api/games/{game.pk}/stream/", token(bob)) for _ in range(3)]
    assert local.listeners(channel) == 3
    for stream in streams:
        stream.close()
    deadline = time.monotonic() + 10
    while local.listeners(channel) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert local.listeners(channel) == 0


@pytest.mark.after_commit_errors
def test_a_move_goes_through_while_redis_is_away_and_the_hub_stops_trying_for_a_while(
    alice, bob, settings, django_capture_on_commit_callbacks
):
    import time

    from games.live import push

    settings.HADAL_STREAM_REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    hub = push.hub()
    with django_capture_on_commit_callbacks(execute=True):
        game = new_game(alice)
    assert Event.objects.filter(game=game).exists()
    assert hub.quiet_until > time.monotonic()  # the next writes do not wait on Redis
    started = time.monotonic()
    with django_capture_on_commit_callbacks(execute=True):
        services.game_resign(game=game.pk, seat=1, user=bob)
    assert time.monotonic() - started < 0.5
    game.refresh_from_db()
    assert game.status == GameStatus.FINISHED


# -- how long a stream stays, and how many one may hold -------------------------------------------


def read_to_the_end(stream: Stream) -> list[str]:
    with contextlib.suppress(EOFError):
        while True:
            stream.next_message()
    return stream.comments


def test_a_quiet_stream_ends_and_says_so_so_that_eventsource_comes_back(
    server, alice, bob, settings
):
    settings.HADAL_STREAM_IDLE_SECONDS = 1.2
    game = new_game(alice)
    stream = Stream(server, f"/api/games/{game.pk}/stream/?after={game.version}", token(alice))
    assert read_to_the_end(stream)[-1] == ": ended; reconnect to go on"
    assert ": keep-alive" in stream.comments  # quiet, not yet idle, it was kept alive
    stream.close()


def test_a_stream_that_hears_moves_still_ends_at_its_age_and_asks_again_who_listens(
    server, alice, bob, settings
):
    settings.HADAL_STREAM_MAX_SECONDS = 1.5
    game = new_game(alice)
    stream = Stream(server, f"/api/games/{game.pk}/stream/?after={game.version}", token(bob))
    move(server, game.pk, token(alice))
    assert read_to_the_end(stream)[-1] == ": ended; reconnect to go on"
    stream.close()


def withdraw(key: str, how: str) -> None:
    from django.utils import timezone

    from accounts.models import ApiToken
    from accounts.tokens import key_hash

    field = {"revoked": "revoked_at", "expired": "expires_at"}[how]
    ApiToken.objects.filter(key_hash=key_hash(key)).update(**{field: timezone.now()})


@pytest.mark.parametrize("how", ["revoked", "expired"])
@pytest.mark.parametrize("which", ["game", "me"])
def test_a_stream_ends_soon_after_its_token_is_revoked_or_expires(
    server, alice, bob, how, which, settings
):
    settings.HADAL_STREAM_MAX_SECONDS = 4  # else, without the check, it would go on and on
    game = new_game(alice)
    key = key_for(bob)
    path = (
        f"/api/games/{game.pk}/stream/?after={game.version}"
        if which == "game"
        else "/api/me/stream/"
    )
    stream = Stream(server, path, {"Authorization": f"Token {key}"})
    assert stream.status == 200
    withdraw(key, how)
    started = time.monotonic()
    move(server, game.pk, token(alice))  # busy or quiet, the stream asks about its token
    assert read_to_the_end(stream)[-1] == ": ended; the token is no longer valid"
    assert time.monotonic() - started < 5  # a keep-alive is half a second here
    stream.close()
    again = Stream(server, path, {"Authorization": f"Token {key}"})
    assert again.status == 401  # which stops EventSource
    again.close()


def test_a_stream_under_runserver_ends_too_once_its_token_is_revoked(
    live_server, alice, bob, settings
):
    settings.HADAL_STREAM_MAX_SECONDS = 4
    address = live_server.url.removeprefix("http://")
    game = new_game(alice)
    key = key_for(bob)
    stream = Stream(address, f"/api/games/{game.pk}/stream/", {"Authorization": f"Token {key}"})
    reach(stream, game.version)
    withdraw(key, "revoked")
    assert read_to_the_end(stream)[-1] == ": ended; the token is no longer valid"
    stream.close()


def test_a_stream_of_a_good_token_and_of_the_session_goes_on(server, client, alice, bob):
    game = new_game(alice)
    path = f"/api/games/{game.pk}/stream/?after={game.version}"
    streams = [Stream(server, path, token(bob)), Stream(server, path, session(client, bob))]
    time.sleep(1.2)  # past two checks of the token
    appended = move(server, game.pk, token(alice))
    for stream in streams:
        assert reach(stream, appended["version"])[-1]["data"]["head"] == appended["version"]
        stream.close()


@pytest.fixture
def in_process_leases(settings, monkeypatch):
    """The streams' caps counted by this process (no Redis), small, from a count of none: the
    streams of earlier tests on this address may still be on their way out."""
    from games.live import leases as stream_leases

    monkeypatch.setattr(stream_leases, "_leases", None)
    settings.HADAL_STREAM_REDIS_URL = ""
    settings.HADAL_STREAMS_PER_MEMBER = 2
    settings.HADAL_STREAMS_PER_ADDRESS = 3


def test_a_member_past_the_cap_is_refused_until_a_stream_of_theirs_ends(
    server, alice, in_process_leases
):
    first, second = (Stream(server, "/api/me/stream/", token(alice)) for _ in range(2))
    third = Stream(server, "/api/me/stream/", token(alice))
    assert (first.status, second.status, third.status) == (200, 200, 429)
    assert json.loads(third.response.read())["error"].startswith("you have 2 event streams open")
    first.close()
    assert eventually(lambda: Stream(server, "/api/me/stream/", token(alice)).status == 200)
    second.close()


def test_an_address_past_its_cap_is_refused_whoever_asks(server, alice, bob, in_process_leases):
    game = new_game(alice)
    path = f"/api/games/{game.pk}/stream/"
    held = [Stream(server, path, {}), Stream(server, path, token(alice)), Stream(server, path, {})]
    refused = Stream(server, path, token(bob))
    assert [s.status for s in held] == [200, 200, 200] and refused.status == 429
    assert json.loads(refused.response.read())["error"].startswith(
        "your address has 3 event streams open"
    )
    for stream in held:
        stream.close()


def eventually(check, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.1)
    return False


@pytest.mark.redis
def test_the_caps_count_across_processes_and_a_closed_stream_gives_its_lease_back(
    server, alice, settings
):
    """Every process counts in Redis; the lease of a stream its client left is given back."""
    import redis

    from games.live import leases as stream_leases

    settings.HADAL_STREAM_REDIS_URL = os.environ["REDIS_URL"]
    settings.HADAL_STREAMS_PER_MEMBER = 2
    key = f"hadal:{connection.settings_dict['NAME']}:streams:member:{alice.pk}"
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    client.delete(key)
    # Another process's stream, as its lease stands in Redis.
    other, refused = stream_leases.Leases(os.environ["REDIS_URL"]).acquire([key], [2])
    assert refused is None
    mine = Stream(server, "/api/me/stream/", token(alice))
    assert mine.status == 200 and client.zcard(key) == 2
    assert Stream(server, "/api/me/stream/", token(alice)).status == 429
    mine.close()
    assert eventually(lambda: client.zcard(key) == 1)
    client.delete(key)


@pytest.mark.parametrize("method", ["TRACE", "POST", "PUT", "DELETE", "PATCH", "OPTIONS"])
def test_a_stream_is_read_with_get_and_nothing_else(server, alice, bob, method):
    game = new_game(alice)
    for path in (f"/api/games/{game.pk}/stream/", "/api/me/stream/"):
        status, body = call(server, method, path, token(alice))
        assert status == 405
        assert body == {"error": f"method {method} is not allowed here; a stream is read with GET"}


def test_a_stream_asked_after_a_version_the_game_has_not_reached_is_a_422(server, alice, bob):
    game = new_game(alice)
    status, body = call(
        server, "GET", f"/api/games/{game.pk}/stream/?after={game.version + 5}", token(alice)
    )
    assert status == 422
    assert body == {"error": f"after {game.version + 5}: the game is at version {game.version}"}
    status, body = call(server, "GET", f"/api/games/{game.pk}/stream/?after=soon", token(alice))
    assert status == 400 and body["error"].startswith("after must be a whole number")


@pytest.mark.redis
def test_a_live_lease_is_renewed_and_a_dead_processs_runs_out(settings):
    """Each process renews its streams' leases every keep-alive; a worker that died renews
    nothing, and its leases stop counting once they run out."""
    import uuid

    import redis

    from games.live import leases as stream_leases

    settings.HADAL_STREAM_KEEPALIVE = 0.3
    client = redis.Redis.from_url(os.environ["REDIS_URL"])
    key = f"hadal:test:leases:{uuid.uuid4().hex}"
    leases = stream_leases.Leases(os.environ["REDIS_URL"])
    try:
        mine, refused = leases.acquire([key], [2])
        assert refused is None
        first = client.zscore(key, mine.id)
        assert eventually(lambda: client.zscore(key, mine.id) > first + 0.2)
        client.zadd(key, {"a-dead-workers-stream": time.time() - 1})
        second, refused = leases.acquire([key], [2])  # the dead one no longer counts
        assert refused is None
        _, refused = leases.acquire([key], [2])
        assert refused == (1, 2)
        leases.release(mine)
        assert eventually(lambda: client.zscore(key, mine.id) is None)
    finally:
        client.delete(key)
