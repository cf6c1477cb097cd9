"""Signing in on the compose deployment: a client is known by the address it really comes
from, a burst of wrong passwords is refused, and nobody can lock another member out."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.reliability

WRONG = {"password": "not the password"}


def token_attempt(stack, username: str, password: str, **how):
    headers = how.pop("headers", {})
    return stack.post(
        "/api/auth/token/", {"username": username, "password": password}, headers, **how
    )


def test_naming_another_address_in_x_forwarded_for_does_not_escape_the_limit(stack):
    """Through the published port every request carries the address it came from, whatever
    X-Forwarded-For it sends: the eleventh wrong password in a minute is a 429."""
    names = [f"sprayed{i}" for i in range(30)]
    stack.members(names)
    statuses = [
        token_attempt(stack, name, "Winter2026!", headers={"X-Forwarded-For": f"198.51.100.{i}"})[0]
        for i, name in enumerate(names)
    ]
    assert statuses[:10] == [400] * 10
    assert set(statuses[10:]) == {429}


def test_a_client_that_reaches_the_app_directly_is_known_by_its_own_address(stack):
    """gunicorn's port is not published; should it be reachable anyway (from another
    container, say), what a client there says of itself is not believed: neither the address
    nor that it came over https (so it is sent to https, and never reaches a sign-in)."""
    status, _, response = stack.request(
        "POST",
        "/api/auth/token/",
        {"username": "anyone", "password": "x"},
        {"X-Forwarded-For": "203.0.113.9", "X-Forwarded-Proto": "https"},
        direct=True,
        source="127.0.0.3",
    )
    assert status == 301
    assert response.getheader("Location").startswith("https://")


def test_guessing_at_a_members_name_does_not_lock_the_member_out(stack):
    """Eleven wrong passwords for a username refused its owner's right one for a minute. Now
    the owner's own device, which has signed in before, is not held up; only devices the
    account never signed in on wait. Each client here comes from an address of its own."""
    stack.members(["owner"])
    right = {"username": "owner", "password": "a long pass phrase"}
    status, _, response = stack.request("POST", "/api/auth/token/", right, source="127.0.2.1")
    assert status == 200
    device = response.getheader("Set-Cookie").split(";")[0]
    assert device.startswith("hadal_device=")
    for i in range(11):  # a guesser with many addresses, one try each
        token_attempt(stack, "owner", "guess", source=f"127.0.1.{i + 1}")
    status, refused = token_attempt(stack, "owner", right["password"], source="127.0.2.2")
    assert status == 429 and "from devices it has not signed in on" in refused["error"]
    status, answer = token_attempt(
        stack, "owner", right["password"], headers={"Cookie": device}, source="127.0.2.1"
    )
    assert status == 200, answer


@pytest.fixture
def redis_away(stack):
    stack.stop_redis()
    try:
        yield
    finally:
        stack.start_redis()


def test_with_redis_away_members_still_sign_in(stack, redis_away):
    stack.members(["steady"])
    status, answer = token_attempt(stack, "steady", "a long pass phrase", source="127.0.3.1")
    assert status == 200, answer
    status, answer = token_attempt(stack, "steady", "wrong", source="127.0.3.1")
    assert status == 400, answer
    assert "sign-in throttle: the cache is unavailable" in stack.log("web")
