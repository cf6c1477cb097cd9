"""Every API operation declares the scope a token needs for it (accounts.scopes), and a token
without that scope is refused with a 403 naming it, before anything changes.

The operations are found by walking the URL resolver, so a new endpoint that declares nothing
fails here until it does (CONTRIBUTING.md says how)."""

from __future__ import annotations

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from rest_framework.test import APIClient

from accounts.scopes import EVERY, NONE, SCOPES, Either, HasScope, declared
from games.models import Game
from games.play import services
from league.models import Tournament
from tests.tokens import key_for

pytestmark = pytest.mark.django_db

# Documents about the API rather than operations of it: anyone may read them, token or not.
DOCUMENTS = {"api-schema", "api-docs"}
DSA = "deep-sea-adventure"


def _patterns(patterns, prefix: str = ""):
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _patterns(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern


def api_operations() -> list[tuple[str, str, object, str]]:
    """(URL name, route, the view as a request would find it, method) for every operation
    served under /api/."""
    found = []
    for route, pattern in _patterns(get_resolver().url_patterns):
        if not route.startswith("api/") or pattern.name in DOCUMENTS:
            continue
        callback = pattern.callback
        cls = getattr(callback, "cls", None)  # DRF's as_view()
        initkwargs = getattr(callback, "initkwargs", {})
        methods = set()
        if cls is None:
            cls = getattr(callback, "view_class", None)  # a stream: GET, through its gate
            methods = {"GET"}
        if cls is None:
            assert pattern.name is None, f"{route}: a view the test cannot read"
            continue  # the API's catch-all 404
        view = cls(**initkwargs)
        methods |= {
            m.upper()
            for m in cls.http_method_names
            if m not in ("options", "head", "trace") and hasattr(cls, m)
        }
        found += [(pattern.name, route, view, method) for method in sorted(methods)]
    return found


OPERATIONS = api_operations()


def test_the_walk_finds_the_api():
    names = {name for name, *_ in OPERATIONS}
    assert {"api-game-actions", "api-game-stream", "api-matches", "api-tournaments"} <= names
    assert len(OPERATIONS) > 60


@pytest.mark.parametrize(
    "name, route, view, method", OPERATIONS, ids=[f"{m} {n}" for n, _, _, m in OPERATIONS]
)
def test_every_operation_declares_its_scope_and_checks_it_first(name, route, view, method):
    need = declared(view, method)
    assert need is not None, f"{method} {route} declares no scope: give its view `scopes`"
    assert isinstance(need, Either) or need in (*SCOPES, EVERY, NONE), need
    # An override of permission_classes must keep the check, and keep it first.
    assert isinstance(view.get_permissions()[0], HasScope), f"{route}: HasScope first"


def _kwargs(route: str, game: int) -> dict:
    """Values for the route's parameters. A game's routes name a game the caller may see: one
    that does not exist, or is hidden from them, is a 404 whatever else is wrong (games.audience),
    and the refusal asked for here is the scope's."""
    values = {
        "pk": game if route.startswith("api/games/") else 1,
        "number": 1,
        "table": 1,
        "slug": "some-club",
        "username": "someone",
        "player": "someone",
        "code": "some-code",
    }
    return {k: v for k, v in values.items() if f":{k}>" in route}


def _lacking(need) -> tuple[list[str], str]:
    """Scopes a token may hold without ``need``, and the scope its 403 must name."""
    if isinstance(need, Either):
        return [s for s in SCOPES if s not in need.names], need.usual
    if need == EVERY:
        return [s for s in SCOPES if s != "organise"], "organise"
    return [s for s in SCOPES if s != need], need


REFUSABLE = [op for op in OPERATIONS if declared(op[2], op[3]) != NONE]


@pytest.mark.parametrize(
    "name, route, view, method", REFUSABLE, ids=[f"{m} {n}" for n, _, _, m in REFUSABLE]
)
def test_a_token_without_the_scope_is_refused_naming_it(alice, bob, name, route, view, method):
    held, missing = _lacking(declared(view, method))
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice, held)}")
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    url = reverse(name, kwargs=_kwargs(route, game.pk))
    response = client.generic(method, url, "{}", content_type="application/json")
    assert response.status_code == 403, (url, response.content[:200])
    assert response.json()["scope"] == missing
    assert f'"{missing}" scope' in response.json()["error"]


def test_a_read_only_token_cannot_move_resign_record_or_create_a_tournament(alice, bob):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Token {key_for(alice, ['read'])}")
    refused = {
        f"/api/games/{game.pk}/actions/": (
            {"seat": 0, "expected_version": 1, "action": {"type": "continue"}},
            "play",
        ),
        f"/api/games/{game.pk}/resign/": ({"seat": 0}, "play"),
        "/api/matches/": (
            {
                "game": DSA,
                "played_at": "2026-12-01",
                "results": [{"player": "alice", "rank": 1}, {"player": "bob", "rank": 2}],
            },
            "record",
        ),
        "/api/tournaments/": (
            {
                "name": "Cup",
                "game": DSA,
                "format": "swiss",
                "table_size": 2,
                "rounds": 1,
                "players": ["alice", "bob"],
            },
            "organise",
        ),
    }
    games_before = Game.objects.count()
    for url, (body, scope) in refused.items():
        response = reader.post(url, body, format="json")
        assert response.status_code == 403, url
        assert response.json() == {
            "error": f'this token does not have the "{scope}" scope',
            "scope": scope,
        }
    game.refresh_from_db()
    assert game.version == 1 and game.events.count() == 1
    assert Game.objects.count() == games_before and not Tournament.objects.exists()
    assert reader.get(f"/api/games/{game.pk}/").status_code == 200


def test_the_session_has_every_scope(alice, bob, client):
    game = services.game_create(
        slug=DSA, seats=[{"user": "alice"}, {"user": "bob"}], options={}, created_by=alice
    )
    client.force_login(alice)
    response = client.post(
        f"/api/games/{game.pk}/resign/", {"seat": 0}, content_type="application/json"
    )
    assert response.status_code == 201
