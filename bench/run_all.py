"""Run every benchmark in order, each in its own process, and print what they print.

    .venv/bin/python bench/run_all.py            # `make bench`
    .venv/bin/python bench/run_all.py --quick    # smaller counts, for a smoke run

The API bench runs on the database DATABASE_URL names (SQLite in memory without it); the
store, statement, load and stream benches need PostgreSQL (DATABASE_URL=postgres://...) and
are skipped without it; the statement bench needs pgbench, the stream bench Redis (REDIS_URL).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (script, extra arguments for --quick, needs PostgreSQL)
BENCHES = [
    ("bench_rules.py", ["--games", "100"], False),
    ("bench_replay.py", ["--replays", "50"], False),
    ("bench_snapshots.py", ["--reads", "20", "--candidates", "3"], False),
    ("bench_api.py", ["--moves", "100"], False),
    ("bench_ratings.py", ["--games", "5000", "--repeats", "1"], False),
    ("bench_pairing.py", ["--players", "200", "--repeats", "2"], False),
    ("bench_bots.py", ["--positions", "10", "--iterations", "50", "--repeats", "1"], False),
    ("bench_import.py", ["--plays", "500"], False),
    ("bench_history.py", ["--games", "600", "--pool", "1", "--repeats", "1"], False),
    ("bench_outbox.py", ["--results", "50", "--backlog", "200"], False),
    ("bench_store.py", ["--seconds", "1", "--repeats", "1"], True),
    ("bench_statement.py", ["--seconds", "1", "--repeats", "1"], True),  # and pgbench
    ("bench_load.py", ["--seconds", "3", "--clients", "4"], True),
    ("bench_stream.py", ["--subscribers", "20", "--moves", "60"], True),  # and REDIS_URL
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    args = parser.parse_args()
    failed = []
    postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    for script, quick, needs_postgres in BENCHES:
        if needs_postgres and not postgres:
            print(f"\n$ python bench/{script}: skipped, needs DATABASE_URL=postgres://...")
            continue
        if script == "bench_stream.py" and not os.environ.get("REDIS_URL"):
            print(f"\n$ python bench/{script}: skipped, needs REDIS_URL=redis://...")
            continue
        if script == "bench_statement.py" and shutil.which("pgbench") is None:
            print(f"\n$ python bench/{script}: skipped, needs pgbench")
            continue
        command = [sys.executable, str(HERE / script), *(quick if args.quick else [])]
        print(f"\n$ python bench/{script} {' '.join(command[2:])}".rstrip(), flush=True)
        if subprocess.run(command).returncode != 0:
            failed.append(script)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
