"""The bad inputs the outside check found giving 500s, JSON on every API path, and league
names in any script, on the compose deployment."""

from __future__ import annotations

import pytest

from tests.reliability.test_streams import Listening, new_game

pytestmark = pytest.mark.reliability

PLAYS = "play,date,game,player,guest,score,rank\r" + "".join(
    f"p{n},2026-0{n}-01,abyss,organiser,no,{60 + n},1\rp{n},2026-0{n}-01,abyss,Mina,yes,50,2\r"
    for n in range(1, 4)
)


@pytest.fixture
def club(stack, request):
    tokens = stack.members(["organiser"])
    auth = {"Authorization": f"Token {tokens['organiser']}"}
    name = f"Old spreadsheets {request.node.name[-12:]}"
    status, league = stack.post("/api/leagues/", {"name": name}, auth)
    assert status == 201, league
    return league["slug"], auth


def test_a_csv_with_carriage_returns_alone_is_imported(stack, club):
    """Old spreadsheet exports end lines in CR alone: it was a 500."""
    slug, auth = club
    page = stack.signed_in("organiser")
    status, body = page.upload(
        f"/leagues/{slug}/import/", {"format": "csv"}, "file", "plays.csv", PLAYS.encode()
    )
    assert status == 302, body
    status, standings = stack.get(f"/api/leagues/{slug}/standings/?game=abyss", auth)
    assert status == 200
    assert [(row["player"], row["games"]) for row in standings] == [("organiser", 3)]


def test_a_bgstats_file_nested_100000_deep_is_a_clear_refusal(stack, club):
    slug, _ = club
    page = stack.signed_in("organiser")
    deep = b'{"plays": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
    status, body = page.upload(
        f"/leagues/{slug}/import/", {"format": "bgstats"}, "file", "bgstats.json", deep
    )
    assert status == 200  # the league page again, the file refused on it
    assert b"nested" in body


def test_a_last_event_id_of_thousands_of_digits_is_ignored_not_a_500(stack):
    """Python's int() refuses more than 4,300 digits: 5,000 reach the app and are ignored
    (the stream resumes where it was asked to); 100,000 are more header than the server reads
    at all (a 400 from uvicorn, before the app)."""
    tokens = stack.members(["host", "guest"])
    game = new_game(stack, tokens, "host", "guest")
    auth = {"Authorization": f"Token {tokens['host']}"}
    path = f"/api/games/{game['id']}/stream/"
    stream = Listening(stack, path, {"Last-Event-ID": "9" * 5_000, **auth})
    try:
        assert stream.status == 200
        assert stream.until(game["version"])[-1]["head"] == game["version"]
    finally:
        stream.close()
    huge = Listening(stack, path, {"Last-Event-ID": "9" * 100_000, **auth})
    assert huge.status == 400


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [
        ("GET", "/api/games", 404),  # no trailing slash: was a redirect, an HTML page
        ("POST", "/api/games", 404),
        ("GET", "/api/no-such-thing/", 404),
        ("GET", "/api/games/99999999999999999999999/", 404),  # beyond any id: was a 500
        ("TRACE", "/api/me/stream/", 405),
        ("DELETE", "/api/games/types/", 405),
    ],
)
def test_every_api_path_answers_json(stack, method, path, status):
    answered, body, response = stack.request(method, path)
    assert answered == status
    assert response.getheader("Content-Type").startswith("application/json")
    assert isinstance(body, dict) and body["error"]


@pytest.mark.parametrize(
    ("name", "slug"),
    [("Λέσχη Πειραιά", "leschi-peiraia"), ("Клуб Глубина", "klub-glubina"), ("深海クラブ", "")],
)
def test_a_league_named_in_greek_cyrillic_or_japanese_is_kept_as_typed(stack, name, slug):
    auth = {"Authorization": f"Token {stack.members(['polyglot'])['polyglot']}"}
    status, league = stack.post("/api/leagues/", {"name": name}, auth)
    assert status == 201, league
    assert league["name"] == name
    assert league["slug"].isascii() and (not slug or league["slug"] == slug)
    status, shown = stack.get(f"/api/leagues/{league['slug']}/", auth)
    assert status == 200 and shown["name"] == name
    page = stack.signed_in("polyglot")
    status, html = page.get(f"/leagues/{league['slug']}/")
    assert status == 200 and name in html.decode()
