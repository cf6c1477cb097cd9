"""The ASGI edge (config.edge) under uvicorn, as production serves: a body is refused on its
headers before a byte of it is read, one of unknown length once it passes the limit, and an
event stream holds no thread of its own."""

from __future__ import annotations

import socket
import threading

import pytest

from games.models import Game
from tests.games.sse import Stream, uvicorn_thread
from tests.tokens import key_for

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def server():
    with uvicorn_thread() as address:
        yield address


def raw(address: str, head: str, body: bytes = b"", timeout: float = 10) -> tuple[int, bytes]:
    """Send ``head`` (and ``body``) on a socket; the status and the whole answer. The body is
    not all sent if the server answers first."""
    host, port = address.split(":")
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(head.encode("latin-1"))
        if body:
            try:
                sock.sendall(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered and closed before taking it all: as it should
        answer = b""
        while not complete(answer):
            chunk = sock.recv(65536)
            if not chunk:
                break
            answer += chunk
    return int(answer.split(b" ", 2)[1]), answer


def complete(answer: bytes) -> bool:
    """Whether ``answer`` holds its headers and as much body as they announce."""
    head, found, rest = answer.partition(b"\r\n\r\n")
    if not found:
        return False
    for line in head.split(b"\r\n"):
        if line.lower().startswith(b"content-length:"):
            return len(rest) >= int(line.split(b":")[1])
    return False


def post(path: str, headers: dict[str, str]) -> str:
    lines = [f"POST {path} HTTP/1.1", "Host: localhost", *(f"{k}: {v}" for k, v in headers.items())]
    return "\r\n".join(lines) + "\r\n\r\n"


def test_a_body_declared_over_the_limit_is_refused_before_any_of_it_is_sent(server):
    # Nothing of the body follows the headers: the answer must come without it.
    status, answer = raw(
        server,
        post("/api/games/", {"Content-Type": "application/json", "Content-Length": str(2**30)}),
    )
    assert status == 413
    assert answer.endswith(b'{"error": "the request body is too large"}')
    assert b"connection: close" in answer.lower()


@pytest.mark.parametrize("declared", [str(10**20), str(10**100), "12abc", "-5"])
def test_a_length_no_server_could_read_is_refused_at_once(server, declared):
    """The HTTP parser refuses these (400) before the edge sees them, or the edge does."""
    status, _ = raw(
        server,
        post("/api/games/", {"Content-Type": "application/json", "Content-Length": declared}),
    )
    assert status in (400, 413)


def test_a_page_form_declared_over_the_limit_is_a_plain_413(server):
    status, answer = raw(
        server,
        post(
            "/login/",
            {"Content-Type": "application/x-www-form-urlencoded", "Content-Length": str(2**30)},
        ),
    )
    assert status == 413
    assert answer.endswith(b"the request body is too large")


def test_an_upload_has_a_limit_of_its_own(server, settings):
    settings.HADAL_UPLOAD_MAX_BYTES = 5_000_000
    kind = "multipart/form-data; boundary=x"
    status, _ = raw(server, post("/leagues/", {"Content-Type": kind, "Content-Length": "6000000"}))
    assert status == 413


def test_a_body_sent_in_chunks_is_asked_for_whole(server, alice, bob):
    key = key_for(alice)
    body = b'{"game": "deep-sea-adventure", "seats": [{"user": "alice"}, {"user": "bob"}]}'
    framed = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    status, answer = raw(
        server,
        post(
            "/api/games/",
            {
                "Content-Type": "application/json",
                "Transfer-Encoding": "chunked",
                "Authorization": f"Token {key}",
            },
        ),
        framed,
    )
    assert status == 411
    assert answer.endswith(b'{"error": "send the request body with a Content-Length"}')
    assert not Game.objects.exists()


def test_open_streams_share_a_few_threads(server, alice):
    key = key_for(alice)
    before = threading.active_count()
    streams = [Stream(server, "/api/me/stream/", {"Authorization": f"Token {key}"})]
    streams += [
        Stream(server, "/api/me/stream/", {"Authorization": f"Token {key}"}) for _ in range(9)
    ]
    try:
        assert {s.status for s in streams} == {200}
        # A thread each before; now the streams' shared few (HADAL_STREAM_THREADS, made once
        # a process) and the leases' keeper, however many streams are open.
        assert threading.active_count() - before <= 5
    finally:
        for stream in streams:
            stream.close()


def test_the_edge_knows_every_stream_by_its_address():
    from django.urls import URLPattern, get_resolver

    from config.edge import is_stream
    from games.api import live as streams

    def patterns(resolver, prefix=""):
        for entry in resolver.url_patterns:
            if isinstance(entry, URLPattern):
                yield prefix + str(entry.pattern), entry.callback
            else:
                yield from patterns(entry, prefix + str(entry.pattern))

    routes = list(patterns(get_resolver()))
    stream_views = {streams.game_stream, streams.user_stream}
    for route, view in routes:
        path = "/" + route.replace("<int:pk>", "7")
        assert is_stream(path) == (view in stream_views), route
    assert sum(view in stream_views for _, view in routes) == 2
