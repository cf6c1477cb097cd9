"""Every API answer is JSON, ``{"error": ...}`` when it is an error, whoever refuses the
request: DRF, Django before any view (a Host not allowed, too many fields, CSRF), the URL
resolver (an unknown path, a trailing slash missing) or an event stream asked with another
method than GET. /api/docs/ (Swagger UI, a page) and a stream that opens are the only exceptions."""

from __future__ import annotations

import pytest
from django.test import Client

from games.play import services
from tests.tokens import key_for

pytestmark = pytest.mark.django_db

DSA = "deep-sea-adventure"
STREAM_METHODS = ["TRACE", "PUT", "PATCH", "DELETE", "POST", "OPTIONS"]


@pytest.fixture
def game(alice, bob):
    return services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )


@pytest.fixture
def token(alice) -> str:
    return key_for(alice)


def api() -> Client:
    return Client(raise_request_exception=False)


def assert_json_error(response, status: int) -> dict:
    assert response.status_code == status, (response.status_code, response.content[:300])
    assert response["Content-Type"].startswith("application/json"), response["Content-Type"]
    body = response.json()
    assert body["error"], body
    return body


@pytest.mark.parametrize("debug", [False, True], ids=["production", "DEBUG"])
@pytest.mark.parametrize("method", ["GET", "POST", "DELETE"])
@pytest.mark.parametrize("path", ["/api/nothing-here/", "/api/nothing-here", "/api/games/1/x/"])
def test_an_unknown_api_path_is_a_json_404(settings, debug, method, path):
    settings.DEBUG = debug
    assert_json_error(api().generic(method, path), 404)


@pytest.mark.parametrize("debug", [False, True], ids=["production", "DEBUG"])
@pytest.mark.parametrize("method", ["GET", "POST"])
def test_a_missing_trailing_slash_is_a_json_404_naming_the_address(settings, token, method, debug):
    # Not APPEND_SLASH's redirect, an HTML page whose POST would lose its body on the way.
    settings.DEBUG = debug
    response = api().generic(
        method, "/api/games", b"{}", "application/json", HTTP_AUTHORIZATION=f"Token {token}"
    )
    body = assert_json_error(response, 404)
    assert body["error"] == "not found: the address ends in a slash, /api/games/"


def test_a_page_without_its_slash_is_still_redirected():
    response = api().get("/leagues")
    assert response.status_code == 301 and response["Location"] == "/leagues/"


def test_a_host_not_allowed_is_a_json_400():
    assert_json_error(api().get("/api/games/types/", HTTP_HOST="evil.example"), 400)
    page = api().get("/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


def test_too_many_fields_is_a_json_400(settings):
    settings.DATA_UPLOAD_MAX_NUMBER_FIELDS = 10
    query = "&".join(f"f{i}=1" for i in range(20))
    assert_json_error(api().get(f"/api/games/types/?{query}"), 400)
    form = {f"f{i}": "1" for i in range(20)}
    assert_json_error(api().post("/api/auth/token/", form), 400)


def test_a_session_post_without_its_csrf_token_is_a_json_403(alice):
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(alice)
    response = client.post(
        "/api/games/",
        {"game": DSA, "seats": [{"user": "alice"}, {"user": "bob"}]},
        content_type="application/json",
    )
    assert "CSRF" in assert_json_error(response, 403)["error"]


def test_the_csrf_failure_view_answers_json_for_the_api_and_a_page_elsewhere(rf):
    from config.http import csrf_failure

    refused = csrf_failure(rf.post("/api/games/"), reason="CSRF token missing")
    assert refused.status_code == 403 and b"CSRF token missing" in refused.content
    assert refused["Content-Type"].startswith("application/json")
    page = csrf_failure(rf.post("/leagues/"), reason="CSRF token missing")
    assert page.status_code == 403 and page["Content-Type"].startswith("text/html")


@pytest.mark.parametrize("method", STREAM_METHODS)
@pytest.mark.parametrize("path", ["/api/games/{game}/stream/", "/api/me/stream/"])
def test_a_stream_refuses_a_method_it_does_not_take_with_a_json_405(
    alice, game, token, path, method
):
    # TRACE was answered as a GET (the stream opened, 200); PUT and DELETE were CSRF pages.
    client = Client(enforce_csrf_checks=True, raise_request_exception=False)
    client.force_login(alice)
    response = client.generic(method, path.format(game=game.pk))
    assert_json_error(response, 405)
    assert response["Allow"] == "GET"


def test_a_stream_still_opens_with_get(alice, game, token):
    game.status = "finished"
    game.save(update_fields=["status"])
    response = api().get(
        f"/api/games/{game.pk}/stream/?after={game.version}", HTTP_AUTHORIZATION=f"Token {token}"
    )
    assert response.status_code == 204  # finished and all sent


def test_an_error_from_a_view_that_is_not_drfs_is_json(monkeypatch, token, game):
    from games.api import live as streams

    def broken(*args, **kwargs):
        raise RuntimeError("the stream broke")

    monkeypatch.setattr(streams, "_respond", broken)
    response = api().get(f"/api/games/{game.pk}/stream/", HTTP_AUTHORIZATION=f"Token {token}")
    assert_json_error(response, 500)


def test_the_docs_are_a_page_on_purpose():
    response = api().get("/api/docs/")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/html")
