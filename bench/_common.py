"""Shared bits of the benchmarks: the project on sys.path, the header line, best/median, and a
throwaway database."""

from __future__ import annotations

import importlib
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # `python bench/x.py` puts bench/, not the project, on the path
    sys.path.insert(0, str(ROOT))


def cpu_name() -> str:
    """platform.processor() is empty on most Linux boxes; /proc/cpuinfo knows better."""
    name = platform.processor()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    name = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return name or platform.machine() or "unknown CPU"


def header(title: str, database: str | None = None) -> None:
    parts = [
        f"{cpu_name()} x{os.cpu_count()}",
        f"{platform.system()} {platform.release()}",
        f"Python {platform.python_version()} ({platform.python_implementation()})",
    ]
    if database:
        parts.append(f"database {database}")
    rules = sys.modules.get("games.rules")
    if rules is not None:  # the rule modules as this run imported them (games/rules/compiled.py)
        parts.append(f"rules: {'compiled by mypyc' if rules.FORM == 'compiled' else 'source'}")
    print(f"== {title} | " + " | ".join(parts))


def add_clock_option(parser) -> None:
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time by this process's CPU time rather than the wall clock (on a shared, "
        "loaded machine the wall clock also counts the time other processes ran)",
    )


def clock(args) -> Callable[[], float]:
    """The clock the run was asked for: CPU time of this process, or the wall clock."""
    return time.process_time if getattr(args, "cpu", False) else time.perf_counter


def best_and_median(values: list[float]) -> tuple[float, float]:
    """For rates (higher is better): the best and the median of the repeats."""
    return max(values), statistics.median(values)


def baseline_rules(checkout: str) -> dict[str, ModuleType]:
    """The rule modules of another checkout of the project (a git worktree of an older commit,
    say), by slug, loaded beside this checkout's so that one run can measure both.

    The other checkout's ``games`` package is imported under its own name while this one's is
    set aside, then set back: its modules keep their own references to one another (the rule
    modules import at the top), and neither registry sees the other's games.
    """
    root = str(Path(checkout).resolve())
    if not Path(root, "games", "rules", "__init__.py").is_file():
        raise SystemExit(f"{checkout}: not a checkout of the project (no games/rules/)")
    ours = {
        name: m for name, m in sys.modules.items() if name == "games" or name.startswith("games.")
    }
    for name in ours:
        del sys.modules[name]
    sys.path.insert(0, root)
    finders = list(sys.meta_path)  # its games.rules may add one (to run its source: compiled.py)
    try:
        rules = importlib.import_module("games.rules")
        found = dict(rules.registered())
    finally:
        sys.path.remove(root)
        sys.meta_path[:] = finders
        for name in [n for n in sys.modules if n == "games" or n.startswith("games.")]:
            del sys.modules[name]
        sys.modules.update(ours)
    return found


class ThrowawayDatabase:
    """A test database of the configured kind, made on creation and dropped by ``drop``:
    PostgreSQL under a name of its own (``<prefix>_<NAME>``, so a bench never clobbers the test
    suite's ``test_<NAME>``), SQLite in a temporary file, or in memory with ``sqlite_file``
    False. DEBUG is off, as served: no query log is kept. Django must be set up first."""

    def __init__(self, prefix: str = "bench", *, sqlite_file: bool = True):
        from django.db import connection
        from django.test.utils import setup_test_environment

        self.tmp_dir = None
        test = connection.settings_dict["TEST"]
        if connection.vendor != "sqlite":
            test["NAME"] = f"{prefix}_{connection.settings_dict['NAME']}"
        elif sqlite_file:
            self.tmp_dir = tempfile.mkdtemp(prefix="hadal-bench-")
            test["NAME"] = os.path.join(self.tmp_dir, "bench.sqlite3")
        setup_test_environment(debug=False)
        self.old_name = connection.creation.create_test_db(
            verbosity=0, autoclobber=True, serialize=False
        )

    def drop(self, *, close_connections: bool = False) -> None:
        """Drop it; ``close_connections`` first closes every connection (of other threads or
        pools too), which PostgreSQL needs before it drops a database in use."""
        from django.db import connection, connections
        from django.test.utils import teardown_test_environment

        if close_connections:
            connections.close_all()
        connection.creation.destroy_test_db(self.old_name, verbosity=0)
        teardown_test_environment()
        if self.tmp_dir:
            shutil.rmtree(self.tmp_dir, ignore_errors=True)
