"""The production compose file: the five services, settings from the environment only."""

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
