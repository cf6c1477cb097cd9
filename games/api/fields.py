"""Serializer fields for the API's input, strict where DRF's are lenient, so that the schema
states every rule the server applies and the server applies every rule the schema states."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from core.fields import Text
from games.play import clocks


@extend_schema_field(
    {"anyOf": [{"type": "string", "format": "date"}, {"type": "string", "format": "date-time"}]}
)
class Moment(Text):
    """When something happened: a date or an ISO date-time, as text (core.inputs.past_moment
    reads it, and refuses one before 1900 or in the future)."""


def _text(longest: int) -> dict:
    return {"type": "string", "minLength": 1, "maxLength": longest, "pattern": TEXT_PATTERN}


# Text's rule in the schema's own words (ECMA regular expressions), for schemas written here.
TEXT_PATTERN = "^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*[^\\s\\u0000-\\u001f][^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]*$"


def _one_key(key: str, value: dict) -> dict:
    return {
        "type": "object",
        "properties": {key: value},
        "required": [key],
        "additionalProperties": False,
    }


@extend_schema_field(
    {
        "oneOf": [
            _one_key("user", _text(150)),
            _one_key(
                "bot", {"type": "string", "description": "a bot level (GET /api/games/types/)"}
            ),
            _one_key("open", {"type": "boolean", "enum": [True]}),
            _one_key("guest", _text(60)),
        ],
        "description": '{"user": name} (invited), {"bot": level} or {"open": true} (anyone '
        'signed in may take it: POST /api/games/{id}/join/); in a table log {"user": name} or '
        '{"guest": name}',
    }
)
class SeatField(serializers.DictField):
    """A seat of a new game, read by the services (games.play.services, games.tablelog.services)."""


_SECONDS = {"type": "integer", "minimum": 5, "maximum": clocks.MOST_SECONDS}
_ON_TIMEOUT = {
    "type": "string",
    "enum": list(clocks.TIMEOUT_RULES),
    "description": "random: the random bot moves; forfeit: the seat resigns",
}


@extend_schema_field(
    {
        "oneOf": [
            {
                "type": "object",
                "properties": {"move_seconds": _SECONDS, "on_timeout": _ON_TIMEOUT},
                "required": ["move_seconds"],
                "additionalProperties": False,
            },
            {
                "type": "object",
                "properties": {
                    "bank_seconds": _SECONDS,
                    "increment_seconds": {**_SECONDS, "minimum": 0},
                    "on_timeout": _ON_TIMEOUT,
                },
                "required": ["bank_seconds"],
                "additionalProperties": False,
            },
        ],
        "nullable": True,
        "description": "a deadline per move, or a time bank per seat with an increment; null "
        "for no clock",
    }
)
class TimeControlField(serializers.JSONField):
    """A time control, read by games.play.clocks.parse_time_control."""
