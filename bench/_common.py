"""Shared bits of the benchmarks: the project on sys.path, the header line, best/median."""

from __future__ import annotations

import os
import platform
import statistics
import sys
from pathlib import Path

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
    print(f"== {title} | " + " | ".join(parts))


def best_and_median(values: list[float]) -> tuple[float, float]:
    """For rates (higher is better): the best and the median of the repeats."""
    return max(values), statistics.median(values)
