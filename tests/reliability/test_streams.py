"""Event streams on the compose deployment: no thread held per open stream, a cap per member
and per address, and nothing but GET on a stream's address."""

from __future__ import annotations

import contextlib
import json

import pytest

from tests.reliability.stack import Stack

pytestmark = pytest.mark.reliability

GAME = "deep-sea-adventure"


class Listening:
    """One open stream read as EventSource would, over the proxy."""

    def __init__(self, stack: Stack, path: str, headers: dict[str, str]):
        self.connection = stack.connection()
        self.connection.request(
            "GET", path, headers={**stack.headers(), "Accept": "text/event-stream", **headers}
        )
        self.response = self.connection.getresponse()
        self.status = self.response.status
        if self.status == 200:
            assert self.response.readline().startswith(b"retry: ")
            self.body = b""
        else:
            self.body = self.response.read()

    def until(self, version: int) -> list[dict]:
        seen = []
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith(b"data: "):
                seen.append(json.loads(line[6:]))
                if seen[-1].get("version") == version:
                    return seen

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.connection.close()


def new_game(stack: Stack, tokens: dict[str, str], a: str, b: str) -> dict:
    status, game = stack.post(
        "/api/games/",
        {"game": GAME, "seats": [{"user": a}, {"user": b}], "options": {}},
        {"Authorization": f"Token {tokens[a]}"},
    )
    assert status == 201, game
    return game


def move(stack: Stack, game: dict, token: str) -> dict:
    seat = game["current_player"]
    auth = {"Authorization": f"Token {token}"}
    status, actions = stack.get(f"/api/games/{game['id']}/actions/?seat={seat}", auth)
    assert status == 200, actions
    body = {"seat": seat, "expected_version": game["version"], "action": actions[0]}
    status, moved = stack.post(f"/api/games/{game['id']}/actions/", body, auth)
    assert status == 201, moved
    return moved


def test_open_streams_hold_no_thread_each_and_all_hear_a_move(stack):
    names = [f"watcher{i}" for i in range(12)]
    tokens = stack.members(names)
    game = new_game(stack, tokens, names[0], names[1])
    path = f"/api/games/{game['id']}/stream/?after={game['version']}"
    streams: list[Listening] = []
    threads = []
    try:
        for _ in range(2):  # ten streams for each of twelve members, twice
            for i in range(120):
                token = tokens[names[i % len(names)]]
                streams.append(Listening(stack, path, {"Authorization": f"Token {token}"}))
            threads.append(stack.threads("web"))
        assert {s.status for s in streams} == {200}
        moved = move(stack, game, tokens[names[0]])
        for stream in streams[::20]:
            assert stream.until(moved["version"])[-1]["head"] == moved["version"]
    finally:
        for stream in streams:
            stream.close()
    # A thread per open stream: 240 streams held 247 threads more. Now the second 120 streams
    # add none: the streams share a few threads a worker (HADAL_STREAM_THREADS).
    assert threads[1] - threads[0] <= 2, threads


def open_until_refused(stack: Stack, path: str, headers: dict[str, str], most: int):
    streams = []
    for _ in range(most + 1):
        streams.append(Listening(stack, path, headers))
        if streams[-1].status != 200:
            break
    return streams


def test_a_member_holds_at_most_twenty_streams_and_the_next_is_a_429(stack):
    auth = {"Authorization": f"Token {stack.members(['tabs'])['tabs']}"}
    streams = open_until_refused(stack, "/api/me/stream/", auth, 20)
    try:
        assert [s.status for s in streams] == [200] * 20 + [429]
        refused = json.loads(streams[-1].body)
        assert refused["error"].startswith("you have 20 event streams open")
        streams.pop().close()
        streams.pop().close()  # one tab closed: another may open
        again = open_until_refused(stack, "/api/me/stream/", auth, 0)
        assert again[0].status == 200
        streams += again
    finally:
        for stream in streams:
            stream.close()


def test_an_address_holds_at_most_its_cap_of_streams(stack):
    tokens = stack.members(["host", "guest"])
    game = new_game(stack, tokens, "host", "guest")
    cap = int(stack.environment("web").get("HADAL_STREAMS_PER_ADDRESS", "300"))
    streams = open_until_refused(stack, f"/api/games/{game['id']}/stream/", {}, cap)
    try:
        assert [s.status for s in streams] == [200] * cap + [429]
        assert json.loads(streams[-1].body)["error"].startswith(
            f"your address has {cap} event streams open"
        )
    finally:
        for stream in streams:
            stream.close()


@pytest.mark.parametrize("method", ["TRACE", "POST", "PUT", "DELETE", "PATCH"])
def test_a_stream_answers_nothing_but_get(stack, method):
    status, body, response = stack.request(method, "/api/me/stream/")
    assert status == 405, body
    assert response.getheader("Allow") == "GET"
    assert body["error"].startswith(f"method {method} is not allowed")
