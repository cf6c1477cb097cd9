"""League webhooks: the lag from a result's commit to its arrival at a receiver under a stream
of results, and deliveries a second draining a backlog, against bare POSTs to the receiver.

In a throwaway database (PostgreSQL when DATABASE_URL says so, else SQLite in a temporary
file), a club with one webhook (signed JSON) to a receiver this script runs on 127.0.0.1
(http.server, a thread per request, checking nothing: it notes when each message arrived).
One thread records club results as fast as it can, each through league.services.leagues
.match_record by an organiser (final at once), whose transaction writes the outbox row; a
second thread, the sender, drains the webhook each time a commit says there is something
(what a Celery worker does on league.tasks.deliver_webhook, without the broker's hop). The
ratings of each result run in-process after its commit, as the embedded default runs them:
the stream is as fast as one writer records results, and the lag is what a result waits.

Then a backlog (a receiver back after a while): ``--backlog`` messages waiting, drained by one
sender (league.webhooks.sending.drain: a transaction, the lock, a signed POST on a connection
of its own and the mark, per message); against, in the same run, the floor: as many bare
POSTs of a body of the same size, one after another, each on a connection of its own.

Printed: results/s of the stream and its lag p50/p99 (commit to arrival), then the backlog's
deliveries/s, the floor's POSTs/s and their ratio. Every message is checked to have arrived
exactly once and in order.

    .venv/bin/python bench/bench_outbox.py [--results 500] [--backlog 2000]
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal .venv/bin/python bench/bench_outbox.py
"""

from __future__ import annotations

import argparse
import http.client
import logging
import os
import statistics
import threading
import time
import warnings
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ["HADAL_WEBHOOKS_ALLOW_LOOPBACK"] = "1"  # the receiver is on 127.0.0.1
warnings.filterwarnings("ignore", message="No directory at")
import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402

from config.celery import app as celery_app  # noqa: E402
from league.models import Membership, OutboxMessage, Webhook  # noqa: E402
from league.services import leagues  # noqa: E402
from league.webhooks import facts, outbox, sending  # noqa: E402


class Receiver:
    def __init__(self) -> None:
        self.arrived: list[tuple[str, float]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                self.rfile.read(int(self.headers["Content-Length"]))
                with receiver.lock:
                    receiver.arrived.append((self.headers.get("webhook-id", ""), time.time()))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()


def run_stream(receiver: Receiver, count: int) -> tuple[float, list[float]]:
    """``count`` results recorded while a sender drains: deliveries/s and the lags (s)."""
    users = get_user_model().objects
    org = users.create_user("org", password="-")
    club = leagues.league_create(name="Harbour Club", created_by=org)
    for name in ("ann", "ben"):
        Membership.objects.create(league=club, user=users.create_user(name, password="-"))
    hook = Webhook.objects.create(
        league=club,
        url=f"http://127.0.0.1:{receiver.port}/hook",
        format="plain",
        secret="whsec_" + "QmVuY2ggc2VjcmV0IGZvciB3ZWJob29rcw==",
    )
    wake = threading.Event()
    done = threading.Event()
    outbox.send_soon = lambda ids: wake.set()  # the worker's task, without the broker

    def sender() -> None:
        while not done.is_set() or OutboxMessage.objects.filter(sent_at__isnull=True).exists():
            wake.wait(0.05)
            wake.clear()
            sending.drain(hook.pk)
        connection.close()

    committed: dict[int, float] = {}
    worker = threading.Thread(target=sender)
    worker.start()
    for n in range(count):
        results = [
            {"player": "ann", "score": 20 + n % 7, "rank": 1},
            {"player": "ben", "score": 10 + n % 5, "rank": 2},
        ]
        stamp: list[float] = []
        with transaction.atomic():
            # First in line once committed: before the ratings, and the sender's wake-up.
            transaction.on_commit(lambda stamp=stamp: stamp.append(time.time()))
            game = leagues.match_record(
                game="deep-sea-adventure",
                played_at="2026-11-20",
                results=results,
                recorded_by=org,
                league=club.slug,
            )
            message = OutboxMessage.objects.filter(webhook=hook).order_by("-seq").first()
            assert message is not None and message.data["game_id"] == game.pk
        committed[message.pk] = stamp[0]
    done.set()
    wake.set()
    worker.join()
    _check_order(receiver, sorted(committed))
    lags = [at - committed[int(mid[4:])] for mid, at in receiver.arrived]
    span = receiver.arrived[-1][1] - min(committed.values())
    return count / span, lags


def run_backlog(receiver: Receiver, count: int) -> float:
    """``count`` results waiting, drained by one sender: deliveries/s."""
    hook = Webhook.objects.get()
    receiver.arrived.clear()
    before = set(OutboxMessage.objects.values_list("pk", flat=True))
    fact = OutboxMessage.objects.order_by("-seq").first()
    with transaction.atomic():
        for _ in range(count):
            outbox.post([hook.league_id], facts.Fact(fact.type, fact.text, fact.data))
    start = time.perf_counter()
    while sending.drain(hook.pk).sent:
        pass
    rate = count / (time.perf_counter() - start)
    _check_order(receiver, sorted(set(OutboxMessage.objects.values_list("pk", flat=True)) - before))
    return rate


def _check_order(receiver: Receiver, pks: list[int]) -> None:
    if [mid for mid, _ in receiver.arrived] != [f"msg_{pk}" for pk in pks]:
        raise SystemExit("the messages did not arrive exactly once each, in order")


def run_floor(receiver: Receiver, count: int, size: int) -> float:
    """Bare POSTs of ``size`` bytes, one connection each: POSTs/s."""
    body = b"x" * size
    start = time.perf_counter()
    for _ in range(count):
        conn = http.client.HTTPConnection("127.0.0.1", receiver.port, timeout=5)
        conn.request("POST", "/hook", body=body, headers={"Content-Type": "application/json"})
        conn.getresponse().read()
        conn.close()
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--results", type=int, default=500)
    parser.add_argument("--backlog", type=int, default=2000)
    args = parser.parse_args()

    celery_app.conf.task_always_eager = True  # nothing else queued goes to a broker
    logging.disable(logging.INFO)  # not a line for each rating task
    database = _common.ThrowawayDatabase()
    try:
        version = ".".join(map(str, connection.get_database_version()))
        _common.header("webhook outbox vs bare POSTs", f"{connection.vendor} {version}")
        receiver = Receiver()
        stream, lags = run_stream(receiver, args.results)
        ms = sorted(lag * 1000 for lag in lags)
        p50, p99 = ms[len(ms) // 2], ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"stream: {args.results} results at {stream:,.1f}/s, each delivered once, in order")
        print(f"lag from a result's commit to its arrival: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
        drained = run_backlog(receiver, args.backlog)
        size = round(statistics.mean(len(str(m.data)) for m in OutboxMessage.objects.all()))
        floor = run_floor(receiver, args.backlog, size + 60)
        print(f"backlog: {args.backlog} messages drained at {drained:,.0f} deliveries/s")
        print(f"floor, bare POSTs to the same receiver: {floor:,.0f}/s")
        print(f"ratio floor / deliveries: {floor / drained:.2f}x")
    finally:
        database.drop()


if __name__ == "__main__":
    main()
