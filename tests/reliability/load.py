"""A club's evening against a running stack: members playing games through the API, each
client on a keep-alive connection of its own as a browser would hold, while the database's
connections are counted.

Each client plays one game between two members, making the move of whichever seat is to play
(GET the game, GET that seat's legal actions, POST the first), and starts another game when one
ends. Every answer is checked: a move must be a 201, a read a 200; anything else is a failure,
kept with its body.
"""

from __future__ import annotations

import http.client
import json
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from tests.reliability.stack import Stack

GAME = "deep-sea-adventure"


@dataclass
class Evening:
    clients: int
    seconds: float
    moves: int = 0
    requests: int = 0
    failures: list[tuple[str, int, Any]] = field(default_factory=list)
    backends: list[int] = field(default_factory=list)
    elapsed: float = 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.elapsed if self.elapsed else 0.0

    @property
    def most_backends(self) -> int:
        return max(self.backends, default=0)


class Client:
    """One member's browser: a keep-alive connection, re-opened if the server closes it."""

    def __init__(self, stack: Stack):
        self.stack = stack
        self.connection: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, token: str, body: Any = None) -> tuple[int, Any]:
        headers = {**self.stack.headers(), "Authorization": f"Token {token}"}
        payload = None
        if body is not None:
            payload = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        for attempt in (1, 2):
            if self.connection is None:
                self.connection = self.stack.connection()
            try:
                self.connection.request(method, path, payload, headers=headers)
                response = self.connection.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A keep-alive connection the server closed between requests: a browser opens
                # another, and so do we, once.
                self.connection.close()
                self.connection = None
                if attempt == 2:
                    raise
                continue
            if response.getheader("Connection", "").lower() == "close":
                self.connection.close()
                self.connection = None
            if not response.getheader("Content-Type", "").startswith("application/json"):
                return response.status, data
            return response.status, json.loads(data)
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.connection is not None:
            self.connection.close()


def evening(stack: Stack, *, clients: int, seconds: float, sample_every: float = 0.2) -> Evening:
    """``clients`` members' browsers playing for ``seconds``, the database's connections
    sampled every ``sample_every`` seconds (and once more after the last request)."""
    names = [f"player{i}" for i in range(2 * clients)]
    tokens = stack.members(names)
    result = Evening(clients=clients, seconds=seconds)
    lock = threading.Lock()
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            result.backends.append(stack.backends())
            stop.wait(sample_every)

    def play(index: int) -> None:
        client = Client(stack)
        seats = [names[2 * index], names[2 * index + 1]]
        moves = requests = 0
        failures: list[tuple[str, int, Any]] = []

        def expect(what: str, status: int, wanted: int, data: Any) -> bool:
            if status != wanted:
                failures.append((what, status, data))
                return False
            return True

        try:
            game_id = None
            while time.monotonic() < deadline:
                if game_id is None:
                    status, game = client.call(
                        "POST",
                        "/api/games/",
                        tokens[seats[0]],
                        {"game": GAME, "seats": [{"user": n} for n in seats], "options": {}},
                    )
                    requests += 1
                    if not expect("create", status, 201, game):
                        break
                    game_id = game["id"]
                status, game = client.call("GET", f"/api/games/{game_id}/", tokens[seats[0]])
                requests += 1
                if not expect("game", status, 200, game):
                    break
                if game["status"] != "active":
                    game_id = None
                    continue
                seat = game["current_player"]
                token = tokens[seats[seat]]
                status, actions = client.call(
                    "GET", f"/api/games/{game_id}/actions/?seat={seat}", token
                )
                requests += 1
                if not expect("actions", status, 200, actions):
                    break
                body = {"seat": seat, "expected_version": game["version"], "action": actions[0]}
                status, moved = client.call("POST", f"/api/games/{game_id}/actions/", token, body)
                requests += 1
                if not expect("move", status, 201, moved):
                    break
                moves += 1
        except OSError as error:
            failures.append(("connection", 0, repr(error)))
        finally:
            client.close()
            with lock:
                result.moves += moves
                result.requests += requests
                result.failures += failures

    sampler = threading.Thread(target=sample, daemon=True)
    players = [threading.Thread(target=play, args=(i,), daemon=True) for i in range(clients)]
    sampler.start()
    started = time.monotonic()
    deadline = started + seconds
    for player in players:
        player.start()
    for player in players:
        player.join(seconds + 120)
    result.elapsed = time.monotonic() - started
    stop.set()
    sampler.join(5)
    result.backends.append(stack.backends())
    return result
