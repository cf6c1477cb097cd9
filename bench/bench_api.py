"""An API move round trip against two floors, in one process on one database.

All three go through django.test.Client, so through the full middleware stack, with the same
token header and a JSON body of the same shape. The measured span is the POST alone:
  - API move: POST /api/games/{id}/actions/ with a legal move of a 2-player Deep Sea Adventure
    game between two token users (the server resolves the chance that follows in the same
    request). Before each move, and outside the measured span, GET /api/games/{id}/ gives the
    version and the seat to act, and GET /api/games/{id}/actions/?seat=N the legal moves, one of
    which is picked at random. A finished game is replaced by a new one (also unmeasured).
  - bare insert: POST /bench/bare/ to a plain Django function view that parses the body and
    INSERTs it into a table the bench creates with raw SQL, answering JsonResponse 201. It
    gets the token header too but, being no DRF view, does not look it up: it is the floor.
The two kinds of request alternate, so machine noise lands on both alike.

Runs in a throwaway test database: SQLite (in memory, or a temporary file with --sqlite-file)
by default, PostgreSQL when DATABASE_URL says so (test database bench_<name>, so the test
suite's test_<name> is never touched).

    .venv/bin/python bench/bench_api.py [--moves 500] [--warmup 20] [--sqlite-file] [--steps]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal .venv/bin/python bench/bench_api.py
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import time
import warnings

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Persistent connections as docker-compose.yml serves (CONN_MAX_AGE=60); with 0 every request
# would open a new connection, a cost both sides would pay. Set CONN_MAX_AGE=0 to see it.
os.environ.setdefault("CONN_MAX_AGE", "60")
warnings.filterwarnings("ignore", message="No directory at")  # whitenoise without collectstatic
import django  # noqa: E402

django.setup()

import peer  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.http import HttpResponseNotAllowed, JsonResponse  # noqa: E402
from django.test import Client, override_settings  # noqa: E402
from django.test.utils import (  # noqa: E402
    CaptureQueriesContext,
)
from django.urls import path  # noqa: E402
from django.views.decorators.csrf import csrf_exempt  # noqa: E402

import config.urls  # noqa: E402
import games.api.play  # noqa: E402
from accounts.tokens import password_token_create  # noqa: E402
from config.celery import app as celery_app  # noqa: E402
from games import logchain, store  # noqa: E402
from games.play import services  # noqa: E402
from games.play.services import game_create  # noqa: E402
from games.store import writer  # noqa: E402

SLUG = "deep-sea-adventure"


@csrf_exempt  # the test client skips CSRF anyway; an API-style endpoint would be exempt too
def bare(request):
    """The floor: parse a small JSON body and insert it as one row."""
    if request.method != "POST":
        return HttpResponseNotAllowed(["POST"])
    payload = json.loads(request.body)
    with connection.cursor() as cursor:
        cursor.execute("INSERT INTO bench_row (payload) VALUES (%s)", [json.dumps(payload)])
    return JsonResponse({"ok": True}, status=201)


# This module is the URLconf for the run: the project's URLs plus the two floors.
urlpatterns = [
    *config.urls.urlpatterns,
    path("bench/bare/", bare),
    path("bench/peer/", peer.Peer.as_view()),
]


def create_bench_tables() -> None:
    key = "serial" if connection.vendor == "postgresql" else "integer"
    with connection.cursor() as cursor:
        cursor.execute(f"CREATE TABLE bench_row (id {key} PRIMARY KEY, payload text)")
    peer.create_table()


class Table:
    """Two users with tokens and the game between them; hands out the next legal move."""

    def __init__(self, rng: random.Random, names: tuple[str, str] = ("bench-a", "bench-b")):
        users = [
            get_user_model().objects.create_user(name, password="bench-pass-1") for name in names
        ]
        self.users = users
        self.clients = [
            Client(HTTP_AUTHORIZATION=f"Token {password_token_create(user=u)}") for u in users
        ]
        self.rng = rng
        self.games = 0
        self.new_game()

    def new_game(self) -> None:
        game = game_create(
            slug=SLUG,
            seats=[{"user": u.username} for u in self.users],
            options={},
            created_by=self.users[0],
        )
        self.game_id = game.pk
        self.games += 1

    def next_move(self) -> tuple[Client, str, dict]:
        """(client of the seat to act, URL, body) for a legal move; reads are not measured."""
        detail = self.clients[0].get(f"/api/games/{self.game_id}/").json()
        if detail["status"] != "active":
            self.new_game()
            detail = self.clients[0].get(f"/api/games/{self.game_id}/").json()
        seat = detail["current_player"]
        url = f"/api/games/{self.game_id}/actions/"
        legal = self.clients[seat].get(url, {"seat": seat}).json()
        body = {
            "seat": seat,
            "expected_version": detail["version"],
            "action": self.rng.choice(legal),
        }
        return self.clients[seat], url, body


def timed_post(client: Client, url: str, body: dict) -> float:
    start = time.perf_counter()
    response = client.post(url, body, content_type="application/json")
    elapsed = time.perf_counter() - start
    if response.status_code != 201:
        sys.exit(f"POST {url} {body} -> {response.status_code}: {response.content[:300]!r}")
    return elapsed


QUERY_SAMPLE = 20


def measure(moves: int, warmup: int, seed: int, profiler=None):
    """Per-request seconds of API moves and bare inserts, games played, queries per request.
    With a ``profiler``, it runs during the measured API moves only."""
    table = Table(random.Random(seed))
    api, floor, peer = [], [], []
    for i in range(warmup + moves):
        client, url, body = table.next_move()
        if profiler is not None and i >= warmup:
            profiler.enable()
        api_s = timed_post(client, url, body)
        if profiler is not None:
            profiler.disable()
        # The floors get the same client, token header and body shape as the move.
        floor_s = timed_post(client, "/bench/bare/", body)
        peer_s = timed_post(client, "/bench/peer/", body)
        if i >= warmup:
            api.append(api_s)
            floor.append(floor_s)
            peer.append(peer_s)
    # Query counts after the timing, so counting costs the measured requests nothing.
    counts = [0, 0, 0]
    for _ in range(QUERY_SAMPLE):
        client, url, body = table.next_move()
        for k, target in enumerate((url, "/bench/bare/", "/bench/peer/")):
            with CaptureQueriesContext(connection) as captured:
                timed_post(client, target, body)
            counts[k] += len(captured)
    return api, floor, peer, table.games, [c / QUERY_SAMPLE for c in counts]


# Where a move's time goes (--steps): each span is a function the move calls, timed inclusive
# in CPU time (SQLite in memory runs in this process, so CPU time is the request's whole cost
# and stays put on a loaded machine); the step is the span less the spans inside it.
SPANS = [  # (step, module, function, the span it lies in)
    ("request: middleware, DRF, token", None, None, None),
    ("the view: parse, answer", games.api.play.GameActionsApi, "post", "request"),
    ("check the seat", services, "move_append", "the view"),
    ("rules, chance, clock, head kept", services, "_append_decision", "check the seat"),
    ("the store: transaction, rows", store, "write", "rules, chance"),
    ("hash chain", logchain, "chain", "the store"),
    ("SQL statements", writer, "_WRITERS", "the store"),
    ("streams and turn notices", writer, "_receivers", "the store"),  # games.live.push's
]


class Steps:
    """CPU time spent in each span of the move path, per request."""

    def __init__(self) -> None:
        self.spent: dict[str, list[float]] = {step: [] for step, *_ in SPANS}
        self.floors: dict[str, list[float]] = {}
        self.on = False
        for step, owner, name, _ in SPANS:
            if owner is None:
                continue
            if name == "_WRITERS":
                owner._WRITERS = {k: self._timed(step, f) for k, f in owner._WRITERS.items()}
            elif name == "_receivers":
                owner._receivers[:] = [self._timed(step, f) for f in owner._receivers]
            else:
                setattr(owner, name, self._timed(step, getattr(owner, name)))

    def _timed(self, step: str, function):
        def timed(*args, **kwargs):
            if not self.on:
                return function(*args, **kwargs)
            start = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                self.spent[step].append(time.process_time() - start)

        return timed

    def post(self, client: Client, url: str, body: dict) -> None:
        """The move with its steps timed, then the two floors, each in CPU time."""
        self.on = True
        start = time.process_time()
        try:
            timed_post(client, url, body)
        finally:
            self.spent[SPANS[0][0]].append(time.process_time() - start)
            self.on = False
        for floor in ("/bench/bare/", "/bench/peer/"):
            start = time.process_time()
            timed_post(client, floor, body)
            self.floors.setdefault(floor, []).append(time.process_time() - start)

    def report(self, requests: int) -> None:
        per = {step: sum(times) / requests for step, times in self.spent.items()}
        inner: dict[str, float] = dict.fromkeys(per, 0.0)
        for step, _, _, parent in SPANS:
            if parent is not None:
                inner[next(s for s, *_ in SPANS if s.startswith(parent))] += per[step]
        total = per[SPANS[0][0]]
        print(f"Where an API move's CPU time goes (mean of {requests}; SQLite in memory):")
        for step, *_ in SPANS:
            own = per[step] - inner[step]
            print(f"  {step:<36} {own * 1e6:7.1f} us  {own / total:6.1%}")
        print(f"  {'the whole request':<36} {total * 1e6:7.1f} us")
        bare, peer = (sum(self.floors[f]) / requests for f in ("/bench/bare/", "/bench/peer/"))
        print(
            f"  bare insert {bare * 1e6:.1f} us, DRF peer {peer * 1e6:.1f} us in CPU time:"
            f" move / bare {total / bare:.2f}x, move / peer {total / peer:.2f}x"
        )


def report(name: str, seconds: list[float]) -> tuple[float, float]:
    ms = [s * 1000 for s in seconds]
    mean, median = statistics.fmean(ms), statistics.median(ms)
    p95 = statistics.quantiles(ms, n=20)[-1]
    print(
        f"{name:<38} mean {mean:7.3f} ms  median {median:7.3f} ms  p95 {p95:7.3f} ms"
        f"  ({1000 / mean:,.0f} req/s)"
    )
    return mean, median


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=500, help="measured requests of each kind")
    parser.add_argument("--warmup", type=int, default=20, help="unmeasured requests first")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--sqlite-file",
        action="store_true",
        help="SQLite test database in a temporary file instead of in memory",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile the API moves (cProfile; the ratios then mean little) and print the top",
    )
    parser.add_argument(
        "--profile-out", metavar="FILE", help="with --profile, also save the profile for pstats"
    )
    parser.add_argument(
        "--steps",
        action="store_true",
        help="after the measurement, time each step of more moves in CPU time and print where"
        " a move's time goes (SQLite only: a server's own time is not this process's)",
    )
    args = parser.parse_args()
    if args.steps and connection.vendor != "sqlite":
        parser.error("--steps needs SQLite: PostgreSQL's work is not this process's CPU time")

    # As served with a broker: the request only enqueues what follows (the rating of a finished
    # game), onto an in-memory broker nothing consumes; eager mode would run it in the request.
    celery_app.conf.task_always_eager = False
    celery_app.conf.broker_url = "memory://"
    database = _common.ThrowawayDatabase(sqlite_file=args.sqlite_file)
    try:
        version = ".".join(map(str, connection.get_database_version()))
        where = connection.settings_dict["NAME"]
        if connection.vendor == "sqlite" and connection.creation.is_in_memory_db(where):
            where = "in memory"
        _common.header(
            "API move vs bare insert view",
            f"{connection.vendor} {version} ({where},"
            f" CONN_MAX_AGE={connection.settings_dict['CONN_MAX_AGE']})",
        )
        create_bench_tables()
        with override_settings(ROOT_URLCONF=__name__):
            profiler = cProfile.Profile() if args.profile else None
            api, floor, peer, games, queries = measure(args.moves, args.warmup, args.seed, profiler)
        print(
            f"{args.moves} measured POSTs of each kind after {args.warmup} warm-up;"
            f" {games} games of 2-player {SLUG}"
        )
        api_mean, api_median = report("API move POST /api/games/{id}/actions/", api)
        bare_mean, bare_median = report("bare insert POST /bench/bare/", floor)
        peer_mean, peer_median = report("DRF peer POST /bench/peer/", peer)
        print(
            f"ratio API move / bare insert: mean {api_mean / bare_mean:.2f}x,"
            f" median {api_median / bare_median:.2f}x"
        )
        print(
            f"ratio API move / DRF peer:    mean {api_mean / peer_mean:.2f}x,"
            f" median {api_median / peer_median:.2f}x"
        )
        print(
            f"SQL queries per request (counted on {QUERY_SAMPLE} more of each, unmeasured):"
            f" API move {queries[0]:.1f}, bare insert {queries[1]:.1f},"
            f" DRF peer {queries[2]:.1f}"
        )
        if args.steps:
            steps, table = Steps(), Table(random.Random(args.seed), ("steps-a", "steps-b"))
            with override_settings(ROOT_URLCONF=__name__):
                for _ in range(args.moves):
                    steps.post(*table.next_move())
            steps.report(args.moves)
        if profiler is not None:
            pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
            if args.profile_out:
                profiler.dump_stats(args.profile_out)
    finally:
        database.drop()


if __name__ == "__main__":
    main()
