"""Pushed updates: events delivered per second and the latency from an append to a subscriber,
with 100 subscribers on a game's stream, against raw Redis pub/sub with as many subscribers.

The production set-up: ``--servers`` uvicorn processes serving the project's ASGI application
from a throwaway PostgreSQL database, fanning out through Redis pub/sub. ``--subscribers``
clients (coroutines in this process, each its own HTTP connection, spread over the servers)
hold ``GET /api/games/{id}/stream/`` open; one member plays a hot-seat game
through the first server's API (Abyss: long, with private draws redacted per reader), one
move after another as fast as the server answers. Each
subscriber parses every message; the latency of a delivery is its arrival here minus the
event's ``created_at``, which the store stamps as the append begins (one machine, one clock).

The floor, in the same run: the same number of raw Redis subscribers (redis.asyncio, one
connection each, in this process) receiving as many messages of the same size, published one
after another, each carrying its publish time. What the streams cost above it is the web
server, Django, the redaction per reader and the SSE framing.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal REDIS_URL=redis://127.0.0.1:6379/0 \\
        .venv/bin/python bench/bench_stream.py [--subscribers 100] [--moves 300] [--servers 2]
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path

import _common

from games.rules import get_rules

ROOT = Path(__file__).resolve().parent.parent
BASE_PORT = int(os.environ.get("HADAL_BENCH_PORT", "8775"))
SLUG = "abyss"  # a long game, with private draws to redact


# -- the subscribers ------------------------------------------------------------------------------


class Subscriber:
    """One stream read off its own connection: chunked HTTP, then SSE messages."""

    def __init__(self, port: int, path: str, token: str):
        self.port, self.path, self.token = port, path, token
        self.latencies: list[float] = []
        self.last_version = 0
        self.last_arrival = 0.0
        self.ready = asyncio.Event()

    async def run(self, stop_at_version: asyncio.Future) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
        writer.write(
            (
                f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                f"Authorization: Token {self.token}\r\n\r\n"
            ).encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise SystemExit(f"stream refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        buffer = b""
        try:
            while True:
                size = int((await reader.readline()).strip() or b"0", 16)
                if size == 0:
                    return
                buffer += await reader.readexactly(size)
                await reader.readexactly(2)
                arrived = time.time()
                *messages, buffer = buffer.split(b"\n\n")
                for message in messages:
                    self._message(message, arrived)
                if stop_at_version.done() and self.last_version >= stop_at_version.result():
                    return
        finally:
            writer.close()

    def _message(self, message: bytes, arrived: float) -> None:
        for line in message.split(b"\n"):
            if line.startswith(b"retry:"):
                self.ready.set()
            elif line.startswith(b"data: "):
                data = json.loads(line[6:])
                event = data["event"]
                if event["kind"] != "GameCreated":
                    sent = datetime.fromisoformat(event["created_at"]).timestamp()
                    self.latencies.append(arrived - sent)
                    self.last_arrival = arrived
                self.last_version = data["version"]


# -- the mover ------------------------------------------------------------------------------------


def call(connection, token, method, path, body=None):
    headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}
    connection.request(method, path, None if body is None else json.dumps(body), headers)
    response = connection.getresponse()
    return response.status, json.loads(response.read() or b"null")


def play(port: int, token: str, game: dict, moves: int, rng: random.Random) -> int:
    """Up to ``moves`` moves in the game, one after another; the version reached."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    state = get_rules(SLUG).new_game(2, {})
    _, events = call(connection, token, "GET", f"/api/games/{game['id']}/events/")
    apply(state, events)
    version = game["version"]
    for _ in range(moves):
        if state.is_terminal():
            break
        body = {
            "seat": state.current_player,
            "expected_version": version,
            "action": rng.choice(state.legal_actions()),
        }
        status, answer = call(connection, token, "POST", f"/api/games/{game['id']}/actions/", body)
        if status != 201:
            raise SystemExit(f"move refused: {status} {answer}")
        version = answer["version"]
        apply(state, answer["events"])
    return version


def apply(state, events) -> None:
    for event in events:
        if event["kind"] in ("ActionApplied", "ChanceResolved"):
            state.apply(event["data"]["action"])


async def streams_run(ports, token, game, subscribers: int, moves: int):
    path = f"/api/games/{game['id']}/stream/?after={game['version']}"
    readers = [Subscriber(ports[i % len(ports)], path, token) for i in range(subscribers)]
    stop: asyncio.Future = asyncio.get_running_loop().create_future()
    tasks = [asyncio.create_task(r.run(stop)) for r in readers]
    await asyncio.wait_for(asyncio.gather(*(r.ready.wait() for r in readers)), 60)
    start = time.time()
    version = await asyncio.to_thread(play, ports[0], token, game, moves, random.Random(7))
    stop.set_result(version)
    await asyncio.wait_for(asyncio.gather(*tasks), 60)
    # Until the last delivery: a subscriber notices the end only at the next keep-alive.
    elapsed = max(r.last_arrival for r in readers) - start
    latencies = [x for r in readers for x in r.latencies]
    return len(latencies) / elapsed, latencies, version - game["version"]


# -- the floor ------------------------------------------------------------------------------------


async def redis_floor(url: str, subscribers: int, messages: int, size: int):
    import redis.asyncio

    channel = f"hadal-bench-floor-{os.getpid()}"
    clients = [redis.asyncio.Redis.from_url(url) for _ in range(subscribers)]
    pubsubs = [c.pubsub() for c in clients]
    for p in pubsubs:
        await p.subscribe(channel)
        await p.get_message(timeout=5)  # the confirmation
    latencies: list[float] = []

    async def listen(pubsub) -> None:
        for _ in range(messages):
            while True:
                message = await pubsub.get_message(timeout=10)
                if message and message["type"] == "message":
                    break
            arrived = time.time()
            data = json.loads(message["data"])
            latencies.append(arrived - data["sent"])

    listeners = [asyncio.create_task(listen(p)) for p in pubsubs]
    publisher = redis.asyncio.Redis.from_url(url)
    padding = "x" * max(0, size - 40)
    start = time.perf_counter()
    for _ in range(messages):
        await publisher.publish(channel, json.dumps({"sent": time.time(), "pad": padding}))
    await asyncio.wait_for(asyncio.gather(*listeners), 60)
    elapsed = time.perf_counter() - start
    for p in pubsubs:
        await p.aclose()
    for c in [*clients, publisher]:
        await c.aclose()
    return len(latencies) / elapsed, latencies


# -- set-up ---------------------------------------------------------------------------------------


def percentiles(values: list[float]) -> tuple[float, float]:
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    return q[49], q[98]


def prepare(database: str) -> str:
    code = (
        "import django; django.setup();"
        "from django.core.management import call_command; call_command('migrate', verbosity=0);"
        "from django.contrib.auth import get_user_model;"
        "from accounts.tokens import password_token_create;"
        "user, _ = get_user_model().objects.get_or_create(username='streamer');"
        "print(password_token_create(user=user))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "DATABASE_URL": database, "DJANGO_SETTINGS_MODULE": "config.settings"},
        check=True,
    )
    return done.stdout.split()[-1]


def wait_for(port: int, process: subprocess.Popen) -> None:
    for _ in range(200):
        if process.poll() is not None:
            raise SystemExit(f"a server exited with {process.returncode}")
        try:
            http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/")
            return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"no server on port {port}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subscribers", type=int, default=100)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--servers", type=int, default=2)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    if not url.startswith("postgres") or not redis_url:
        raise SystemExit("bench_stream needs DATABASE_URL=postgres://... and REDIS_URL=redis://...")
    base, _, name = url.rpartition("/")
    database = f"{base}/bench_stream_{name}"
    psql = ["psql", base + "/postgres", "-qc"]
    subprocess.run([*psql, f"DROP DATABASE IF EXISTS bench_stream_{name}"], check=True)
    subprocess.run([*psql, f"CREATE DATABASE bench_stream_{name}"], check=True)
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "DEBUG": "0",
        "CONN_MAX_AGE": "60",
        "SECRET_KEY": "bench-" + "x" * 60,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "HADAL_STREAM_REDIS_URL": redis_url,
        "CELERY_TASK_ALWAYS_EAGER": "1",
        "LOG_LEVEL": "WARNING",
        "HADAL_STREAM_KEEPALIVE": "1",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    servers: list[subprocess.Popen] = []
    ports = [BASE_PORT + i for i in range(args.servers)]
    try:
        token = prepare(database)
        for port in ports:
            servers.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "uvicorn",
                        "config.asgi:application",
                        "--port",
                        str(port),
                        "--log-level",
                        "warning",
                        "--no-access-log",
                    ],
                    cwd=ROOT,
                    env=env,
                )
            )
        for port, server in zip(ports, servers):
            wait_for(port, server)
        connection = http.client.HTTPConnection("127.0.0.1", ports[0], timeout=30)
        body = {"game": SLUG, "seats": [{"user": "streamer"}] * 2}
        _common.header(
            "Streams: a game's events pushed to subscribers vs raw Redis pub/sub",
            f"PostgreSQL, Redis, {args.servers} uvicorn processes",
        )
        print(f"{args.subscribers} subscribers, up to {args.moves} moves")
        # Warm the servers (imports, connections, caches) on a game of their own.
        _, warm = call(connection, token, "POST", "/api/games/", body)
        asyncio.run(streams_run(ports, token, warm, min(10, args.subscribers), 10))
        _, game = call(connection, token, "POST", "/api/games/", body)
        rate, latencies, events = asyncio.run(
            streams_run(ports, token, game, args.subscribers, args.moves)
        )
        floor_rate, floor_latencies = asyncio.run(
            redis_floor(redis_url, args.subscribers, events, 400)
        )
        p50, p99 = percentiles(latencies)
        f50, f99 = percentiles(floor_latencies)
        # One mover: the deliveries follow the appends, and the appends the server's moves.
        print(f"appended    {rate / args.subscribers:9.1f} events/s, each to every subscriber")
        print(
            f"streams     {rate:9.0f} deliveries/s  p50 {p50:7.2f} ms  p99 {p99:7.2f} ms"
            f"  ({events} events x {args.subscribers} subscribers)"
        )
        print(f"redis floor {floor_rate:9.0f} deliveries/s  p50 {f50:7.2f} ms  p99 {f99:7.2f} ms")
        print(
            f"streams / floor: throughput {rate / floor_rate:.2f}x, p50 latency "
            f"{p50 / f50:.1f}x, p99 latency {p99 / f99:.1f}x"
        )
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        subprocess.run([*psql, f"DROP DATABASE IF EXISTS bench_stream_{name}"], check=False)


if __name__ == "__main__":
    main()
