"""Appends per second: Hadal's store against pyeventsourcing's PostgreSQL aggregate recorder,
on the same server, in one run.

Each writer is a thread with a database connection of its own and a stream of its own, and
appends ``--events`` events at a time (the size of a typical move: the decision and the chance
that follows). Hadal's writes go through ``games.store.write`` — the version check, the events
and the Game row's projection in one statement — as a move does. pyeventsourcing's go through
``PostgresAggregateRecorder.insert_events``, its INSERT of stored events with a unique
(originator_id, originator_version) key, nothing else: the least an event store can do. A
third, the floor with a head row, is the least a store keeping our guarantee can do: the same
INSERT plus a version-checked UPDATE of a narrow row in the same statement, from psycopg.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal .venv/bin/python bench/bench_store.py \\
        [--seconds 5] [--writers 1,8] [--events 2] [--repeats 3]

Both write into a throwaway database (bench_store_<name>), created and dropped by the run.
"""

from __future__ import annotations

import argparse
import os
import statistics
import threading
import time
import uuid
import warnings

import _common

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("CONN_MAX_AGE", "600")
warnings.filterwarnings("ignore", message="No directory at")
import django  # noqa: E402
import psycopg  # noqa: E402

django.setup()

from django.db import connection, connections  # noqa: E402
from eventsourcing.persistence import StoredEvent  # noqa: E402
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore  # noqa: E402

from games import store  # noqa: E402
from games.models import EventKind, Game  # noqa: E402
from games.rules import get_rules  # noqa: E402
from games.store import NewEvent  # noqa: E402

SLUG = "deep-sea-adventure"
STATE = b'{"action": {"type": "roll", "dice": [2, 3]}}'
TOPIC = "hadal.bench:Moved"


def run_writers(count: int, seconds: float, append) -> int:
    """Start ``count`` threads calling ``append(writer, i)`` until the time is up; events."""
    done = [0] * count
    stop = time.perf_counter() + seconds
    barrier = threading.Barrier(count)

    def writer(index: int) -> None:
        barrier.wait()
        i = 0
        while time.perf_counter() < stop:
            done[index] += append(index, i)
            i += 1
        connections.close_all()

    threads = [threading.Thread(target=writer, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return sum(done)


def server() -> dict:
    """The bench database's connection parameters, for the contenders that connect themselves."""
    settings = connection.settings_dict
    return {
        "dbname": settings["NAME"],
        "host": settings["HOST"] or "127.0.0.1",
        "port": settings["PORT"] or 5432,
        "user": settings["USER"],
        "password": settings["PASSWORD"] or "",
    }


class Hadal:
    """Writers on streams of their own: one Game row each, written by store.write."""

    def __init__(self, writers: int, events: int):
        rules = get_rules(SLUG)
        self.events = events
        self.heads = []
        for _ in range(writers):
            game = Game.objects.create(
                slug=SLUG, rules_version=rules.spec.version, options={}, num_players=2
            )
            self.heads.append(store.head_of(game))

    def append(self, writer: int, i: int) -> int:
        head = self.heads[writer]
        batch = [NewEvent(EventKind.ACTION_APPLIED, {"action": {"type": "continue"}}, seat=0)]
        batch += [
            NewEvent(EventKind.CHANCE_RESOLVED, {"action": {"type": "roll", "dice": [2, 3]}})
        ] * (self.events - 1)
        _, self.heads[writer] = store.write(
            head, head.version, batch, projection={"current_player": i % 2}
        )
        return self.events


class Peer:
    """pyeventsourcing's recorder, on the same server and database."""

    def __init__(self, writers: int, events: int):
        self.datastore = PostgresDatastore(**server(), pool_size=writers)
        self.recorder = PostgresAggregateRecorder(
            self.datastore, events_table_name="peer_stored_events"
        )
        self.recorder.create_table()
        self.streams = [uuid.uuid4() for _ in range(writers)]
        self.versions = [0] * writers
        self.events = events

    def append(self, writer: int, i: int) -> int:
        first = self.versions[writer] + 1
        self.recorder.insert_events(
            [
                StoredEvent(
                    originator_id=self.streams[writer],
                    originator_version=first + k,
                    topic=TOPIC,
                    state=STATE,
                )
                for k in range(self.events)
            ]
        )
        self.versions[writer] += self.events
        return self.events

    def close(self) -> None:
        self.datastore.close()


def floor_tables(cursor, heads: int) -> None:
    """(Re)make the floor's two tables, empty, with ``heads`` head rows at version 0 (ids from 0)."""
    cursor.execute(
        "CREATE TABLE IF NOT EXISTS floor_head (id bigint PRIMARY KEY,"
        " version integer NOT NULL, current_player smallint)"
    )
    cursor.execute(
        "CREATE TABLE IF NOT EXISTS floor_event (stream bigint NOT NULL,"
        " version integer NOT NULL, topic text NOT NULL, state bytea NOT NULL,"
        " PRIMARY KEY (stream, version))"
    )
    cursor.execute("TRUNCATE floor_head, floor_event")
    for n in range(heads):
        cursor.execute("INSERT INTO floor_head VALUES (%s, 0, 0)", [n])


def floor_sql(events: int) -> str:
    """The floor's append of ``events`` events. Parameters: the new version, whose turn, the
    head's id, the expected version, the stream, then (version, topic, state) of each event."""
    rows = ", ".join(["(%s::integer, %s::text, %s::bytea)"] * events)
    return (
        "WITH head AS (UPDATE floor_head SET version = %s, current_player = %s"
        " WHERE id = %s AND version = %s RETURNING id)"
        " INSERT INTO floor_event (stream, version, topic, state)"
        f" SELECT %s, v.* FROM (VALUES {rows}) AS v(version, topic, state)"
        " WHERE EXISTS (SELECT 1 FROM head)"
    )


class HeadFloor:
    """What the store's guarantee costs at least, with no Python of ours: through psycopg, one
    statement updating a narrow head row only at the expected version and inserting the
    events (pyeventsourcing's table shape) only if it did. The head row is the projection a
    move keeps in the same transaction (version, whose turn), which a pure recorder has not."""

    def __init__(self, writers: int, events: int):
        self.connections = [psycopg.connect(**server(), autocommit=True) for _ in range(writers)]
        with self.connections[0].cursor() as cursor:
            floor_tables(cursor, writers)
        self.versions = [0] * writers
        self.events = events
        self.sql = floor_sql(events)

    def append(self, writer: int, i: int) -> int:
        expected = self.versions[writer]
        params: list = [expected + self.events, i % 2, writer, expected, writer]
        for k in range(self.events):
            params += [expected + 1 + k, TOPIC, STATE]
        with self.connections[writer].cursor() as cursor:
            cursor.execute(self.sql, params, prepare=True)
            if cursor.rowcount != self.events:
                raise RuntimeError("the floor's version check refused its own append")
        self.versions[writer] += self.events
        return self.events

    def close(self) -> None:
        for conn in self.connections:
            conn.close()


CONTENDERS = {"Hadal": Hadal, "pyeventsourcing": Peer, "floor": HeadFloor}  # in this order


def measure(kind, writers: int, events: int, seconds: float) -> tuple[float, float]:
    """Events a second, and this process's CPU time per append in ms (the database server's
    is not in it: with one writer, what the contender's Python costs an append)."""
    subject = kind(writers, events)
    try:
        start = time.process_time()
        done = run_writers(writers, seconds, subject.append)
        return done / seconds, (time.process_time() - start) * 1000 / (done / events)
    finally:
        if hasattr(subject, "close"):
            subject.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="per measurement")
    parser.add_argument("--writers", default="1,8", help="comma-separated writer counts")
    parser.add_argument("--events", type=int, default=2, help="events per append")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench_store compares PostgreSQL recorders: set DATABASE_URL=postgres://")
    database = _common.ThrowawayDatabase("bench_store")
    try:
        version = ".".join(map(str, connection.get_database_version()))
        _common.header("Appends: Hadal's store vs pyeventsourcing", f"PostgreSQL {version}")
        print(
            f"{args.events} events per append, {args.seconds:g} s per measurement, best"
            f" (median) of {args.repeats}, alternating"
        )
        for writers in map(int, args.writers.split(",")):
            # name -> (events/s, CPU ms an append) of each repeat
            runs: dict[str, list[tuple[float, float]]] = {name: [] for name in CONTENDERS}
            for _ in range(args.repeats):
                for name, kind in CONTENDERS.items():
                    runs[name].append(measure(kind, writers, args.events, args.seconds))
            ours, theirs, floor = ([rate for rate, _ in runs[name]] for name in CONTENDERS)
            print(
                f"{writers} writer(s): Hadal {max(ours):,.0f} ({statistics.median(ours):,.0f})"
                f" events/s, pyeventsourcing {max(theirs):,.0f}"
                f" ({statistics.median(theirs):,.0f}) events/s;"
                f" Hadal / pyeventsourcing {max(ours) / max(theirs):.2f}x"
                f" ({statistics.median(ours) / statistics.median(theirs):.2f}x)"
            )
            print(
                f"  floor with a head row (psycopg, one statement) {max(floor):,.0f}"
                f" ({statistics.median(floor):,.0f}) events/s:"
                f" floor / pyeventsourcing {max(floor) / max(theirs):.2f}x"
                f" ({statistics.median(floor) / statistics.median(theirs):.2f}x),"
                f" Hadal / floor {max(ours) / max(floor):.2f}x"
                f" ({statistics.median(ours) / statistics.median(floor):.2f}x)"
            )
            print(
                "  this process's CPU per append (median): "
                + ", ".join(
                    f"{name} {statistics.median(ms for _, ms in run):.3f} ms"
                    for name, run in runs.items()
                )
            )
    finally:
        database.drop(close_connections=True)


if __name__ == "__main__":
    main()
