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

from drf_spectacular.authentication import TokenScheme
from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.plumbing import is_list_serializer

from accounts import scopes


def scope_said(need) -> tuple[dict, str]:
    """What an operation needing ``need`` (accounts.scopes.declared) says of it: its extensions
    and a sentence for its description."""
    if isinstance(need, scopes.Either):
        return (
            {
                "x-scope": need.usual,
                "x-scope-otherwise": {"scope": need.otherwise, "when": need.when},
            },
            f"Token scope: `{need.usual}` (`{need.otherwise}` for {need.when}).",
        )
    if need == scopes.EVERY:
        return {"x-scope": need}, "Token scope: a token with every scope, or the session."
    if need == scopes.NONE:
        return {"x-scope": need}, "Token scope: none needed."
    return {"x-scope": need}, f"Token scope: `{need}`."


def with_scope(operation: dict, need) -> dict:
    extensions, sentence = scope_said(need)
    operation.update(extensions)
    described = operation.get("description", "")
    operation["description"] = f"{described}\n\n{sentence}" if described else sentence
    return operation


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's, with a nested list's length limits (``Foo(many=True, min_length=1)``),
    which it leaves out, as ``minItems`` / ``maxItems``; and each operation's token scope, in
    its description and as ``x-scope`` (accounts.scopes)."""

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        need = scopes.declared(self.view, method)
        if operation is None or need is None:
            return operation
        return with_scope(operation, need)

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if is_list_serializer(field) and isinstance(schema, dict):
            if field.min_length is not None:
                schema["minItems"] = field.min_length
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
        return schema


# Objects the services read field by field, refusing fields they do not know (games.records.oceans,
# inbox.api's choices).
CLOSED = ("SheetIn", "PlayerSheetIn", "ChoicesIn", "PatchedChoicesIn", "MailChoices", "PushChoices")


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
        "scope": {
            "type": "string",
            "enum": [*scopes.SCOPES],
            "description": "the scope the token lacks (403 only): the operation's `x-scope`",
        },
    },
    "required": ["error"],
}

EVERYWHERE = {
    "400": "bad input, as the schema states it: malformed JSON, a value of the wrong type, "
    "blank, too long or out of range",
    "401": "a token that is unknown, revoked or expired",
    "403": "a token without this operation's scope (`x-scope`)",
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
    "401": "not signed in, or a token that is unknown, revoked or expired",
    "403": "not yours to do (not your seat, not an organiser), or a token without this "
    "operation's scope (`x-scope`)",
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


class ScopedTokenScheme(TokenScheme):
    """The token scheme (accounts.authentication), its description listing the scopes."""

    target_class = "accounts.authentication.TokenAuthentication"
    priority = 1

    def get_security_definition(self, auto_schema):
        definition = super().get_security_definition(auto_schema)
        listed = "; ".join(f"`{name}`: {scopes.DESCRIPTIONS[name]}" for name in scopes.SCOPES)
        definition["description"] = (
            "`Authorization: Token <key>`. A token has some of these scopes, chosen when it is "
            "made at /api/me/tokens/ (signing in at /api/auth/token/ gives all of them): "
            f"{listed}. "
            "Each operation's `x-scope` names the one it needs; a token without it is refused "
            'with a 403 `{"error", "scope"}`. A revoked or expired token is a 401.'
        )
        return definition


def scope_the_streams(result, generator, request, public):
    """drf-spectacular postprocessing hook: the streams' operations, which games.api.live
    writes by hand, state their scope as every other operation does, read from the class whose
    checks they run."""
    from django.urls import resolve

    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if "x-scope" in operation:
                continue
            view = getattr(resolve(path.replace("{id}", "1")).func, "view_class", None)
            need = scopes.declared(view, method) if view is not None else None
            if need is not None:
                with_scope(operation, need)
    return result
