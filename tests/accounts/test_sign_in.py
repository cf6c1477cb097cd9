"""A burst of wrong passwords is refused with a 429, on the token endpoint and the sign-in page,
and answered normally again once the burst has passed (issue 12, item 7)."""

from __future__ import annotations

from unittest import mock

import pytest
from django.test import Client
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

WRONG = {"username": "alice", "password": "not-her-password"}
RIGHT = {"username": "alice", "password": "pw-for-tests-only"}


def token(client, body):
    return client.post("/api/auth/token/", body, format="json")


def later(seconds: float):
    import time

    now = time.time() + seconds
    return mock.patch("rest_framework.throttling.SimpleRateThrottle.timer", return_value=now)


def test_the_token_endpoint_refuses_a_burst_of_wrong_passwords_then_recovers(alice):
    client = APIClient()
    statuses = [token(client, WRONG).status_code for _ in range(12)]
    assert statuses[:10] == [400] * 10 and statuses[10:] == [429, 429]
    refused = token(client, RIGHT)
    assert refused.status_code == 429 and "error" in refused.json()
    assert int(refused["Retry-After"]) > 0
    with later(61):
        assert token(client, RIGHT).status_code == 200


def test_a_right_password_is_never_counted(alice):
    client = APIClient()
    for _ in range(30):
        assert token(client, RIGHT).status_code == 200


def test_another_account_from_elsewhere_is_not_held_up(alice, bob):
    for _ in range(10):
        token(APIClient(REMOTE_ADDR="10.0.0.1"), WRONG)
    assert token(APIClient(REMOTE_ADDR="10.0.0.1"), WRONG).status_code == 429
    other = APIClient(REMOTE_ADDR="10.0.0.2")
    assert token(other, {"username": "bob", "password": "pw-for-tests-only"}).status_code == 200
    # ... but alice's account is held from every address.
    assert token(other, WRONG).status_code == 429


def test_the_sign_in_page_refuses_a_burst_too(alice):
    client = Client()
    statuses = [client.post("/accounts/login/", WRONG).status_code for _ in range(11)]
    assert statuses[:10] == [200] * 10 and statuses[10] == 429
    assert "Too many attempts" in client.post("/accounts/login/", RIGHT).content.decode()
    with later(61):
        assert client.post("/accounts/login/", RIGHT).status_code == 302


@pytest.mark.redis_cache
def test_the_burst_is_counted_in_the_shared_cache(alice, settings):
    from django.core.cache import cache

    from accounts.throttling import FailedSignInThrottle

    assert "Redis" in settings.CACHES["default"]["BACKEND"]
    cache.clear()  # .ci/run gives the cache a Redis database of its own
    try:
        for _ in range(10):
            token(APIClient(), WRONG)
        key = FailedSignInThrottle("alice").keys(mock.Mock(META={"REMOTE_ADDR": "x"}, headers={}))[
            1
        ]
        assert len(cache.get(key)) == 10
        assert token(APIClient(), WRONG).status_code == 429
    finally:
        cache.clear()
