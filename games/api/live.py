"""The event streams' endpoints: async views, since a stream stays open for as long as the
client listens and an ASGI worker holds thousands of them where a WSGI worker holds one.

Who may listen is decided exactly as for the JSON API: DRF's pipeline (content negotiation,
the authentication classes, token or session, the permissions, throttles) runs on the request
in a thread, and its errors are the API's ``{"error": ...}`` answers. Then the response is a
stream (games.live.streams) over an async iterator under ASGI, a plain one under WSGI.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import renderers
from rest_framework.permissions import IsAuthenticated, IsAuthenticatedOrReadOnly
from rest_framework.views import APIView

from accounts.scopes import READ, HasScope
from core import inputs
from games.live import leases as stream_leases
from games.live import streams
from games.models import GameStatus
from games.selectors import game_with_seats


class EventStreamRenderer(renderers.BaseRenderer):
    """Lets a client ask for ``text/event-stream`` (EventSource does) through DRF's content
    negotiation; the stream itself is written by games.live.streams, not rendered."""

    media_type = "text/event-stream"
    format = "event-stream"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        return renderers.JSONRenderer().render(data)


class _Gate(APIView):
    """DRF's checks on a stream's request, without a DRF response."""

    scopes = {"GET": READ}

    renderer_classes = [renderers.JSONRenderer, EventStreamRenderer]

    def opened(self, request: HttpRequest, **kwargs):
        """The stream's feed, a response to answer instead (an error, a 204), after DRF's
        authentication, permissions and throttles."""
        self.args, self.kwargs = (), kwargs
        drf_request = self.initialize_request(request, **kwargs)
        self.request = drf_request
        self.headers = self.default_response_headers
        lease = None
        try:
            self.initial(drf_request, **kwargs)
            user = drf_request.user
            lease = stream_leases.acquire(
                user_id=user.pk if user.is_authenticated else None,
                address=request.META.get("REMOTE_ADDR") or "unknown",
            )
            opened = self.open(drf_request, **kwargs)
            if isinstance(opened, HttpResponse):
                stream_leases.release(lease)
            else:
                opened.hold(lease)
                # A token's stream asks about it again now and then, and ends once it is
                # revoked or expired (games.live.streams); the session's has nothing to ask.
                opened.token = drf_request.auth if hasattr(drf_request.auth, "scopes") else None
            return opened
        except Exception as exc:
            if lease is not None:
                stream_leases.release(lease)
            response = self.handle_exception(exc)
            response.accepted_renderer = renderers.JSONRenderer()
            response.accepted_media_type = "application/json"
            response.renderer_context = self.get_renderer_context()
            return response.render()

    def open(self, request, **kwargs: Any) -> HttpResponse | streams.GameFeed | streams.UserFeed:
        """A feed to stream, or a response that ends the request (204: nothing more to send)."""
        raise NotImplementedError


class _GameGate(_Gate):
    permission_classes = [HasScope, IsAuthenticatedOrReadOnly]  # as /events/: spectators may watch

    def open(self, request, **kwargs: Any) -> HttpResponse | streams.GameFeed:
        game = game_with_seats(kwargs["pk"], seen_by=request.user)
        asked = request.query_params.get("after")
        # As /events/ reads it: not a version at all, a 400; one the game has not reached, a 422.
        after = 0 if asked is None else inputs.version(asked, game.version, 0, "after")
        after = streams.last_event_id(request.headers.get("Last-Event-ID"), after, game.version)
        if game.status != GameStatus.ACTIVE and after >= game.version:
            return HttpResponse(status=204)  # over and all sent: EventSource stops retrying
        return streams.GameFeed(game=game, user=request.user, after=after)


class _UserGate(_Gate):
    permission_classes = [HasScope, IsAuthenticated]

    def open(self, request, **kwargs: Any) -> streams.UserFeed:
        # EventSource's Last-Event-ID (lenient: garbage starts afresh), or ?after= from a page
        # that let its stream rest (stream.js), which the schema types: a bad one is a 400.
        asked = request.query_params.get("after")
        after = None if asked is None else inputs.whole_number(asked, "after", 0, inputs.BIGINT)
        after = streams.last_notice_id(request.headers.get("Last-Event-ID")) or after
        return streams.UserFeed(user=request.user, after=after)


# Only GET is served, and a GET changes nothing: the CSRF check has nothing to guard here, and
# its refusal would answer another method's 405 with a 403.
@csrf_exempt
async def game_stream(request: HttpRequest, pk: int) -> HttpResponse:
    """``GET /api/games/{id}/stream/?after=V``: the game's new events as you may see them."""
    if request.method != "GET":
        return _not_allowed(request)
    return _respond(
        request, await sync_to_async(streams.released(_GameGate().opened))(request, pk=pk)
    )


@csrf_exempt
async def user_stream(request: HttpRequest) -> HttpResponse:
    """``GET /api/me/stream/``: your turns, invitations and tournament rounds as they come."""
    if request.method != "GET":
        return _not_allowed(request)
    return _respond(request, await sync_to_async(streams.released(_UserGate().opened))(request))


# The class whose checks each stream runs, as Django's class-based views name theirs: the API's
# scope test (tests/api/test_scopes.py) and the schema read its declared scopes there.
game_stream.view_class = _GameGate
user_stream.view_class = _UserGate


def _not_allowed(request: HttpRequest) -> HttpResponse:
    response = JsonResponse(
        {"error": f"method {request.method} is not allowed here; a stream is read with GET"},
        status=405,
    )
    response["Allow"] = "GET"
    return response


def _respond(request: HttpRequest, opened) -> HttpResponse:
    if isinstance(opened, HttpResponse):
        return opened
    body: AsyncIterator[str] | Iterator[str] = (
        streams.stream_async(opened)
        if isinstance(request, ASGIRequest)
        else streams.stream_sync(opened)
    )
    response = StreamingHttpResponse(body, content_type="text/event-stream; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["X-Accel-Buffering"] = "no"  # a proxy in front must pass each message on at once
    return response


# -- the schema -----------------------------------------------------------------------------------

_EVENT_MESSAGE = {
    "type": "object",
    "description": (
        "One SSE message per event: `id:` is the event's version (resume with Last-Event-ID), "
        "`data:` this JSON on one line. A comment line `: keep-alive` comes every 15 s when "
        "nothing else does. The stream ends once a finished game's last event is sent; asked "
        "again after that it answers 204. A stream opened with a token ends within 15 s of the "
        "token's revocation or expiry (`: ended; the token is no longer valid`), and asking "
        "again with it is a 401."
    ),
    "required": ["type", "version", "head", "status", "current_player", "your_turn", "event"],
    "properties": {
        "type": {"type": "string", "enum": ["event"]},
        "version": {"type": "integer", "description": "this event's version (its seq)"},
        "head": {
            "type": "integer",
            "description": "the game's version once this event's batch is in: act when "
            "version == head",
        },
        "status": {"type": "string", "enum": ["active", "finished", "void"]},
        "current_player": {
            "type": "integer",
            "nullable": True,
            "description": "the seat to play at `head` (null once over)",
        },
        "your_turn": {"type": "boolean", "description": "you hold that seat"},
        "event": {"$ref": "#/components/schemas/EventOut"},
    },
}
_NOTICE_MESSAGE = {
    "type": "object",
    "description": (
        "Your inbox as it changes. Each new notice is one SSE message, `id:` the notice's id "
        "(EventSource resumes after it with Last-Event-ID), `data:` the notice as "
        "`GET /api/me/notices/` gives it, plus the fields of its older shape (`type` your_turn, "
        "invitation, round_paired or club, with `game`, `seat`, `name`, `accept`, `decline`, "
        "`tournament`, `round`, `table` where they apply; `notice` for the other kinds). After "
        'each change, a message without `id:`, `{"type": "counts", "unread", "turns", '
        '"invitations"}`: what the nav shows. On connecting, the notices still open (what '
        "waits for you now), then the counts; on reconnecting with Last-Event-ID, only those "
        "after it. Keep-alive comments, and the end of a revoked or expired token's stream, as "
        "on a game's stream."
    ),
    "required": ["type"],
    "properties": {
        "type": {
            "type": "string",
            "enum": ["your_turn", "invitation", "round_paired", "club", "notice", "counts"],
        },
        "id": {"type": "integer", "description": "the notice's id (not on counts)"},
        "kind": {"type": "string", "description": "the notice's kind (inbox.kinds)"},
        "text": {"type": "string", "description": "the notice, in words"},
        "url": {"type": "string", "description": "where it leads"},
        "created": {"type": "string", "format": "date-time"},
        "read": {"type": "boolean"},
        "game": {"type": "integer", "nullable": True, "description": "the game (null for a bye)"},
        "seat": {"type": "integer"},
        "version": {"type": "integer", "description": "your_turn: the version your turn began"},
        "name": {"type": "string", "description": "the game's name"},
        "accept": {"type": "string", "description": "invitation: where to POST {seat} to accept"},
        "decline": {"type": "string", "description": "invitation: where to POST to decline"},
        "tournament": {"type": "string", "description": "round_paired: the tournament"},
        "round": {"type": "integer", "description": "round_paired: the round's number"},
        "table": {
            "type": "integer",
            "nullable": True,
            "description": "round_paired: your table's number (null for a bye)",
        },
        "unread": {"type": "integer", "description": "counts: notices not yet read (the bell)"},
        "turns": {"type": "integer", "description": "counts: games where it is your turn"},
        "invitations": {"type": "integer", "description": "counts: seats offered to you"},
    },
}


def _operation(
    operation_id: str, summary: str, schema_name: str, parameters: list, extra: dict | None = None
) -> dict:
    return {
        "operationId": operation_id,
        "summary": summary,
        "tags": ["api"],
        "parameters": parameters,
        "security": [{"tokenAuth": []}, {"cookieAuth": []}, {}],
        "responses": {
            "200": {
                "description": "a stream of server-sent events (text/event-stream)",
                "content": {
                    "text/event-stream": {"schema": {"$ref": f"#/components/schemas/{schema_name}"}}
                },
            },
            "204": {"description": "the game is over and everything was sent"},
            "400": {"description": "?after= is not a whole number from 0"},
            "401": {"description": "not signed in (the person's stream), or a bad token"},
            "429": {
                "description": "you (or your address) hold as many open streams as allowed; "
                "Retry-After says when to try again"
            },
            **(extra or {}),
        },
    }


def add_stream_paths(result, generator, request, public):
    """drf-spectacular postprocessing hook: the streams are async views DRF cannot see, so
    they are described here, with the format of their messages."""
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["GameStreamMessage"] = _EVENT_MESSAGE
    schemas["UserStreamMessage"] = _NOTICE_MESSAGE
    paths = result.setdefault("paths", {})
    game_id = {"name": "id", "in": "path", "required": True, "schema": {"type": "integer"}}
    after = {
        "name": "after",
        "in": "query",
        "schema": {"type": "integer", "minimum": 0},
        "description": "only events after this version",
    }
    last = {
        "name": "Last-Event-ID",
        "in": "header",
        "schema": {"type": "string"},
        "description": "sent by EventSource on reconnecting: resume after this version (a "
        "value beyond the game resumes at its head; one that is not a number is ignored)",
    }
    paths["/api/games/{id}/stream/"] = {
        "get": _operation(
            "api_games_stream",
            "The game's new events as you may see them, as they happen",
            "GameStreamMessage",
            [game_id, after, last],
            {"422": {"description": "?after= names a version the game has not reached"}},
        )
    }
    resume = {
        **last,
        "description": "sent by EventSource on reconnecting: resume after this notice's id "
        "(one that is not a number is ignored)",
    }
    paths["/api/me/stream/"] = {
        "get": _operation(
            "api_me_stream",
            "Your inbox's notices (your turns, invitations, rounds...) as they come",
            "UserStreamMessage",
            [
                resume,
                {
                    "name": "after",
                    "in": "query",
                    "schema": {"type": "integer", "minimum": 0, "maximum": inputs.BIGINT},
                    "description": "as Last-Event-ID: only the notices after this id",
                },
            ],
        )
    }
    return result
