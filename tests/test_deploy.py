"""The production compose file: the five services, settings from the environment only, and two
database roles: the owner migrates, the app runs as a role that cannot change events."""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
APP_ROLE = "hadal_app"


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def database_user(service: dict) -> str:
    """The user in DATABASE_URL (urlsplit stops at the ``?`` in ``${VAR:?message}``)."""
    return re.match(r"postgres://([^:@]+):", service["environment"]["DATABASE_URL"]).group(1)


def test_compose_runs_web_worker_beat_postgres_and_redis():
    services = compose()["services"]
    assert {"proxy", "web", "worker", "analysis", "beat", "postgres", "redis"} <= set(services)
    assert "gunicorn" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]


def test_compose_settings_come_from_the_environment_not_the_file():
    services = compose()["services"]
    for name in ("migrate", "web", "worker", "analysis", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["SECRET_KEY"].startswith("${SECRET_KEY")
        assert env["REDIS_URL"].startswith("redis://redis:")
    for name in ("POSTGRES_PASSWORD", "APP_DB_PASSWORD"):
        assert services["postgres"]["environment"][name] == f"${{{name}:?set {name}}}"
        assert f"{name}=" in (ROOT / ".env.example").read_text()


def test_only_migrate_connects_as_the_owner_and_grants_the_app_role_after_it():
    services = compose()["services"]
    owner = services["postgres"]["environment"]["POSTGRES_USER"]
    assert database_user(services["migrate"]) == owner
    assert "${POSTGRES_PASSWORD:" in services["migrate"]["environment"]["DATABASE_URL"]
    migrate, grant = services["migrate"]["command"][-1].split(" && ")
    assert migrate.startswith("python manage.py migrate")
    assert grant == f"python manage.py grant_app_role {APP_ROLE}"
    for name in ("web", "worker", "beat"):
        assert database_user(services[name]) == APP_ROLE != owner
        assert "${APP_DB_PASSWORD:" in services[name]["environment"]["DATABASE_URL"]


def test_postgres_creates_the_app_role_at_first_start_with_its_own_password():
    mounts = compose()["services"]["postgres"]["configs"]
    [script] = [
        compose()["configs"][m["source"]]["content"]
        for m in mounts
        if m["target"].startswith("/docker-entrypoint-initdb.d/")
    ]
    assert "\\getenv password APP_DB_PASSWORD" in script
    assert f"CREATE ROLE {APP_ROLE} LOGIN PASSWORD :'password';" in script


def test_the_image_serves_with_gunicorn_and_does_not_run_as_root():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    assert "USER hadal" in dockerfile and "gunicorn" in dockerfile


def production_environment() -> dict[str, str]:
    """The web service's environment from the compose file, with its ${VAR...} filled in as an
    operator's .env would."""
    filled = {
        "SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-0123456789",
        "POSTGRES_PASSWORD": "pw",
        "APP_DB_PASSWORD": "pw",
        "ALLOWED_HOSTS": "hadal.example.org",
    }

    def fill(value: str) -> str:
        return re.sub(
            r"\$\{(\w+)(?::?[-?][^}]*)?\}",
            lambda m: filled.get(m.group(1)) or _default(m.group(0)),
            value,
        )

    env = compose()["services"]["web"]["environment"]
    return {name: fill(str(value)) for name, value in env.items()}


def _default(expression: str) -> str:
    match = re.fullmatch(r"\$\{\w+:-([^}]*)\}", expression)
    return match.group(1) if match else ""


def test_the_deploy_check_passes_with_the_production_environment(tmp_path):
    # Only what a production process would have: not the test run's own variables.
    env = {"PATH": os.environ["PATH"], **production_environment(), "STATIC_ROOT": str(tmp_path)}
    done = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_the_web_service_and_the_image_serve_asgi_through_uvicorn_workers():
    """The event streams stay open for as long as a client listens: ASGI workers hold them."""
    command = compose()["services"]["web"]["command"]
    assert command[:2] == ["gunicorn", "config.asgi:application"]
    assert command[command.index("--worker-class") + 1] == "uvicorn_worker.UvicornWorker"
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "config.asgi:application" in dockerfile and "uvicorn_worker.UvicornWorker" in dockerfile
    from uvicorn_worker import UvicornWorker  # installed from the lock

    assert UvicornWorker


def test_the_web_service_pools_its_connections_and_keeps_none_per_request():
    """Under ASGI Django never gives a kept connection back (CONN_MAX_AGE > 0 filled the
    database within 16 clients): the web service pools them instead."""
    web = production_environment()
    assert web.get("CONN_MAX_AGE", "0") == "0"
    assert web["DB_POOL"] == "1" and int(web["DB_POOL_MAX_SIZE"]) > 0


def asgi_start(tmp_path, **env: str) -> subprocess.CompletedProcess:
    """Load the ASGI application in a process with the production environment and ``env``."""
    environment = {
        "PATH": os.environ["PATH"],
        **production_environment(),
        "STATIC_ROOT": str(tmp_path),
        **env,
    }
    return subprocess.run(
        [sys.executable, "-c", "import config.asgi"],
        cwd=ROOT,
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_asgi_application_refuses_to_start_with_persistent_connections(tmp_path):
    started = asgi_start(tmp_path, CONN_MAX_AGE="60", DB_POOL="0")
    assert started.returncode != 0
    assert "CONN_MAX_AGE must be 0 under ASGI" in started.stderr
    assert asgi_start(tmp_path).returncode == 0


def test_only_the_proxy_publishes_a_port_and_the_app_believes_only_the_proxy():
    """Behind a published app port anyone could name any address in X-Forwarded-For (30
    usernames sprayed with no 429): now nothing but Caddy is reachable from outside, and the
    app trusts forwarded addresses from Caddy's fixed address alone."""
    services = compose()["services"]
    published = {name for name, service in services.items() if service.get("ports")}
    assert published == {"proxy"}
    assert services["proxy"]["image"].startswith("caddy:")
    proxy_address = services["proxy"]["networks"]["default"]["ipv4_address"]
    assert services["web"]["environment"]["FORWARDED_ALLOW_IPS"] == proxy_address
    assert "NUM_PROXIES" not in services["web"]["environment"]


def test_the_proxy_serves_the_repositorys_caddyfile_with_the_apps_body_limit():
    from django.conf import settings

    mounts = compose()["services"]["proxy"]["volumes"]
    assert "./config/caddy/Caddyfile:/etc/caddy/Caddyfile:ro" in mounts
    caddyfile = (ROOT / "config" / "caddy" / "Caddyfile").read_text()
    upload = re.findall(r"\{\$HADAL_UPLOAD_LIMIT:(\d+)\}", caddyfile)
    body = re.findall(r"\{\$HADAL_BODY_LIMIT:(\d+)\}", caddyfile)
    assert upload and {int(n) for n in upload} == {settings.HADAL_UPLOAD_MAX_BYTES}
    assert body and {int(n) for n in body} == {settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    assert "read_header" in caddyfile and "read_body" in caddyfile


def test_analyses_have_a_queue_and_a_worker_of_their_own():
    from config.settings import CELERY_TASK_ROUTES

    services = compose()["services"]
    assert CELERY_TASK_ROUTES["games.tasks.analyse_game"] == {"queue": "analysis"}
    assert "--queues=celery" in services["worker"]["command"]
    assert "--queues=analysis" in services["analysis"]["command"]


def test_the_image_and_the_package_carry_every_app_package():
    """core/ (the errors, parsers and the direct driver every app imports) was once left out
    of both: the image would not start."""
    packages = {"core", "config", "accounts", "inbox", "games", "league"}
    dockerfile = (ROOT / "Dockerfile").read_text()
    copied = set(re.findall(r"^COPY (\w+) \./\1$", dockerfile, re.MULTILINE))
    assert packages <= copied
    included = yaml.safe_load("x: " + re.search(r"include = (\[.*\])", _pyproject()).group(1))
    assert packages == {name.rstrip("*") for name in included["x"]}


def _pyproject() -> str:
    return (ROOT / "pyproject.toml").read_text()


def test_the_erasure_ledger_lives_apart_from_the_database_on_a_volume_of_its_own():
    services = compose()["services"]
    for name in ("web", "worker", "analysis", "beat", "migrate"):
        assert "erasures:/app/var" in services[name]["volumes"], name
    assert "erasures" in compose()["volumes"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "mkdir -p /app/var && chown hadal /app/var" in dockerfile
