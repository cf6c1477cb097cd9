"""The API's only parser: JSON the service can store, or a clear 400 (413 when too large).

It lives apart from config.http because DRF imports it while loading its own views.
"""

from __future__ import annotations

import json
import math

from django.core.exceptions import RequestDataTooBig
from rest_framework import exceptions, status
from rest_framework.parsers import JSONParser

MAX_JSON_DEPTH = 32


class PayloadTooLarge(exceptions.APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = "the request body is too large"


def _refuse_constant(name: str):
    raise exceptions.ParseError(f"JSON parse error: {name} is not a number this API accepts")


def check_json_value(value) -> None:
    """Raise ParseError if ``value`` (parsed JSON) nests too deeply or holds text or numbers
    the service cannot store. Iterative, so a hostile depth cannot exhaust the stack."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise exceptions.ParseError(f"JSON nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(item, dict):
            for key, child in item.items():
                check_text(key)
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            check_text(item)
        elif isinstance(item, float) and not math.isfinite(item):
            raise exceptions.ParseError("numbers must be finite")


def check_text(text: str) -> None:
    if "\x00" in text:
        raise exceptions.ParseError("text may not contain the NUL character")
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise exceptions.ParseError(
            "text must be valid Unicode (a lone surrogate is not)"
        ) from None


class StrictJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):
        try:
            raw = stream.read()
        except RequestDataTooBig:
            raise PayloadTooLarge() from None
        try:
            value = json.loads(raw.decode("utf-8"), parse_constant=_refuse_constant)
        except RecursionError:
            raise exceptions.ParseError(
                f"JSON nested deeper than {MAX_JSON_DEPTH} levels"
            ) from None
        except (UnicodeDecodeError, ValueError) as exc:
            raise exceptions.ParseError(f"JSON parse error: {exc}") from None
        check_json_value(value)
        return value
