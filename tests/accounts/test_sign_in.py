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
        asked = mock.Mock(META={"REMOTE_ADDR": "x"}, headers={}, COOKIES={})
        [_, (_, key)] = FailedSignInThrottle("alice").keys(asked)
        assert len(cache.get(key)) == 10
        assert token(APIClient(), WRONG).status_code == 429
    finally:
        cache.clear()


# -- nobody locks a member out ------------------------------------------------------------------


def attack(username: str = "alice", addresses: int = 11) -> None:
    """Wrong passwords for ``username`` from devices it never signed in on, each from an
    address of its own (a botnet: no address reaches its own limit)."""
    for i in range(addresses):
        token(APIClient(REMOTE_ADDR=f"192.0.2.{i}"), {"username": username, "password": "guess"})


def signed_in_device() -> APIClient:
    """alice's own phone: it has signed in before, and keeps the cookie that says so."""
    phone = APIClient(REMOTE_ADDR="10.9.9.9")
    answer = token(phone, RIGHT)
    assert answer.status_code == 200 and "hadal_device" in answer.cookies
    return phone


def test_the_owners_own_device_signs_in_while_others_guess_at_the_account(alice):
    phone = signed_in_device()
    attack()
    stranger = APIClient(REMOTE_ADDR="192.0.2.200")
    refused = token(stranger, RIGHT)
    assert refused.status_code == 429
    assert "from devices it has not signed in on" in refused.json()["error"]
    assert token(phone, RIGHT).status_code == 200  # was a 429 for a minute: a lock-out


def test_the_sign_in_page_remembers_the_device_too(alice):
    laptop = Client(REMOTE_ADDR="10.9.9.8")
    assert laptop.post("/accounts/login/", RIGHT).status_code == 302
    laptop.post("/accounts/logout/")
    attack()
    page = Client(REMOTE_ADDR="192.0.2.201").post("/accounts/login/", RIGHT)
    assert page.status_code == 429
    assert "sign in from a phone or computer you have signed in on before" in page.content.decode()
    assert laptop.post("/accounts/login/", RIGHT).status_code == 302


def test_a_device_remembered_for_one_account_is_a_stranger_to_another(alice, bob):
    phone = signed_in_device()  # alice's
    attack("bob")
    assert token(phone, {"username": "bob", "password": "pw-for-tests-only"}).status_code == 429


def test_a_forged_device_cookie_is_no_proof(alice):
    attack()
    forger = APIClient(REMOTE_ADDR="192.0.2.202")
    forger.cookies["hadal_device"] = "eyJhY2NvdW50cyI6WyJ4Il19:forged:signature"
    assert token(forger, RIGHT).status_code == 429


def test_the_owners_typos_on_their_own_device_count_for_their_address_only(alice):
    phone = signed_in_device()
    for _ in range(10):
        token(phone, WRONG)
    assert token(phone, RIGHT).status_code == 429  # their address, as anyone's
    assert token(APIClient(REMOTE_ADDR="10.1.1.1"), RIGHT).status_code == 200


def test_with_the_cache_away_members_still_sign_in(alice, caplog):
    from django.core.cache import cache

    from accounts.throttling import FailedSignInThrottle

    down = ConnectionError("Error 111 connecting to redis:6379. Connection refused.")
    with (
        mock.patch.object(FailedSignInThrottle, "cache", cache),
        mock.patch.object(cache, "get", side_effect=down),
        mock.patch.object(cache, "set", side_effect=down),
    ):
        assert token(APIClient(), RIGHT).status_code == 200
        assert token(APIClient(), WRONG).status_code == 400
        assert Client().post("/accounts/login/", RIGHT).status_code == 302
    assert "the cache is unavailable" in caplog.text


# -- by e-mail address ----------------------------------------------------------------------------


@pytest.fixture
def alice_with_address(alice):
    from allauth.account.models import EmailAddress

    EmailAddress.objects.create(user=alice, email="alice@example.org", primary=True, verified=True)
    return alice


BY_ADDRESS = {"username": "Alice@Example.org", "password": "pw-for-tests-only"}


def test_a_member_signs_in_by_e_mail_address_on_the_page_and_for_a_token(alice_with_address):
    page = Client()
    assert page.post("/accounts/login/", BY_ADDRESS).status_code == 302
    assert page.get("/").context["user"] == alice_with_address
    assert token(APIClient(), BY_ADDRESS).status_code == 200
    wrong = Client().post("/accounts/login/", {**BY_ADDRESS, "password": "nope"})
    assert wrong.status_code == 200
    assert "That username or e-mail address and password do not match" in wrong.content.decode()


def test_guesses_by_address_and_by_username_count_together(alice_with_address):
    """Five wrong passwords by address, five by username, each from an address of its own: the
    account has had ten, and devices it never signed in on wait, by either name."""
    for i in range(5):
        Client(REMOTE_ADDR=f"192.0.2.{i}").post(
            "/accounts/login/", {"username": "alice@example.org", "password": "guess"}
        )
        token(APIClient(REMOTE_ADDR=f"192.0.2.{10 + i}"), WRONG)
    for login in ("alice", "alice@example.org", "ALICE@example.org"):
        refused = Client(REMOTE_ADDR="192.0.2.99").post(
            "/accounts/login/", {"username": login, "password": "pw-for-tests-only"}
        )
        assert refused.status_code == 429, login
    assert token(APIClient(REMOTE_ADDR="192.0.2.98"), BY_ADDRESS).status_code == 429


def test_a_device_that_signed_in_by_address_is_not_held_up_by_guesses_at_the_username(
    alice_with_address,
):
    laptop = Client(REMOTE_ADDR="10.9.9.7")
    assert laptop.post("/accounts/login/", BY_ADDRESS).status_code == 302
    laptop.post("/accounts/logout/")
    attack()
    assert Client(REMOTE_ADDR="192.0.2.203").post("/accounts/login/", RIGHT).status_code == 429
    for login in ("alice", "alice@example.org"):
        answer = laptop.post(
            "/accounts/login/", {"username": login, "password": "pw-for-tests-only"}
        )
        assert answer.status_code == 302, login
        laptop.post("/accounts/logout/")


def test_an_address_two_accounts_hold_unverified_remembers_neither(alice, bob):
    """Anyone can hold an address unverified; signing in by it proves no one account, so the
    device is not remembered, and guesses by it count against both."""
    from allauth.account.models import EmailAddress

    from accounts.throttling import account_names

    for user in (alice, bob):
        EmailAddress.objects.create(user=user, email="shared@example.org", primary=True)
    assert account_names("shared@example.org") == ["alice", "bob"]
    answer = token(APIClient(), {"username": "shared@example.org", "password": "pw-for-tests-only"})
    assert answer.status_code == 200 and "hadal_device" not in answer.cookies
    assert account_names("nobody@example.org") == ["nobody@example.org"]
    assert account_names(" Alice ") == ["alice"]
