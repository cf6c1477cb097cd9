"""The OpenAPI schema tells the truth: every rule the server applies to a request's shape is
in it, and every operation documents the statuses the edge (config.http) and the services can
answer, each with the ``{"error": ...}`` body.

The line between the statuses, which schemathesis's full run holds us to
(tests/api/test_schema_full_run.py):
- 400: the request breaks the schema (a type, a length, a blank, an enum, a range);
- 404: no such game, player, league, tournament or season, in the path or named in the body;
- 403: not the caller's (not their seat, not an organiser);
- 409: it clashes with what already happened (a stale version, done already);
- 422: well-formed, and the schema cannot know it is refused: the rules of the game, or the
  state of the game, the tournament or the record (not this game's seat, no such version yet).
"""

from __future__ import annotations

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import is_list_serializer


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, with a nested list's length limits (``Foo(many=True, min_length=1)``),
    which it leaves out, as ``minItems`` / ``maxItems``."""

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if is_list_serializer(field) and isinstance(schema, dict):
            if field.min_length is not None:
                schema["minItems"] = field.min_length
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
        return schema


# Objects the services read field by field, refusing fields they do not know (games.records.oceans).
CLOSED = ("SheetIn", "PlayerSheetIn")


def add_known_names(result, generator, request, public):
    """drf-spectacular postprocessing hook: a game named in a request (``"game"`` in a body,
    ``?game=``) is one of the games' slugs, and a bot (``"bot"``) one of the bot levels, as
    the server checks, both as registered when the schema is asked for; a sheet takes no
    field it does not name."""
    from accounts.bots import LEVELS
    from games.catalog import game_types

    slugs = sorted(game_types())
    known = {"game": slugs, "bot": list(LEVELS)}
    for name in CLOSED:
        result["components"]["schemas"][name]["additionalProperties"] = False
    stack = [
        component
        for name, component in result.get("components", {}).get("schemas", {}).items()
        if name.endswith("In")
    ]
    while stack:
        schema = stack.pop()
        if isinstance(schema, list):
            stack.extend(schema)
        elif isinstance(schema, dict):
            for key, value in schema.get("properties", {}).items():
                if key in known and isinstance(value, dict) and value.get("type") == "string":
                    value["enum"] = known[key]
            stack.extend(value for value in schema.values() if isinstance(value, (dict, list)))
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                if parameter["name"] == "game" and parameter["in"] == "query":
                    parameter["schema"]["enum"] = slugs
    return result


ERROR = {
    "type": "object",
    "properties": {
        "error": {"type": "string", "description": "what went wrong, in words"},
        "fields": {
            "type": "object",
            "additionalProperties": True,
            "description": "per field, what was wrong with it (400 only)",
        },
        "version": {"type": "integer", "description": "the game's current version (409 only)"},
    },
    "required": ["error"],
}

EVERYWHERE = {
    "400": "bad input, as the schema states it: malformed JSON, a value of the wrong type, "
    "blank, too long or out of range",
    "404": "no such game, player, league, season, tournament or table (in the address or named "
    "in the body)",
    "405": "that method is not allowed here",
    "406": "the client does not accept JSON",
    "413": "the request body is too large",
    "415": "the body is not JSON",
    "429": "too many attempts; try again later",
    "503": "the database is unavailable; try again shortly",
}
WRITES = {
    "401": "not signed in",
    "403": "not yours to do (not your seat, not an organiser)",
    "409": "a conflict: someone moved first (stale version), it was already done, or the name "
    "is taken",
    "422": "well-formed but refused: the rules (the reason is the rule's own), or the state of "
    "the game, record or tournament (a seat the game does not have, a date in the future)",
}


# Reads the state of a game can refuse: a version not reached, a game that is not a table log
# (422); a game not finished yet (409).
READS = {
    "/events/": ("422",),
    "/log/": ("422",),
    "/export/": ("409",),
}


def add_error_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: the error statuses on every operation."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    ref = {"$ref": "#/components/schemas/Error"}
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            statuses = dict(EVERYWHERE)
            if method != "get" or path.endswith(("/actions/", "/state/")):
                statuses.update(WRITES)
            for suffix, codes in READS.items():
                if path.endswith(suffix):
                    statuses.update({code: WRITES[code] for code in codes})
            responses = operation.setdefault("responses", {})
            for code, description in statuses.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    return result


def describe_event_streams(result, generator, request, public):
    """drf-spectacular postprocessing hook: a ``text/event-stream`` response's schema, written
    as the JSON each message's ``data:`` carries, becomes the schema of a message (one event:
    ``data`` text holding that JSON, an ``id``, an ``event``). OpenAPI 3.0 has no keyword for
    what a string holds (contentSchema is JSON Schema 2019's, and makes a 3.0 schema invalid),
    so the JSON's schema is named in extensions, and in the description for people."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            for response in operation.get("responses", {}).values():
                stream = response.get("content", {}).get("text/event-stream")
                if stream is None or "data" in stream["schema"].get("properties", {}):
                    continue
                stream["schema"] = {
                    "type": "object",
                    "required": ["data"],
                    "properties": {
                        "data": {
                            "type": "string",
                            "description": "one line of JSON: "
                            + stream["schema"].get("$ref", "").rsplit("/", 1)[-1],
                            "x-contentMediaType": "application/json",
                            "x-contentSchema": stream["schema"],
                        },
                        "id": {"type": "string", "description": "the event's version, if any"},
                        "event": {"type": "string"},
                    },
                }
    return result
