"""An append's statement alone, in the server: Hadal's write against pyeventsourcing's insert
and the floor with a head row, driven by pgbench (C, no Python on the client's side), in one run.

bench_store.py measures whole appends, with each library's Python in them. This bench takes
the client away to show what each statement costs PostgreSQL: pgbench sends the same
statements as prepared statements, with the same parameters, from 1 and from 8 connections on
streams of their own.

  - Hadal: the statement `games.store.write` builds for a bench_store append (the head's
    version, time, whose turn and fingerprint; two events of ten columns).
  - pyeventsourcing: `PostgresAggregateRecorder`'s own INSERT ... FROM unnest(...) into its own
    table, with the array of stored events built in the statement (psycopg sends it as one
    parameter; pgbench cannot) and the stream's UUID made from the client's number.
  - floor: bench_store.py's floor with a head row (a narrow head updated at the expected
    version, the events in pyeventsourcing's shape, one statement).

With --variants, Hadal's statement also runs against copies of its tables changed one way each,
to show what the table's shape costs: the head in a narrow table of the five columns a move
writes (`narrow head`), games_game with its primary key as its only index (`head, key only`),
the events keyed by (game_id, seq) with no id (`events without id`), both the narrow head and the
keyed events (`both`).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/hadal .venv/bin/python bench/bench_statement.py \\
        [--seconds 4] [--writers 1,8] [--repeats 3] [--commit off,on] [--variants]

`--commit off` runs with synchronous_commit off, so that the time is the statement's work and
not the disk's flush; `on` is as deployed. Needs pgbench (on Debian it comes with the
server's package, postgresql-15). Writes into a throwaway database (bench_statement_<name>), created and dropped
by the run; every run checks that each transaction wrote its events.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field

import _common
import bench_store  # sets Django up, as bench_store does
from django.db import connection
from eventsourcing.postgres import PostgresAggregateRecorder, PostgresDatastore

from games.models import EventKind
from games.store import postgresql

EVENTS = 2  # a move: the decision and the chance after it, as bench_store appends
STATE = "\\x" + bench_store.STATE.hex()  # bytea's text form
FINGERPRINT = "9e83cfe96b93a0f449cc36d46996e773777fa5509f2d7ab5474089b86237b514"
DATA = ('{"action":{"type":"continue"}}', '{"action":{"dice":[2,3],"type":"roll"}}')
KINDS = (EventKind.ACTION_APPLIED, EventKind.CHANCE_RESOLVED)
# The head's columns a bench_store append writes (updated_at moves once a minute: not here).
HEAD_COLUMNS = ("version", "moved_at", "current_player", "fingerprint")


def constants() -> dict[str, str]:
    """pgbench variables (-D) for the values that are the same in every transaction."""
    return {
        "now": "2026-12-03 12:00:00+00:00",
        "fp": FINGERPRINT,
        "topic": bench_store.TOPIC,
        "state": STATE,
        **{f"kind{k}": str(KINDS[k]) for k in range(EVENTS)},
        **{f"data{k}": DATA[k] for k in range(EVENTS)},
    }


def fill(sql: str, values: list[str]) -> str:
    """``sql`` with its %s placeholders replaced, in order, by ``values`` (pgbench variables
    such as ``:v``, which pgbench sends as parameters, or SQL such as ``NULL``)."""
    parts = sql.split("%s")
    if len(parts) != len(values) + 1:
        raise ValueError(f"{len(parts) - 1} placeholders for {len(values)} values")
    return parts[0] + "".join(value + part for value, part in zip(values, parts[1:]))


def versions_script(statement: str) -> str:
    """A pgbench script: the versions this transaction writes (each client's :v persists from
    one transaction to the next), the statement, the version moved on."""
    sets = [f"\\set nv :v + {EVENTS}"] + [f"\\set s{k} :v + {k + 1}" for k in range(EVENTS)]
    return "\n".join([*sets, statement + ";", f"\\set v :v + {EVENTS}"]) + "\n"


def hadal_statement(head_table: str = "games_game", event_table: str = "games_event") -> str:
    sql = postgresql.write_sql(HEAD_COLUMNS, EVENTS, (), None)
    values = [":nv", ":now", "1", ":fp", ":g", ":v"]
    for k in range(EVENTS):
        # game_id, seq, kind, data, seat, actor_id, created_at, batch, idempotency_key, hash
        seat = "0" if k == 0 else "NULL"
        values += [":g", f":s{k}", f":kind{k}", f":data{k}", seat, "NULL", ":now", ":s0"]
        values += ["NULL", ":fp"]
    sql = fill(sql, values)
    sql = sql.replace("UPDATE games_game ", f"UPDATE {head_table} ")
    sql = sql.replace("INSERT INTO games_event ", f"INSERT INTO {event_table} ")
    if event_table != "games_event" and "id" not in column_names(event_table):
        sql = sql.replace("RETURNING id, seq)", "RETURNING seq)").replace(
            "SELECT id FROM new", "SELECT seq FROM new"
        )
    return "\\set g :client_id + :first\n" + versions_script(sql)


def column_names(table: str) -> set[str]:
    with connection.cursor() as cursor:
        return {c.name for c in connection.introspection.get_table_description(cursor, table)}


@dataclass
class Contender:
    name: str
    script: str
    table: str  # where its events land: counted before and after each run
    prepare: Callable[[int], dict[str, str]]  # before each run, given the connections: variables
    runs: dict[tuple[int, str], list[tuple[float, float]]] = field(default_factory=dict)


def new_games(writers: int) -> int:
    """Fresh streams for a run: ``writers`` new games at version 0; the first one's id."""
    ids = [head.id for head in bench_store.Hadal(writers, EVENTS).heads]
    if ids != list(range(ids[0], ids[0] + writers)):
        raise RuntimeError("the bench's games did not get consecutive ids")
    return ids[0]


def hadal_contenders(variants: bool) -> list[Contender]:
    def games(writers: int) -> dict[str, str]:
        return {"first": str(new_games(writers))}

    found = [Contender("Hadal", hadal_statement(), "games_event", games)]
    if not variants:
        return found
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE variant_head (id bigint PRIMARY KEY, version integer NOT NULL,"
            " current_player smallint, moved_at timestamptz NOT NULL,"
            " fingerprint varchar(64) NOT NULL) WITH (fillfactor = 80)"
        )
        cursor.execute(
            "CREATE TABLE variant_game (LIKE games_game INCLUDING DEFAULTS INCLUDING CONSTRAINTS"
            " INCLUDING IDENTITY) WITH (fillfactor = 80)"
        )
        cursor.execute("ALTER TABLE variant_game ADD PRIMARY KEY (id)")
        cursor.execute(
            "CREATE TABLE variant_event (LIKE games_event INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"
        )
        cursor.execute("ALTER TABLE variant_event DROP COLUMN id")
        cursor.execute("ALTER TABLE variant_event ADD PRIMARY KEY (game_id, seq)")
        cursor.execute(
            "CREATE UNIQUE INDEX ON variant_event (game_id, idempotency_key)"
            " WHERE idempotency_key IS NOT NULL"
        )

    def copied(table: str, columns: str):
        def prepare(writers: int) -> dict[str, str]:
            first = new_games(writers)
            with connection.cursor() as cursor:
                cursor.execute(
                    f"INSERT INTO {table} SELECT {columns} FROM games_game WHERE id >= %s",
                    [first],
                )
            return {"first": str(first)}

        return prepare

    narrow = copied("variant_head", "id, version, current_player, moved_at, fingerprint")
    return found + [
        Contender("narrow head", hadal_statement("variant_head"), "games_event", narrow),
        Contender(
            "head, key only",
            hadal_statement("variant_game"),
            "games_event",
            copied("variant_game", "*"),
        ),
        Contender(
            "events without id",
            hadal_statement(event_table="variant_event"),
            "variant_event",
            games,
        ),
        Contender(
            "both", hadal_statement("variant_head", "variant_event"), "variant_event", narrow
        ),
    ]


def peer_contender(datastore: PostgresDatastore) -> Contender:
    recorder = PostgresAggregateRecorder(datastore, events_table_name="peer_stored_events")
    recorder.create_table()
    with datastore.get_connection() as conn:
        sql = recorder.insert_events_statement.as_string(conn)
    events = ", ".join(
        "ROW(('00000000-0000-0000-0000-' || lpad(:stream::text, 12, '0'))::uuid,"
        f" :s{k}::bigint, :topic::text, :state::bytea)"
        for k in range(EVENTS)
    )
    sql = fill(sql, [f"ARRAY[{events}]"])
    base = [0]

    def streams(writers: int) -> dict[str, str]:
        base[0] += writers  # new streams for each run
        return {"first": str(base[0])}

    script = "\\set stream :client_id + :first\n" + versions_script(sql)
    return Contender("pyeventsourcing", script, "peer_stored_events", streams)


def floor_contender() -> Contender:
    values = [":nv", "1", ":client_id", ":v", ":client_id::bigint"]
    for k in range(EVENTS):
        values += [f":s{k}", ":topic", ":state"]
    sql = fill(bench_store.floor_sql(EVENTS), values)

    def heads(writers: int) -> dict[str, str]:
        with connection.cursor() as cursor:
            bench_store.floor_tables(cursor, writers)
        return {}

    return Contender("floor", versions_script(sql), "floor_event", heads)


def count(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT count(*) FROM {table}")
        return cursor.fetchone()[0]


def run(contender: Contender, writers: int, commit: str, seconds: float) -> tuple[float, float]:
    """One pgbench run: events a second, and the mean latency of a statement in µs."""
    variables = {**constants(), "v": "0", **contender.prepare(writers)}
    settings = bench_store.server()
    with tempfile.NamedTemporaryFile("w", suffix=".sql", delete=False) as script:
        script.write(contender.script)
    before = count(contender.table)
    try:
        command = ["pgbench", "-n", "-M", "prepared", "-c", str(writers), "-j", str(writers)]
        command += ["-T", f"{seconds:g}", "-f", script.name]
        command += ["-h", settings["host"], "-p", str(settings["port"]), "-U", settings["user"]]
        for name, value in variables.items():
            command += ["-D", f"{name}={value}"]
        env = {
            **os.environ,
            "PGPASSWORD": settings["password"],
            "PGOPTIONS": f"-c synchronous_commit={commit}",
        }
        done = subprocess.run(
            [*command, settings["dbname"]], capture_output=True, text=True, env=env
        )
    finally:
        os.unlink(script.name)
    if done.returncode != 0:
        raise RuntimeError(f"pgbench failed for {contender.name}:\n{done.stderr}{done.stdout}")
    transactions = int(pgbench_figure(r"actually processed: (\d+)", done.stdout))
    latency = float(pgbench_figure(r"latency average = ([\d.]+) ms", done.stdout))
    written = count(contender.table) - before
    if written != transactions * EVENTS:
        raise RuntimeError(
            f"{contender.name}: {transactions} transactions wrote {written} events, not"
            f" {transactions * EVENTS}: a version check refused its own append"
        )
    return written / seconds, latency * 1000


def pgbench_figure(pattern: str, output: str) -> str:
    found = re.search(pattern, output)
    if found is None:
        raise RuntimeError(f"pgbench printed no {pattern!r}:\n{output}")
    return found.group(1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=4.0, help="per measurement")
    parser.add_argument("--writers", default="1,8", help="comma-separated connection counts")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--commit", default="off,on", help="synchronous_commit: off, on or both")
    parser.add_argument("--variants", action="store_true", help="also Hadal on changed tables")
    args = parser.parse_args()
    if connection.vendor != "postgresql":
        raise SystemExit("bench_statement measures PostgreSQL: set DATABASE_URL=postgres://")
    if shutil.which("pgbench") is None:
        raise SystemExit("bench_statement needs pgbench on the PATH")
    database = _common.ThrowawayDatabase("bench_statement")
    datastore = None
    try:
        datastore = PostgresDatastore(**bench_store.server(), pool_size=1)
        hadal, *variants = hadal_contenders(args.variants)
        contenders = [hadal, peer_contender(datastore), floor_contender(), *variants]
        version = ".".join(map(str, connection.get_database_version()))
        _common.header("An append's statement in the server: Hadal vs pyeventsourcing", version)
        print(
            f"pgbench, prepared statements, {EVENTS} events a statement, {args.seconds:g} s a"
            f" run, best (median) of {args.repeats}, alternating"
        )
        for writers in map(int, args.writers.split(",")):
            for commit in args.commit.split(","):
                for _ in range(args.repeats):
                    for contender in contenders:
                        result = run(contender, writers, commit, args.seconds)
                        contender.runs.setdefault((writers, commit), []).append(result)
                report(contenders, writers, commit)
    finally:
        if datastore is not None:
            datastore.close()
        database.drop(close_connections=True)


def report(contenders: list[Contender], writers: int, commit: str) -> None:
    print(f"{writers} connection(s), synchronous_commit {commit}:")
    rates = {c.name: [rate for rate, _ in c.runs[(writers, commit)]] for c in contenders}
    peer = rates["pyeventsourcing"]
    for contender in contenders:
        runs = contender.runs[(writers, commit)]
        rate = rates[contender.name]
        micros = statistics.median(us for _, us in runs)
        print(
            f"  {contender.name:<18} {max(rate):>8,.0f} ({statistics.median(rate):,.0f}) events/s,"
            f" {micros:6.1f} µs a statement (median);"
            f" / pyeventsourcing {max(rate) / max(peer):.2f}x"
            f" ({statistics.median(rate) / statistics.median(peer):.2f}x)"
        )


if __name__ == "__main__":
    main()
