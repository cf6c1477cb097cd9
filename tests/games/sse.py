"""Helpers for the stream tests: a real ASGI server (uvicorn) in a thread or in a process, and
a server-sent events client reading one HTTP connection as EventSource would."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port: int, seconds: float = 30, process: subprocess.Popen | None = None) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port}")


@contextlib.contextmanager
def uvicorn_thread() -> Iterator[str]:
    """The project's ASGI application served by uvicorn in a thread of this process (so on the
    test database); yields its base URL."""
    import uvicorn

    from config.asgi import application

    port = free_port()
    config = uvicorn.Config(
        application,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        lifespan="off",
        timeout_graceful_shutdown=1,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    wait_for_port(port)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(10)


@contextlib.contextmanager
def uvicorn_process(env: dict[str, str]) -> Iterator[str]:
    """uvicorn serving config.asgi in a process of its own, with ``env`` on top of ours."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--timeout-graceful-shutdown",
            "1",
        ],
        cwd=ROOT,
        env={**os.environ, **env},
    )
    try:
        wait_for_port(port, process=process)
        yield f"127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


class Stream:
    """One open event stream: its status, headers, and the messages as they come."""

    def __init__(self, address: str, path: str, headers: dict[str, str], timeout: float = 10):
        host, port = address.split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=timeout)
        self.connection.request("GET", path, headers={"Accept": "text/event-stream", **headers})
        self.response = self.connection.getresponse()
        self.status = self.response.status
        self.comments: list[str] = []
        if self.status == 200:
            # The first line comes once the stream listens and has read the log: from then on
            # nothing is missed, whoever moves.
            assert self.response.readline().startswith(b"retry: ")

    def next_message(self) -> dict:
        """The next message's fields (``data`` parsed as JSON); comments are kept aside."""
        fields: dict = {}
        while True:
            line = self.response.readline().decode()
            if line == "":
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if not line:
                if "data" in fields:
                    return fields
                continue
            if line.startswith(":"):
                self.comments.append(line)
                continue
            name, _, value = line.partition(": ")
            fields[name] = json.loads(value) if name == "data" else value

    def messages_until(self, done, limit: int = 100_000) -> list[dict]:
        """Messages up to and including the first for which ``done(message)`` holds."""
        seen = []
        for _ in range(limit):
            message = self.next_message()
            seen.append(message)
            if done(message):
                return seen
        raise AssertionError(f"not within {limit} messages; the last: {seen[-3:]}")

    def close(self) -> None:
        self.connection.close()


def call(address: str, method: str, path: str, headers: dict[str, str], body=None):
    host, port = address.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=10)
    payload = None if body is None else json.dumps(body)
    connection.request(
        method, path, payload, headers={"Content-Type": "application/json", **headers}
    )
    response = connection.getresponse()
    data = response.read()
    connection.close()
    return response.status, json.loads(data) if data else None
