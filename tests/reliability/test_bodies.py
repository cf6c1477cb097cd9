"""Request bodies on the compose deployment: refused on their headers, by the proxy or the
app, before anything is read or written to disk (a Content-Length of 1 GB had been spooled to
a 1,020 MB temporary file first; one of 10^20 held the connection)."""

from __future__ import annotations

import ssl
import time

import pytest

pytestmark = pytest.mark.reliability


def disk_used(stack) -> int:
    """Bytes in the web service's temporary directory (Django spools bodies there)."""
    return sum(f.stat().st_size for f in stack.temporary("web").rglob("*") if f.is_file())


@pytest.mark.parametrize("declared", [2**30, 10**20])
def test_a_huge_body_is_refused_before_it_is_read(stack, declared):
    connection = stack.connection(timeout=15)
    connection.putrequest("POST", "/api/games/")
    for name, value in {
        **stack.headers(),
        "Content-Type": "application/json",
        "Content-Length": str(declared),
    }.items():
        connection.putheader(name, value)
    connection.endheaders()
    sent = 0
    chunk = b"[" * 65536
    started = time.monotonic()
    with pytest.raises((BrokenPipeError, ConnectionResetError, ssl.SSLEOFError)):
        # A client that keeps sending: the server answers and closes long before 1 GB.
        while sent < 64 * 1024 * 1024:
            connection.send(chunk)
            sent += len(chunk)
            if sent % (4 * 1024 * 1024) == 0:
                assert disk_used(stack) < 4 * 1024 * 1024
    assert time.monotonic() - started < 15
    assert disk_used(stack) < 4 * 1024 * 1024
    connection.close()


@pytest.mark.parametrize("declared", [2**30, 10**20])
def test_a_huge_body_declared_and_not_sent_is_answered_at_once(stack, declared):
    status, body, _ = stack.request(
        "POST",
        "/api/games/",
        headers={"Content-Type": "application/json", "Content-Length": str(declared)},
        timeout=10,
    )
    assert status in (400, 413), body
