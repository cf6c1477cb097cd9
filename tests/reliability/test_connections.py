"""The database's connections under a club's evening: bounded, and given back.

Django does not close persistent connections under ASGI (each request runs in a context of its
own), so CONN_MAX_AGE above 0 with uvicorn workers leaks a connection per request until the
server refuses more; the web service pools its connections instead (psycopg's pool, DB_POOL)."""

from __future__ import annotations

import pytest

from tests.reliability import load

pytestmark = pytest.mark.reliability


def connection_bound(stack) -> int:
    """What the compose file allows: each web worker's pool, each Celery process, and a few
    for the moments a connection is being given back."""
    web = stack.environment("web")
    workers = int(stack.command("web")[stack.command("web").index("--workers") + 1])
    pool = int(web.get("DB_POOL_MAX_SIZE", "10"))
    celery = 0
    for name in stack.celery_services():
        command = stack.command(name)
        concurrency = [p for p in command if p.startswith("--concurrency=")]
        celery += 1 + (int(concurrency[0].split("=")[1]) if concurrency else 0)
    return workers * pool + celery + 4


def test_a_club_evening_holds_the_databases_connections_under_the_bound(stack):
    bound = connection_bound(stack)
    evening = load.evening(stack, clients=40, seconds=20)
    assert evening.failures == []
    assert evening.moves > 40
    assert evening.most_backends <= bound, (evening.most_backends, bound, evening.backends[-10:])
