"""The OpenAPI schema tells the truth: schemathesis, driven by the schema alone, sends every
operation generated requests against a live server and finds no 5xx and no answer the schema
does not describe (status, content type, body). Bounded so that it fits the suite."""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token

from games import services
from league.services import leagues, tournaments

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

CHECKS = [
    schemathesis.checks.not_a_server_error,
    schemathesis.checks.status_code_conformance,
    schemathesis.checks.content_type_conformance,
    schemathesis.checks.response_schema_conformance,
]
EXAMPLES = int(os.environ.get("HADAL_FUZZ_EXAMPLES", "12"))


@pytest.fixture
def token(make_user):
    """A member with a game, a league and a tournament, so generated ids sometimes exist."""
    alice = make_user("alice")
    make_user("bob")
    services.game_create(
        slug="deep-sea-adventure",
        seats=[{"user": "alice"}, {"user": "bob"}],
        options={},
        created_by=alice,
    )
    leagues.league_create(name="Harbour", created_by=alice)
    tournaments.tournament_create(
        name="Cup",
        game="deep-sea-adventure",
        format="swiss",
        table_size=2,
        rounds=1,
        mode="table",
        players=["alice", "bob"],
        created_by=alice,
    )
    return Token.objects.create(user=alice).key


@pytest.fixture
def api_schema(live_server):
    return schemathesis.openapi.from_url(f"{live_server.url}/api/schema/")


# The event streams answer for as long as the client listens, which a generated request never
# stops doing: tests/games/test_streams.py covers them against real servers.
schema = schemathesis.pytest.from_fixture("api_schema").exclude(path_regex=r"/stream/$")


@schema.parametrize()
@settings(
    max_examples=EXAMPLES, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck)
)
def test_every_operation_answers_as_its_schema_says(case, token):
    case.call_and_validate(headers={"Authorization": f"Token {token}"}, checks=CHECKS)
