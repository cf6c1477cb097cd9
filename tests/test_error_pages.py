"""The site's own 404 and 500 pages (with DEBUG off, and the 404 with DEBUG on as under
``make run``), and its favicon."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("debug", [False, True])
def test_a_missing_page_is_the_sites_own(client, debug):
    with override_settings(DEBUG=debug):
        for path in ("/no-such-page/", "/games/999999/"):
            response = client.get(path)
            body = response.content.decode()
            assert response.status_code == 404
            assert "Nothing down here" in body and 'class="site-header"' in body
            assert "URLconf" not in body


@pytest.mark.parametrize("debug", [False, True])
def test_a_missing_api_path_stays_json(client, debug):
    with override_settings(DEBUG=debug):
        response = client.get("/api/no-such-thing/")
    assert response.status_code == 404 and response.json() == {"error": "not found"}


def test_a_missing_page_keeps_the_slash_redirect(client):
    with override_settings(DEBUG=True):
        response = client.get("/ratings")
    assert response.status_code == 301 and response["Location"] == "/ratings/"


def test_the_500_page_needs_no_request_nor_database(client, monkeypatch):
    from django.db import connection
    from django.template import loader

    def no_database(*args, **kwargs):
        raise AssertionError("the 500 page asked the database")

    monkeypatch.setattr(connection, "cursor", no_database)
    body = loader.get_template("500.html").render()
    assert "Something went wrong on our side" in body and 'class="site-header"' in body


def test_an_error_in_a_page_shows_the_500_page(client, monkeypatch):
    from games.pages import play

    def broken(*args, **kwargs):
        raise RuntimeError("broken on purpose")

    monkeypatch.setattr(play, "front_games", broken)
    client.raise_request_exception = False
    response = client.get("/")
    assert response.status_code == 500
    assert "Something went wrong on our side" in response.content.decode()


def test_favicon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301 and response["Location"].endswith(".svg")
    base = (Path(settings.BASE_DIR) / "templates" / "base.html").read_text()
    assert 'rel="icon" href="{% static \'img/hadal.svg\' %}"' in base
