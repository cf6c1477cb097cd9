"""The production deployment of docker-compose.yml, run on this machine without Docker.

Every service the compose file names is started as a process with the same command and the
same environment, read from the file itself; only what Docker would provide differs: the
addresses (127.0.0.1 and free ports instead of service names), the database (a database of
its own on the PostgreSQL server the tests were given, with an owner role and an app role made
for it, as the postgres image's init script makes them), a Redis server of its own (so that a
test may stop it), the secrets, and the mail server (none: mail goes nowhere). The proxy is
Debian's Caddy with the repository's Caddyfile, serving https with its own local authority.

Used by the reliability suite (tests/reliability/) and by bench/bench_stack.py.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import psycopg
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
DATABASE = "hadal_stack"
OWNER, APP = "hadal_stack", "hadal_stack_app"
# The compose file's own role names, replaced by the stack's (roles are the server's, not the
# database's: the stack must not take over an operator's "hadal").
COMPOSE_OWNER, COMPOSE_APP = "hadal", "hadal_app"


def compose() -> dict[str, Any]:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def fill(value: str, values: dict[str, str]) -> str:
    """``${VAR}``, ``${VAR:-default}`` and ``${VAR:?message}`` as compose fills them."""

    def one(match: re.Match[str]) -> str:
        name, how, rest = match.group(1), match.group(2) or "", match.group(3) or ""
        if name in values:
            return values[name]
        if how == ":-":
            return rest
        if how == ":?":
            raise KeyError(f"the compose file needs {name}: {rest}")
        return ""

    return re.sub(r"\$\{(\w+)(:[-?])?([^}]*)\}", one, value)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, ready, seconds: float = 60, process: subprocess.Popen | None = None):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}")
        try:
            if ready():
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} is not ready after {seconds} s")


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with contextlib.suppress(OSError), socket.create_connection((host, port), timeout=0.5):
        return True
    return False


class Stack:
    """The compose deployment on this machine. ``url`` is the proxy (the only published port);
    ``app`` is gunicorn's own port, which only the proxy should reach."""

    def __init__(
        self,
        *,
        postgres_url: str,
        work: Path,
        web_workers: int | None = None,
        overrides: dict[str, dict[str, str]] | None = None,
    ):
        """``web_workers`` and ``overrides`` (settings by service) change the compose file's
        deployment, for a benchmark that measures one worker or lifts a cap; the reliability
        suite runs it as it is."""
        self.admin_url = postgres_url
        self.work = work
        self.web_workers = web_workers
        self.overrides = overrides or {}
        self.spec = compose()
        admin = urlsplit(postgres_url)
        self.pg_host, self.pg_port = admin.hostname or "127.0.0.1", admin.port or 5432
        self.passwords = {OWNER: secrets.token_urlsafe(12), APP: secrets.token_urlsafe(12)}
        self.redis_port = free_port()
        self.app_port = free_port()
        self.https_port = free_port()
        self.http_port = free_port()
        self.host = "localhost"
        self.url = f"https://{self.host}:{self.https_port}"
        self.processes: dict[str, subprocess.Popen] = {}
        self.logs: dict[str, Path] = {}
        self.values = {
            "SECRET_KEY": secrets.token_urlsafe(40),
            "POSTGRES_PASSWORD": self.passwords[OWNER],
            "APP_DB_PASSWORD": self.passwords[APP],
            "ALLOWED_HOSTS": f"{self.host},127.0.0.1",
            "CSRF_TRUSTED_ORIGINS": self.url,
            "HADAL_SITE_URL": self.url,
            "HADAL_DOMAIN": f"{self.host}:{self.https_port}",
            # The proxy runs on this machine: gunicorn trusts what it forwards from here.
            "HADAL_PROXY_ADDRESS": "127.0.0.1",
        }

    # -- the parts ------------------------------------------------------------------------------

    def environment(self, service: str) -> dict[str, str]:
        """The service's environment as compose would give it, pointed at this machine."""
        declared = self.spec["services"][service].get("environment", {})
        env = {name: fill(str(value), self.values) for name, value in declared.items()}
        for name, value in env.items():
            env[name] = self._local(value)
        env.pop("EMAIL_HOST", None)
        if "EMAIL_BACKEND" in env:
            env["EMAIL_BACKEND"] = "django.core.mail.backends.dummy.EmailBackend"
        return {
            "PATH": f"{BIN}:{os.environ['PATH']}",
            "HOME": str(self.work),
            "TMPDIR": str(self.temporary(service)),
            "PYTHONUNBUFFERED": "1",
            "HADAL_RULES": os.environ.get("HADAL_RULES", "auto"),
            **env,
            **self.overrides.get(service, {}),
        }

    def temporary(self, service: str) -> Path:
        """The service's temporary directory (what /tmp is to its container)."""
        path = self.work / "tmp" / service
        path.mkdir(parents=True, exist_ok=True)
        return path

    def _local(self, value: str) -> str:
        """A compose address (postgres:5432, redis:6379, web:8000) as this machine's."""
        value = re.sub(
            r"@postgres:5432/hadal\b", f"@{self.pg_host}:{self.pg_port}/{DATABASE}", value
        )
        value = re.sub(r"redis://redis:6379/", f"redis://127.0.0.1:{self.redis_port}/", value)
        value = value.replace("web:8000", f"127.0.0.1:{self.app_port}")
        # Roles named in URLs: hadal_app first, its name holds the owner's.
        value = re.sub(rf"//{COMPOSE_APP}:", f"//{APP}:", value)
        return re.sub(rf"//{COMPOSE_OWNER}:", f"//{OWNER}:", value)

    def command(self, service: str) -> list[str]:
        """The service's command, its role names and published addresses made local."""
        command = [str(part) for part in self.spec["services"][service]["command"]]
        command = [re.sub(rf"\b{COMPOSE_APP}\b", APP, part) for part in command]
        command = [part.replace("0.0.0.0:8000", f"127.0.0.1:{self.app_port}") for part in command]
        if self.web_workers is not None and service == "web":
            command[command.index("--workers") + 1] = str(self.web_workers)
        return command

    def start_process(self, name: str, command: list[str], env: dict[str, str]):
        log = self.work / f"{name}.log"
        self.logs[name] = log
        self.processes[name] = subprocess.Popen(
            command,
            cwd=ROOT,
            env=env,
            stdout=log.open("ab"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        return self.processes[name]

    def start_redis(self) -> None:
        redis = self.start_process(
            "redis",
            [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.work),
            ],
            {"PATH": os.environ["PATH"]},
        )
        wait_for("redis", lambda: port_open(self.redis_port), process=redis)

    def stop_redis(self) -> None:
        self.stop("redis")

    def create_database(self) -> None:
        """What the postgres image does on a new volume: the owner, its database, and the app
        role its init script creates (docker-compose.yml's configs: app-role)."""
        with psycopg.connect(self.admin_url, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            for role in (APP, OWNER):
                db.execute(f'DROP ROLE IF EXISTS "{role}"')
            for role in (OWNER, APP):
                db.execute(
                    f"CREATE ROLE \"{role}\" LOGIN PASSWORD '{self.passwords[role]}'"  # noqa: S608
                )
            db.execute(f'CREATE DATABASE "{DATABASE}" OWNER "{OWNER}"')

    def drop_database(self) -> None:
        with psycopg.connect(self.admin_url, autocommit=True) as db:
            db.execute(f'DROP DATABASE IF EXISTS "{DATABASE}" WITH (FORCE)')
            for role in (APP, OWNER):
                db.execute(f'DROP ROLE IF EXISTS "{role}"')

    def migrate(self) -> None:
        """The compose file's one-off migrate service, as the owner."""
        done = subprocess.run(
            self.command("migrate"),
            cwd=ROOT,
            env=self.environment("migrate"),
            capture_output=True,
            text=True,
            timeout=600,
        )
        if done.returncode != 0:
            raise RuntimeError(f"migrate failed:\n{done.stdout}\n{done.stderr}")

    def start_web(self) -> None:
        web = self.start_process("web", self.command("web"), self.environment("web"))
        wait_for("web", lambda: port_open(self.app_port), process=web)

    def start_workers(self) -> None:
        for name in self.celery_services():
            command = self.command(name)
            if name == "beat":
                command = [
                    self.work / "celerybeat-schedule"
                    if part == "/tmp/celerybeat-schedule"
                    else part
                    for part in command
                ]
            self.start_process(name, [str(p) for p in command], self.environment(name))
        for name in self.celery_services():
            if name != "beat":
                self.wait_for_worker(name)

    def celery_services(self) -> list[str]:
        return [
            name
            for name, service in self.spec["services"].items()
            if "celery" in service.get("command", [])
        ]

    def wait_for_worker(self, name: str) -> None:
        log = self.logs[name]
        wait_for(
            name, lambda: b" ready." in log.read_bytes(), seconds=90, process=self.processes[name]
        )

    def start_proxy(self) -> None:
        if "proxy" not in self.spec["services"]:
            return
        caddy = shutil.which("caddy")
        if caddy is None:
            raise RuntimeError(
                "the proxy needs Caddy (Debian's package caddy; .ci/run installs it)"
            )
        declared = self.spec["services"]["proxy"].get("environment", {})
        env = {
            "PATH": os.environ["PATH"],
            "HOME": str(self.work),
            "XDG_DATA_HOME": str(self.work / "caddy-data"),
            "XDG_CONFIG_HOME": str(self.work / "caddy-config"),
            **{name: fill(str(value), self.values) for name, value in declared.items()},
            "HADAL_HTTPS_PORT": str(self.https_port),
            "HADAL_HTTP_PORT": str(self.http_port),
            "HADAL_UPSTREAM": f"127.0.0.1:{self.app_port}",
        }
        proxy = self.start_process(
            "proxy",
            [caddy, "run", "--config", str(self.caddyfile()), "--adapter", "caddyfile"],
            env,
        )
        wait_for("the proxy", lambda: self.get("/healthz/")[0] == 200, process=proxy)

    def caddyfile(self) -> Path:
        """The compose file's Caddyfile (its mount's source)."""
        for volume in self.spec["services"]["proxy"].get("volumes", []):
            source, _, target = str(volume).partition(":")
            if target.startswith("/etc/caddy/Caddyfile"):
                return ROOT / source
        raise RuntimeError("the proxy mounts no Caddyfile")

    def start(self) -> Stack:
        self.work.mkdir(parents=True, exist_ok=True)
        self.start_redis()
        self.create_database()
        self.migrate()
        self.start_web()
        self.start_workers()
        self.start_proxy()
        return self

    def stop(self, *names: str) -> None:
        for name in names or list(reversed(self.processes)):
            process = self.processes.pop(name, None)
            if process is None:
                continue
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGTERM)
            try:
                # Celery's warm shutdown waits for a task (an analysis takes minutes): not here.
                process.wait(10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(process.pid, signal.SIGKILL)
                process.wait()

    def close(self) -> None:
        self.stop()
        self.drop_database()

    # -- reaching it ----------------------------------------------------------------------------

    @property
    def proxied(self) -> bool:
        return "proxy" in self.processes

    def headers(self, direct: bool = False) -> dict[str, str]:
        """What every request carries: the site's name, and, where no proxy of the stack's own
        stands in front, what the operator's TLS proxy would add."""
        if direct or not self.proxied:
            return {"Host": self.host, "X-Forwarded-Proto": "https"}
        return {"Host": self.host}

    def tls(self) -> ssl.SSLContext:
        root = self.work / "caddy-data" / "caddy" / "pki" / "authorities" / "local" / "root.crt"
        return ssl.create_default_context(cafile=str(root))

    def connection(self, *, direct: bool = False, source: str | None = None, timeout=30):
        """A connection to the proxy, or (``direct``) to gunicorn's port, from ``source``."""
        bind = (source, 0) if source else None
        if direct or not self.proxied:
            return http.client.HTTPConnection(
                "127.0.0.1", self.app_port, timeout=timeout, source_address=bind
            )
        return http.client.HTTPSConnection(
            self.host, self.https_port, timeout=timeout, context=self.tls(), source_address=bind
        )

    def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        headers: dict[str, str] | None = None,
        **how: Any,
    ) -> tuple[int, Any, http.client.HTTPResponse]:
        """One request; the body is JSON unless it is bytes; the answer parsed if JSON."""
        connection = self.connection(**how)
        sent = {**self.headers(how.get("direct", False)), **(headers or {})}
        if body is not None and not isinstance(body, bytes):
            body = json.dumps(body).encode()
            sent.setdefault("Content-Type", "application/json")
        try:
            connection.request(method, path, body, headers=sent)
            response = connection.getresponse()
            data = response.read()
        finally:
            connection.close()
        kind = response.getheader("Content-Type", "")
        parsed = json.loads(data) if data and kind.startswith("application/json") else data
        return response.status, parsed, response

    def get(self, path: str, headers: dict[str, str] | None = None, **how: Any):
        status, data, _ = self.request("GET", path, headers=headers, **how)
        return status, data

    def post(self, path: str, body: Any, headers: dict[str, str] | None = None, **how: Any):
        status, data, _ = self.request("POST", path, body, headers=headers, **how)
        return status, data

    def signed_in(self, username: str, password: str = "a long pass phrase") -> Browser:
        """A browser signed in to the site as ``username`` (the pages, with their CSRF)."""
        browser = Browser(self)
        browser.get("/accounts/login/")
        status, _ = browser.post("/accounts/login/", {"username": username, "password": password})
        if status != 302:
            raise RuntimeError(f"{username} could not sign in ({status})")
        return browser

    def manage(self, *args: str, stdin: str | None = None) -> str:
        """A management command, run as the web service runs (the app role)."""
        done = subprocess.run(
            [str(BIN / "python"), "manage.py", *args],
            cwd=ROOT,
            env=self.environment("web"),
            input=stdin,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(f"manage.py {shlex.join(args)} failed:\n{done.stderr}")
        return done.stdout

    def python(self, code: str) -> Any:
        """Run ``code`` in the app's Django (the app role); it prints one JSON value, returned."""
        return json.loads(self.manage("shell", "--no-imports", "-c", code).strip().splitlines()[-1])

    def members(self, names: list[str], password: str = "a long pass phrase") -> dict[str, str]:
        """Members with these names and a password; their API tokens by name."""
        return self.python(
            f"""
import json
from django.contrib.auth import get_user_model
from accounts.tokens import password_token_create
User = get_user_model()
tokens = {{}}
for name in {names!r}:
    user, _ = User.objects.get_or_create(username=name)
    user.set_password({password!r})
    user.save()
    tokens[name] = password_token_create(user=user)
print(json.dumps(tokens))
"""
        )

    # -- the database's side --------------------------------------------------------------------

    def backends(self) -> int:
        """Connections the stack holds to its database now."""
        with psycopg.connect(self.admin_url, autocommit=True) as db:
            row = db.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = %s", [DATABASE]
            ).fetchone()
        return int(row[0]) if row else 0

    def processes_of(self, name: str) -> list[int]:
        """The pids of a service: its process and every process of its group (the workers)."""
        group = self.processes[name].pid
        pids = []
        for entry in Path("/proc").iterdir():
            if entry.name.isdigit():
                with contextlib.suppress(OSError):
                    fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                    if int(fields[2]) == group:  # the fifth field, the process group
                        pids.append(int(entry.name))
        return pids

    def threads(self, name: str) -> int:
        """Threads that the service's processes hold now."""
        return sum(
            len(list(Path(f"/proc/{pid}/task").iterdir())) for pid in self.processes_of(name)
        )

    def memory(self, name: str) -> int:
        """Resident bytes of the service's processes now."""
        total = 0
        for pid in self.processes_of(name):
            with contextlib.suppress(OSError):
                for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        return total

    def log(self, name: str) -> str:
        return self.logs[name].read_text(errors="replace")


@contextlib.contextmanager
def running(postgres_url: str, **options: Any) -> Iterator[Stack]:
    with tempfile.TemporaryDirectory(prefix="hadal-stack-") as work:
        stack = Stack(postgres_url=postgres_url, work=Path(work), **options)
        try:
            yield stack.start()
        finally:
            stack.close()


class Browser:
    """The pages as a browser uses them: cookies kept, forms sent with their CSRF token and
    the Referer an https page sends."""

    def __init__(self, stack: Stack):
        self.stack = stack
        self.cookies: dict[str, str] = {}

    def _send(self, method: str, path: str, body: bytes | None, kind: str | None):
        headers = {"Referer": f"{self.stack.url}{path}"}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if kind:
            headers["Content-Type"] = kind
        if "csrftoken" in self.cookies and method == "POST":
            headers["X-CSRFToken"] = self.cookies["csrftoken"]
        status, data, response = self.stack.request(method, path, body, headers)
        for name, value in response.getheaders():
            if name.lower() == "set-cookie":
                key, _, rest = value.partition("=")
                self.cookies[key] = rest.split(";", 1)[0]
        return status, data

    def get(self, path: str):
        return self._send("GET", path, None, None)

    def post(self, path: str, fields: dict[str, str]):
        from urllib.parse import urlencode

        return self._send(
            "POST", path, urlencode(fields).encode(), "application/x-www-form-urlencoded"
        )

    def upload(self, path: str, fields: dict[str, str], name: str, filename: str, data: bytes):
        """A form with a file, as multipart/form-data."""
        boundary = secrets.token_hex(12)
        parts = [
            f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
            for key, value in fields.items()
        ]
        parts.append(
            f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"; '
            f'filename="{filename}"\r\nContent-Type: application/octet-stream\r\n\r\n'.encode()
            + data
            + b"\r\n"
        )
        parts.append(f"--{boundary}--\r\n".encode())
        return self._send(
            "POST", path, b"".join(parts), f"multipart/form-data; boundary={boundary}"
        )
