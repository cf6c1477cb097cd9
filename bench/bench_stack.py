"""The compose deployment run on this machine (tests/reliability/stack.py), measured.

Three measurements, each on a stack of its own (``--only`` picks one):

- ``load``: a club's evening. ``--clients`` members' browsers (each a thread with its own
  keep-alive connection through the proxy, TLS included) play two-member games of Deep Sea
  Adventure as fast as the server answers, for ``--seconds``; moves a second, failed
  requests, and the most connections the deployment held to PostgreSQL against the bound its
  pools allow (the check tests/reliability/test_connections.py makes, with figures).
- ``streams``: what one web worker holds. The web service with one uvicorn worker; ``--streams``
  spectators' event streams opened on it in steps, spread over games, the worker's resident
  memory and threads read at each step; then a move in every game, and every stream must hear
  its game's. The floor, in the same run: a bare ASGI app (bench/streams_floor.py) that answers
  each request with an open SSE response and nothing more, under the same gunicorn and uvicorn
  worker, holding as many connections: what any stream costs that server before Django.
- ``analysis``: a bot's reply while analyses are queued. A member plays a greedy bot and the
  time from their move to the bot's is taken, ``--replies`` times, first with nothing else
  queued, then while two members start analyses of finished games as fast as they may.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal \\
        .venv/bin/python bench/bench_stack.py [--only load|streams|analysis] \\
        [--clients 20,40,80] [--seconds 20] [--streams 10000] [--replies 20]

Needs PostgreSQL (a role that may create databases and roles), redis-server and caddy.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import _common

from tests.reliability import load as club
from tests.reliability.stack import ROOT, Stack, free_port, port_open, wait_for
from tests.reliability.test_analysis import FINISHED_GAMES
from tests.reliability.test_connections import connection_bound

GAME = "deep-sea-adventure"


def stack(work: Path, **options) -> Stack:
    return Stack(postgres_url=os.environ["DATABASE_URL"], work=work, **options).start()


# -- load ---------------------------------------------------------------------------------------


def run_load(clients: list[int], seconds: float) -> None:
    with tempfile.TemporaryDirectory(prefix="hadal-bench-") as work:
        deployment = stack(Path(work))
        try:
            bound = connection_bound(deployment)
            print(f"connections allowed by the pools and workers: {bound}")
            print(
                f"{'clients':>8} {'moves/s':>9} {'requests':>9} {'failed':>7} "
                f"{'most conn.':>11} {'after':>6}"
            )
            for count in clients:
                evening = club.evening(deployment, clients=count, seconds=seconds)
                time.sleep(1)
                print(
                    f"{count:>8} {evening.moves_per_second:>9.1f} {evening.requests:>9} "
                    f"{len(evening.failures):>7} {evening.most_backends:>11} "
                    f"{deployment.backends():>6}",
                    flush=True,
                )
        finally:
            deployment.close()


# -- streams ------------------------------------------------------------------------------------


class Spectator:
    """One stream read off a raw connection to the worker (chunked HTTP, SSE lines)."""

    def __init__(self, port: int, game: int):
        self.port, self.game = port, game
        self.writer: asyncio.StreamWriter | None = None
        self.heard = 0  # the last version heard
        self.waiting: asyncio.Future | None = None

    async def open(self) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        # From 127.0.0.1, the address the worker trusts as its proxy: as the proxy sends it.
        self.writer.write(
            f"GET /api/games/{self.game}/stream/ HTTP/1.1\r\nHost: localhost\r\n"
            "X-Forwarded-Proto: https\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"stream refused: {status!r}")
        while (await reader.readline()) not in (b"\r\n", b""):
            pass
        self.reader = reader
        await self.line_with(b"retry: ")

    async def line_with(self, start: bytes) -> bytes:
        while True:
            line = await self.reader.readline()
            if not line:
                raise EOFError("the stream ended")
            if line.startswith(start):
                return line

    async def listen(self) -> None:
        while True:
            line = await self.line_with(b"data: ")
            self.heard = max(self.heard, json.loads(line[6:])["head"])
            if self.waiting is not None and not self.waiting.done() and self.heard >= self.want:
                self.waiting.set_result(time.monotonic())

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


class FloorClient:
    def __init__(self, port: int):
        self.port = port
        self.writer: asyncio.StreamWriter | None = None

    async def open(self) -> None:
        reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        self.writer.write(b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
        while not (await reader.readline()).startswith(b"retry: "):
            pass

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


def worker_figures(deployment: Stack) -> tuple[int, int]:
    """The web worker's resident memory and threads (the worker, not gunicorn's arbiter)."""
    master = deployment.processes["web"].pid
    pids = [p for p in deployment.processes_of("web") if p != master]
    memory = threads = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                memory += int(line.split()[1]) * 1024
            elif line.startswith("Threads:"):
                threads += int(line.split()[1])
    return memory, threads


async def open_all(clients, concurrently: int = 100) -> None:
    gate = asyncio.Semaphore(concurrently)

    async def one(client):
        async with gate:
            await client.open()

    await asyncio.gather(*(one(c) for c in clients))


def steps_to(total: int) -> list[int]:
    return sorted({s for s in (total // 10, total // 4, total // 2, total) if s > 0})


def run_streams(total: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    needed = total + 2000
    if soft < needed:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(needed, hard), hard))
    per_game = 20
    games_wanted = max(1, total // per_game)
    lifted = {"HADAL_STREAMS_PER_ADDRESS": str(total + 100)}
    with tempfile.TemporaryDirectory(prefix="hadal-bench-") as work:
        deployment = stack(Path(work), web_workers=1, overrides={"web": lifted})
        try:
            ours = asyncio.run(hold_streams(deployment, total, games_wanted, per_game))
        finally:
            deployment.close()
        floor = hold_floor(Path(work), total)
    print(
        f"{'streams':>8} {'worker MB':>10} {'threads':>8} {'floor MB':>9} {'KB/stream':>10} "
        f"{'floor KB':>9} {'ratio':>6}"
    )
    (base, _), (floor_base, _) = ours[0][1], floor[0][1]
    for (count, (memory, threads)), (_, (floor_memory, _)) in zip(ours[1:], floor[1:]):
        per = (memory - base) / count / 1024
        floor_per = (floor_memory - floor_base) / count / 1024
        print(
            f"{count:>8} {memory / 2**20:>10.0f} {threads:>8} {floor_memory / 2**20:>9.0f} "
            f"{per:>10.1f} {floor_per:>9.1f} {per / floor_per if floor_per else 0:>6.1f}"
        )


async def hold_streams(deployment: Stack, total: int, games: int, per_game: int):
    players = deployment.members(["host", "guest"])
    ids = deployment.python(
        f"""
import json
from django.contrib.auth import get_user_model
from games.play import services
host = get_user_model().objects.get(username="host")
print(json.dumps([
    services.game_create(
        slug="{GAME}", seats=[{{"user": "host"}}, {{"user": "guest"}}], options={{}}, created_by=host
    ).pk
    for _ in range({games})
]))
"""
    )
    port = deployment.app_port
    spectators = [Spectator(port, ids[i // per_game % len(ids)]) for i in range(total)]
    figures = [(0, worker_figures(deployment))]
    opened = 0
    started = time.monotonic()
    for step in steps_to(total):
        await open_all(spectators[opened:step])
        opened = step
        await asyncio.sleep(1)
        figures.append((step, worker_figures(deployment)))
        memory, threads = figures[-1][1]
        print(
            f"  {step} streams open after {time.monotonic() - started:.0f} s: "
            f"{memory / 2**20:.0f} MB, {threads} threads",
            flush=True,
        )
    listeners = [asyncio.create_task(s.listen()) for s in spectators]
    # A move in every game; every stream must hear its game's.
    loop = asyncio.get_running_loop()
    for s in spectators:
        s.waiting, s.want = loop.create_future(), 0
    moved = await asyncio.to_thread(move_everywhere, deployment, ids, players)
    for s in spectators:
        s.want = moved[s.game]
        if s.heard >= s.want and not s.waiting.done():
            s.waiting.set_result(time.monotonic())
    sent = time.monotonic()
    done, pending = await asyncio.wait([s.waiting for s in spectators], timeout=120)
    heard = [f.result() - sent for f in done]
    print(
        f"  a move in each of {len(ids)} games: {len(done)} of {total} streams heard theirs"
        f" ({len(pending)} not within 120 s)"
    )
    for task in listeners:
        task.cancel()
    for s in spectators:
        s.close()
    if pending:
        raise SystemExit("some streams did not hear their game's move")
    del heard
    return figures


def move_everywhere(deployment: Stack, ids: list[int], tokens: dict[str, str]) -> dict[int, int]:
    """One move in each game through the worker's port; each game's new version."""
    versions = {}
    connection = http.client.HTTPConnection("127.0.0.1", deployment.app_port, timeout=30)
    for game in ids:
        auth = {"Authorization": f"Token {tokens['host']}", **deployment.headers(direct=True)}
        connection.request("GET", f"/api/games/{game}/actions/?seat=0", headers=auth)
        actions = json.loads(connection.getresponse().read())
        connection.request("GET", f"/api/games/{game}/", headers=auth)
        version = json.loads(connection.getresponse().read())["version"]
        body = json.dumps({"seat": 0, "expected_version": version, "action": actions[0]})
        connection.request(
            "POST",
            f"/api/games/{game}/actions/",
            body,
            {**auth, "Content-Type": "application/json"},
        )
        answer = connection.getresponse()
        versions[game] = json.loads(answer.read())["version"]
        if answer.status != 201:
            raise RuntimeError(f"a move was refused: {answer.status}")
    connection.close()
    return versions


def hold_floor(work: Path, total: int):
    port = free_port()
    process = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "gunicorn"),
            "streams_floor:app",
            "--chdir",
            str(ROOT / "bench"),
            "--worker-class",
            "uvicorn_worker.UvicornWorker",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "1",
        ],
        stdout=(work / "floor.log").open("ab"),
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for("the floor", lambda: port_open(port), process=process)
        time.sleep(1)

        def figures() -> tuple[int, int]:
            children = subprocess.run(
                ["pgrep", "-P", str(process.pid)], capture_output=True, text=True
            ).stdout.split()
            memory = threads = 0
            for pid in children:
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        memory += int(line.split()[1]) * 1024
                    elif line.startswith("Threads:"):
                        threads += int(line.split()[1])
            return memory, threads

        async def hold():
            clients = [FloorClient(port) for _ in range(total)]
            result = [(0, figures())]
            opened = 0
            for step in steps_to(total):
                await open_all(clients[opened:step])
                opened = step
                await asyncio.sleep(1)
                result.append((step, figures()))
            for client in clients:
                client.close()
            return result

        return asyncio.run(hold())
    finally:
        process.terminate()
        process.wait(10)


# -- analysis -----------------------------------------------------------------------------------


def bot_replies(deployment: Stack, token: str, count: int) -> list[float]:
    """Seconds from a member's move to the greedy bot's, ``count`` times."""
    auth = {"Authorization": f"Token {token}"}
    replies: list[float] = []
    game = None
    while len(replies) < count:
        if game is None or game["status"] != "active":
            status, game = deployment.post(
                "/api/games/",
                {"game": GAME, "seats": [{"user": "player"}, {"bot": "greedy"}]},
                auth,
            )
        while game["current_player"] != 0 and game["status"] == "active":
            time.sleep(0.02)
            _, game = deployment.get(f"/api/games/{game['id']}/", auth)
        if game["status"] != "active":
            continue
        _, actions = deployment.get(f"/api/games/{game['id']}/actions/?seat=0", auth)
        body = {"seat": 0, "expected_version": game["version"], "action": actions[0]}
        status, moved = deployment.post(f"/api/games/{game['id']}/actions/", body, auth)
        sent = time.monotonic()
        if status != 201:
            raise RuntimeError(f"a move was refused: {moved}")
        while True:
            _, game = deployment.get(f"/api/games/{game['id']}/", auth)
            if game["status"] != "active" or game["current_player"] == 0:
                break
            time.sleep(0.02)
        if game["status"] == "active":
            replies.append(time.monotonic() - sent)
    return replies


def run_analysis(replies: int) -> None:
    with tempfile.TemporaryDirectory(prefix="hadal-bench-") as work:
        deployment = stack(Path(work))
        try:
            tokens = deployment.members(["analyst", "second", "player"])
            games = deployment.python(FINISHED_GAMES.format(count=20))
            quiet = bot_replies(deployment, tokens["player"], replies)
            stop = threading.Event()
            asked = {"started": 0, "refused": 0}

            def flood() -> None:
                while not stop.is_set():
                    for name in ("analyst", "second"):
                        for game in games:
                            status, _ = deployment.get(
                                f"/api/games/{game}/analysis/",
                                {"Authorization": f"Token {tokens[name]}"},
                            )
                            asked["started" if status in (200, 202) else "refused"] += 1

            flooding = threading.Thread(target=flood, daemon=True)
            flooding.start()
            busy = bot_replies(deployment, tokens["player"], replies)
            stop.set()
            flooding.join(30)
        finally:
            deployment.close()
    q, b = statistics.median(quiet), statistics.median(busy)
    print(f"bot reply, nothing queued: median {q * 1000:.0f} ms, worst {max(quiet) * 1000:.0f} ms")
    print(
        f"bot reply, analyses flooding ({asked['started']} answered 200/202, "
        f"{asked['refused']} refused): median {b * 1000:.0f} ms, worst {max(busy) * 1000:.0f} ms"
    )
    print(f"ratio (flooding / quiet, median): {b / q:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=["load", "streams", "analysis"])
    parser.add_argument("--clients", default="20,40,80")
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--streams", type=int, default=10_000)
    parser.add_argument("--replies", type=int, default=20)
    args = parser.parse_args()
    if not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("needs DATABASE_URL=postgres://... (a role that may create databases)")
    _common.header("the compose deployment on this machine", "PostgreSQL")
    if args.only in (None, "load"):
        print("\n-- a club's evening --")
        run_load([int(c) for c in args.clients.split(",")], args.seconds)
    if args.only in (None, "streams"):
        print("\n-- streams one web worker holds --")
        run_streams(args.streams)
    if args.only in (None, "analysis"):
        print("\n-- a bot's reply while analyses wait --")
        run_analysis(args.replies)


if __name__ == "__main__":
    main()
