"""The OpenAPI schema tells the truth about errors: every operation documents the statuses the
edge (config.http) and the services can answer, each with the ``{"error": ...}`` body."""

from __future__ import annotations

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
    "400": "bad input: malformed JSON, a value of the wrong type or out of range",
    "404": "no such game, player, league or tournament (or address)",
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
    "409": "a conflict: someone moved first (stale version), or it was already done",
    "422": "the rules refuse it (the reason is the rule's own)",
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
            responses = operation.setdefault("responses", {})
            for code, description in statuses.items():
                responses.setdefault(
                    code,
                    {"description": description, "content": {"application/json": {"schema": ref}}},
                )
    return result
