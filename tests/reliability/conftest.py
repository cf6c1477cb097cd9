"""The reliability suite: the compose deployment run on this machine (tests/reliability/stack.py),
tried as a careless client and an attacker would. It needs PostgreSQL (DATABASE_URL, a role that
may create databases and roles) and redis-server and Caddy on the PATH; .ci/run has all three.
One stack serves the whole session: starting it takes about half a minute."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.reliability.stack import Stack


@pytest.fixture(scope="session")
def stack(tmp_path_factory):
    url = os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgres"):
        pytest.skip("the stack needs PostgreSQL: set DATABASE_URL=postgres://... (.ci/run does)")
    for program in ("redis-server", "caddy"):
        if shutil.which(program) is None:
            pytest.skip(f"the stack needs {program} on the PATH (.ci/run installs it)")
    work = Path(tmp_path_factory.mktemp("stack"))
    running = Stack(postgres_url=url, work=work)
    try:
        yield running.start()
    except Exception:
        for name, log in running.logs.items():
            print(f"--- {name} ---\n{log.read_text(errors='replace')[-3000:]}")
        raise
    finally:
        running.close()
