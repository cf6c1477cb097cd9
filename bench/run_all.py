"""Run every benchmark in order, each in its own process, and print what they print.

    .venv/bin/python bench/run_all.py            # `make bench`
    .venv/bin/python bench/run_all.py --quick    # smaller counts, for a smoke run

The API bench runs on the database DATABASE_URL names (SQLite in memory without it).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent

# (script, extra arguments for --quick)
BENCHES = [
    ("bench_rules.py", ["--games", "100"]),
    ("bench_replay.py", ["--replays", "50"]),
    ("bench_snapshots.py", ["--reads", "20", "--candidates", "3"]),
    ("bench_api.py", ["--moves", "100"]),
    ("bench_ratings.py", ["--games", "5000", "--repeats", "1"]),
    ("bench_pairing.py", ["--players", "200", "--repeats", "2"]),
    ("bench_bots.py", ["--positions", "10", "--iterations", "50", "--repeats", "1"]),
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller counts")
    args = parser.parse_args()
    failed = []
    for script, quick in BENCHES:
        command = [sys.executable, str(HERE / script), *(quick if args.quick else [])]
        print(f"\n$ python bench/{script} {' '.join(command[2:])}".rstrip(), flush=True)
        if subprocess.run(command).returncode != 0:
            failed.append(script)
    if failed:
        print(f"\nfailed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
