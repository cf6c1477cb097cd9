"""Shared test set-up: fast hashing, Celery eager unless a test asks for the real worker, and
skips with a clear reason where a real service is not configured."""

from __future__ import annotations

import os

import pytest
from django.db import connection

from config.celery import app as celery_app

# The store conformance suite (tests/games/test_store_conformance.py) runs against SQLite and
# PostgreSQL in one run, each a database of its own: SQLite in a file (threads need real
# connections), PostgreSQL on the server the suite runs on (CI) or at HADAL_STORE_POSTGRES_URL.
STORE_DATABASES = ("store_sqlite", "store_postgres")


@pytest.fixture(scope="session")
def django_db_modify_db_settings(request, tmp_path_factory):
    import dj_database_url
    from django.conf import settings

    sqlite = tmp_path_factory.mktemp("store") / "store.sqlite3"
    settings.DATABASES["store_sqlite"] = {
        **dj_database_url.parse(f"sqlite:///{sqlite}"),
        "TEST": {"NAME": str(sqlite), "DEPENDENCIES": []},
        "OPTIONS": {
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
            "init_command": "PRAGMA journal_mode=WAL;",
        },
    }
    postgres = os.environ.get("HADAL_STORE_POSTGRES_URL")
    default = settings.DATABASES["default"]
    if default["ENGINE"].endswith("sqlite3") and not default.get("TEST", {}).get("NAME"):
        # A file, not Django's shared-cache memory database: there a live server's thread
        # reading while the test writes fails at once with "database table is locked" (shared
        # cache locks tables and ignores the busy timeout); a file in WAL mode lets readers
        # read and makes a second writer wait its turn, as `make run`'s database does.
        default.setdefault("TEST", {})["NAME"] = str(tmp_path_factory.mktemp("db") / "test.sqlite3")
    if default["ENGINE"].endswith("postgresql"):
        settings.DATABASES["store_postgres"] = {
            **default,
            "NAME": f"{default['NAME']}_store",
            "TEST": {"DEPENDENCIES": []},
        }
    elif postgres:
        settings.DATABASES["store_postgres"] = {
            **dj_database_url.parse(postgres),
            "TEST": {"DEPENDENCIES": []},
        }
    from django.db import connections

    connections.__dict__.pop("settings", None)  # let Django fill in the new aliases' defaults
    # pytest-django's own fixture, which this one replaces, gives each xdist worker its own
    # test databases: do that too, for the new aliases as well.
    request.getfixturevalue("django_db_modify_db_settings_parallel_suffix")


def pytest_runtest_setup(item):
    if item.get_closest_marker("postgres") and "postgres" not in os.environ.get("DATABASE_URL", ""):
        pytest.skip("needs PostgreSQL: set DATABASE_URL=postgres://... (.ci/run does)")
    if (
        item.get_closest_marker("redis_cache") or item.get_closest_marker("redis")
    ) and not os.environ.get("REDIS_URL"):
        pytest.skip("needs Redis: set REDIS_URL=redis://... (.ci/run does)")
    if item.get_closest_marker("celery_worker"):
        if not os.environ.get("REDIS_URL"):
            pytest.skip("needs Redis: set REDIS_URL=redis://... (.ci/run does)")
        if not os.environ.get("CELERY_WORKER"):
            pytest.skip(
                "needs a real Celery worker on the test database: .ci/run starts one "
                "and sets CELERY_WORKER=1"
            )


@pytest.fixture(autouse=True)
def _fast_settings(request):
    if "django_db_setup" not in request.fixturenames and not _uses_django(request):
        return  # pure tests (rules, bots, ratings) need no Django at all
    settings = request.getfixturevalue("settings")
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # Heads stay in the test's process (tests/games/test_head_sharing.py shares them).
    settings.HADAL_SHARED_HEADS = False
    # No sweeping thread behind a test's back (games.play.sweeper); the tests of it start one.
    settings.HADAL_EAGER_SWEEP_SECONDS = 0
    if not request.node.get_closest_marker("redis_cache"):
        # A cache of the test's own: throttles and counters never leak between tests.
        settings.CACHES = {
            "default": {
                "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
                "LOCATION": request.node.nodeid,
            }
        }


def _uses_django(request) -> bool:
    return request.config.pluginmanager.hasplugin("django")


@pytest.fixture(autouse=True)
def _after_commit_failures_fail_the_test(request, caplog):
    """Work run after a commit logs its failures instead of raising (games.play.services
    .after_commit); a test fails on such a log unless it expects one."""
    yield
    if request.node.get_closest_marker("after_commit_errors"):
        return
    failures = [
        r.getMessage()
        for r in caplog.get_records("call")
        if r.name == "games.play.services" and r.levelname == "ERROR"
    ]
    assert not failures, failures


@pytest.fixture(autouse=True)
def _celery_mode(request):
    """Eager everywhere, except where a test runs against the real worker."""
    eager = request.node.get_closest_marker("celery_worker") is None
    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = eager
    yield
    celery_app.conf.task_always_eager = before


@pytest.fixture(autouse=True)
def _empty_state_cache(request):
    """Each test starts with a cold state cache (test transactions roll back what it saw)."""
    if not _uses_django(request):
        yield
        return
    from games.store import state_cache
    from inbox.delivery import forget_choices

    state_cache.clear()
    forget_choices()
    yield
    state_cache.clear()


@pytest.fixture
def make_user(django_user_model):
    def make(username: str, password: str = "pw-for-tests-only"):
        return django_user_model.objects.create_user(username=username, password=password)

    return make


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def api(alice):
    """An API client signed in as alice by token."""
    from rest_framework.test import APIClient

    from tests.tokens import key_for

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice)}")
    return client


@pytest.fixture
def api_for():
    from rest_framework.test import APIClient

    from tests.tokens import key_for

    def make(user):
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(user)}")
        return client

    return make


def is_postgres() -> bool:
    return connection.vendor == "postgresql"
