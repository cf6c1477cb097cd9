"""Throughput under load: N concurrent clients playing Deep Sea Adventure through gunicorn and
PostgreSQL, against the DRF peer (token auth and one versioned INSERT) under the same load.

The server is the production set-up: gunicorn with ``--workers`` sync workers serving the
project (plus the peer's URL) from a throwaway PostgreSQL database, persistent connections.
Each client is a thread with its own keep-alive HTTP connection and its own hot-seat game (one
member at both seats, so it can always move): it keeps its own copy of the game through the
rule module, picks a legal move and posts it, again and again, starting a new game when one
ends. Only the moves are timed. Then the same clients post to the peer for the same time.

With a Redis cache (``REDIS_CACHE_URL``) the moves are played twice, each time on a fresh
server: once with each worker's own cache of heads only, once with the heads shared through
Redis (HADAL_SHARED_HEADS, games.store.sharing), so that a move landing on another worker than
the last one still finds its game without reading it.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal REDIS_CACHE_URL=redis://127.0.0.1:6379/1 \\
        .venv/bin/python bench/bench_load.py [--clients 8] [--seconds 20] [--workers 3]
"""

from __future__ import annotations

import argparse
import contextlib
import http.client
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import _common

from games.rules import get_rules  # pure Python: the client's own copy of each game

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("HADAL_BENCH_PORT", "8765"))
SLUG = "deep-sea-adventure"


class Client:
    """One keep-alive connection and one member's token."""

    def __init__(self, token: str):
        self.http = http.client.HTTPConnection("127.0.0.1", PORT, timeout=30)
        self.headers = {"Authorization": f"Token {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body=None) -> tuple[int, dict | list]:
        self.http.request(method, path, None if body is None else json.dumps(body), self.headers)
        response = self.http.getresponse()
        return response.status, json.loads(response.read() or b"null")


def replay(state, events) -> None:
    """Bring the client's own copy of the game up to date with events the server sent."""
    for event in events:
        if event["kind"] in ("ActionApplied", "ChanceResolved"):
            state.apply(event["data"]["action"])


def player(
    token: str, seconds: float, rng: random.Random, latencies: list[float], peer: bool
) -> None:
    """Post moves for ``seconds``. The client keeps its own copy of the game through the
    rule module, from the events each move answers with, so every request it makes is a move;
    only a new game costs two more (create it, read its opening)."""
    client = Client(token)
    stop = time.perf_counter() + seconds
    game = state = None
    while time.perf_counter() < stop:
        if peer:
            body = {"seat": 0, "expected_version": 1, "action": {"type": "continue"}}
            start = time.perf_counter()
            client.call("POST", "/bench/peer/", body)
            latencies.append(time.perf_counter() - start)
            continue
        if state is None or state.is_terminal():
            status, game = client.call(
                "POST", "/api/games/", {"game": SLUG, "seats": [{"user": "load"}] * 2}
            )
            if status != 201:
                raise SystemExit(f"game refused: {status} {game}")
            state = get_rules(SLUG).new_game(2, {})
            replay(state, client.call("GET", f"/api/games/{game['id']}/events/")[1])
        body = {
            "seat": state.current_player,
            "expected_version": game["version"],
            "action": rng.choice(state.legal_actions()),
        }
        start = time.perf_counter()
        status, answer = client.call("POST", f"/api/games/{game['id']}/actions/", body)
        latencies.append(time.perf_counter() - start)
        if status != 201:
            raise SystemExit(f"move refused: {status} {answer}")
        game["version"] = answer["version"]
        replay(state, answer["events"])


def load(tokens: list[str], seconds: float, peer: bool) -> tuple[float, list[float]]:
    latencies: list[float] = []
    threads = [
        threading.Thread(target=player, args=(t, seconds, random.Random(i), latencies, peer))
        for i, t in enumerate(tokens)
    ]
    start = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return len(latencies) / (time.perf_counter() - start), latencies


def percentiles(values: list[float]) -> str:
    ms = sorted(v * 1000 for v in values)
    q = statistics.quantiles(ms, n=100)
    return f"p50 {q[49]:6.1f} ms  p95 {q[94]:6.1f} ms  p99 {q[98]:6.1f} ms"


def prepare(database: str) -> str:
    """A fresh database with the schema, the peer's table and the member who plays; its token."""
    code = (
        "import django; django.setup();"
        "from django.core.management import call_command; call_command('migrate', verbosity=0);"
        "from bench.peer import create_table; create_table();"
        "from django.contrib.auth import get_user_model;"
        "from accounts.tokens import password_token_create;"
        "user, _ = get_user_model().objects.get_or_create(username='load');"
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--workers", type=int, default=3)
    args = parser.parse_args()
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        raise SystemExit("bench_load serves from PostgreSQL: set DATABASE_URL=postgres://...")
    base, _, name = url.rpartition("/")
    database = f"{base}/bench_load_{name}"
    subprocess.run(
        ["psql", base + "/postgres", "-qc", f"DROP DATABASE IF EXISTS bench_load_{name}"],
        check=True,
    )
    subprocess.run(
        ["psql", base + "/postgres", "-qc", f"CREATE DATABASE bench_load_{name}"], check=True
    )
    env = {
        **os.environ,
        "DATABASE_URL": database,
        "DEBUG": "0",
        "CONN_MAX_AGE": "60",
        "SECRET_KEY": "bench-" + "x" * 60,
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SECURE_COOKIES": "0",
        "REDIS_URL": "",
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "DJANGO_SETTINGS_MODULE": "config.settings",
    }
    cache = os.environ.get("REDIS_CACHE_URL", "")
    try:
        # Every client plays as one member, in hot-seat games of its own.
        tokens = [prepare(database)] * args.clients
        _common.header(
            "Load: concurrent players through gunicorn vs the DRF peer",
            f"PostgreSQL, gunicorn {args.workers} workers",
        )
        print(f"{args.clients} clients, {args.seconds:g} s each run")
        runs = [("moves, each worker's own heads", "0")]
        if cache:
            runs.append(("moves, heads shared (Redis)", "1"))
        results = []
        for label, shared in runs:
            with serving(env, args.workers, shared):
                load(tokens, 2, peer=False)  # warm the workers
                moves, latency = load(tokens, args.seconds, peer=False)
                print(f"{label:<32} {moves:7.1f}/s  {percentiles(latency)}")
                results.append((label, moves, latency))
        with serving(env, args.workers, "0"):
            load(tokens, 2, peer=True)  # warm the workers
            peers, peer_latency = load(tokens, args.seconds, peer=True)
        print(f"{'DRF peer':<32} {peers:7.1f}/s  {percentiles(peer_latency)}")
        for label, moves, latency in results:
            print(
                f"{label}: moves / peer throughput {moves / peers:.2f}x; p50 latency"
                f" {statistics.median(latency) / statistics.median(peer_latency):.2f}x"
            )
    finally:
        subprocess.run(
            ["psql", base + "/postgres", "-qc", f"DROP DATABASE IF EXISTS bench_load_{name}"],
            check=False,
        )


@contextlib.contextmanager
def serving(env: dict[str, str], workers: int, shared_heads: str):
    """gunicorn serving the project and the peer until the block ends."""
    server = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "bench.loadapp:application",
            "--bind",
            f"127.0.0.1:{PORT}",
            "--workers",
            str(workers),
            "--log-level",
            "warning",
        ],
        cwd=ROOT,
        env={**env, "HADAL_SHARED_HEADS": shared_heads},
    )
    try:
        for _ in range(100):
            try:
                http.client.HTTPConnection("127.0.0.1", PORT, timeout=1).request("GET", "/")
                break
            except OSError:
                time.sleep(0.2)
        yield
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
