"""The production compose file: the five services, settings from the environment only."""

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent


def compose() -> dict:
    return yaml.safe_load((ROOT / "docker-compose.yml").read_text())


def test_compose_runs_web_worker_beat_postgres_and_redis():
    services = compose()["services"]
    assert {"web", "worker", "beat", "postgres", "redis"} <= set(services)
    assert "gunicorn" in services["web"]["command"]
    assert services["worker"]["command"][:4] == ["celery", "-A", "config", "worker"]
    assert services["beat"]["command"][:4] == ["celery", "-A", "config", "beat"]


def test_compose_settings_come_from_the_environment_not_the_file():
    services = compose()["services"]
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert env["SECRET_KEY"].startswith("${SECRET_KEY")
        assert "${POSTGRES_PASSWORD" in env["DATABASE_URL"]
        assert env["REDIS_URL"].startswith("redis://redis:")
    assert services["postgres"]["environment"]["POSTGRES_PASSWORD"].startswith("${")


def test_the_image_serves_with_gunicorn_and_does_not_run_as_root():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "FROM python:3.11" in dockerfile
    assert "USER hadal" in dockerfile and "gunicorn" in dockerfile


def production_environment() -> dict[str, str]:
    """The web service's environment from the compose file, with its ${VAR...} filled in as an
    operator's .env would."""
    filled = {"SECRET_KEY": "k" * 20 + "-a-long-random-production-secret-0123456789",
              "POSTGRES_PASSWORD": "pw", "APP_DB_PASSWORD": "pw",
              "ALLOWED_HOSTS": "hadal.example.org"}

    def fill(value: str) -> str:
        return re.sub(r"\$\{(\w+)(?::?[-?][^}]*)?\}",
                      lambda m: filled.get(m.group(1)) or _default(m.group(0)), value)
    env = compose()["services"]["web"]["environment"]
    return {name: fill(str(value)) for name, value in env.items()}


def _default(expression: str) -> str:
    match = re.fullmatch(r"\$\{\w+:-([^}]*)\}", expression)
    return match.group(1) if match else ""


def test_the_deploy_check_passes_with_the_production_environment(tmp_path):
    env = {**os.environ, **production_environment(), "STATIC_ROOT": str(tmp_path)}
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy",
                           "--fail-level", "WARNING"], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout
