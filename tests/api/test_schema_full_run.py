"""The OpenAPI schema tells the truth: schemathesis's full run, every check (``--checks all``)
in every phase (examples, coverage, fuzzing, stateful), driven by the schema alone against a
live server, finds nothing. No 5xx, no answer the schema does not describe, no request the
schema forbids accepted, none it allows refused for a reason it could state, every method it
does not list a 405. tests/api/schemathesis.toml says what the schema cannot; config.schema
draws the line between 400, 404, 409 and 422 that the run holds the server to.

The event streams are run on their own, a message each (``max-stream-events``), since a
stream answers for as long as the client listens.

About five minutes on SQLite on a 2-core machine; ``HADAL_FUZZ_SEED`` picks another seed (the
default is fixed, so that CI is repeatable). The command that failed, and how to replay a
finding, are in the failure's message.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from config.celery import app as celery_app
from games.play import services
from league.services import leagues, tournaments
from league.tournament_spec import TournamentSpec
from tests.tokens import key_for

pytestmark = [
    pytest.mark.slow,
    pytest.mark.schema_fuzz,
    pytest.mark.django_db(transaction=True),
    pytest.mark.timeout(
        2400
    ),  # past the subprocess's own 1800 s, so that its message is the one seen
]

CONFIG = Path(__file__).with_name("schemathesis.toml")
SEED = os.environ.get("HADAL_FUZZ_SEED", "1")
DSA = "deep-sea-adventure"


@pytest.fixture(autouse=True)
def tasks_queued_not_run(monkeypatch):
    """Bot moves, clocks and ratings queued in memory and left there, as a broker holds them for
    the worker: run eagerly, a game of bots alone is played to its end inside the request that
    creates it, past the run's timeout. The run is of the API; the bots have tests of their own."""
    monkeypatch.setattr(celery_app.conf, "task_always_eager", False)
    monkeypatch.setattr(celery_app.conf, "broker_url", "memory://")


@pytest.fixture
def token(make_user):
    """A member with a game, a finished game, a league and a tournament, so that generated
    ids sometimes name something."""
    alice = make_user("alice")
    make_user("bob")
    seats = [{"user": "alice"}, {"user": "bob"}]
    services.game_create(slug=DSA, seats=seats, options={}, created_by=alice)
    over = services.game_create(slug=DSA, seats=seats, options={}, created_by=alice)
    services.game_resign(game=over.pk, seat=0, user=alice)
    leagues.league_create(name="Harbour", created_by=alice)
    tournaments.tournament_create(
        spec=TournamentSpec(
            name="Cup",
            game=DSA,
            format="swiss",
            table_size=2,
            rounds=1,
            mode="table",
            players=["alice", "bob"],
        ),
        created_by=alice,
    )
    return key_for(alice)


def full_run(url: str, token: str, cwd: Path, *selection: str) -> None:
    command = [
        sys.executable,
        "-m",
        "schemathesis.cli",
        "--config-file",
        str(CONFIG),
        "run",
        f"{url}/api/schema/",
        "--checks",
        "all",
        "--phases",
        "examples,coverage,fuzzing,stateful",
        "--header",
        f"Authorization: Token {token}",
        "--seed",
        SEED,
        "--workers",
        "1",
        "--no-color",
        *selection,
    ]
    # Its own folder: schemathesis keeps a cache of what it found where it runs.
    run = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=1800)
    shown = " ".join(command).replace(token, "TOKEN")
    assert run.returncode == 0, f"{shown}\n\n{run.stdout[-12000:]}\n{run.stderr[-3000:]}"


def test_the_full_run_finds_nothing(live_server, token, tmp_path):
    full_run(live_server.url, token, tmp_path, "--exclude-path-regex", "/stream/$")


def test_the_full_run_of_the_streams_finds_nothing(live_server, token, tmp_path, settings):
    settings.HADAL_STREAM_KEEPALIVE = 0.5  # a stream whose client has gone ends at its next
    full_run(live_server.url, token, tmp_path, "--include-path-regex", "/stream/$")
