"""`make run` loads the demo: it must work on an empty database and be safe to run twice."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command

from games.models import Game
from games.rules import registered
from league.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_demo_shows_every_playable_game_and_runs_twice(capsys):
    call_command("demo")
    slugs = set(Game.objects.filter(mode="play").values_list("slug", flat=True))
    assert slugs == set(registered())
    assert Game.objects.filter(slug="deep-sea-adventure", status="finished").exists()
    assert Tournament.objects.filter(name="Winter Vents Cup").exists()
    count = Game.objects.count()
    call_command("demo")
    assert Game.objects.count() == count
    assert "alice password: alice-demo" in capsys.readouterr().out


@pytest.mark.slow
def test_make_run_s_commands_print_no_broker_warning(tmp_path):
    """As `make run` runs them on a fresh machine (SQLite, no Redis, Celery eager), migrate and
    demo print what they did and no "No hostname was supplied" from kombu's in-memory broker.
    About 15 s: two processes, the migrations run on an empty database."""
    root = Path(__file__).resolve().parents[2]
    env = {
        name: value
        for name, value in os.environ.items()
        if not name.startswith(("REDIS_", "CELERY_", "HADAL_STREAM_", "DJANGO_SETTINGS"))
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    said = ""
    for command in (["migrate", "--no-input"], ["demo"]):
        done = subprocess.run(
            [sys.executable, "manage.py", *command],
            cwd=root,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stderr
        said += done.stdout + done.stderr
    assert "Demo data ready" in said
    assert "No hostname was supplied" not in said, said
