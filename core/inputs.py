"""Checks for input from anywhere — HTTP, a form, a management command, a reported result.

Each returns the clean value or raises InvalidInput naming the field, so a service refuses bad
input before it writes anything, whichever door the input came through.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from typing import Any

from django.utils import timezone

from core.errors import InvalidInput, Refused, RuleViolation

EARLIEST = dt.datetime(1900, 1, 1, tzinfo=dt.UTC)
# A date-only record is taken as noon UTC, up to a day ahead of UTC for clubs east of it.
FUTURE_SLACK = dt.timedelta(days=1)
MAX_SCORE = 1_000_000_000
BIGINT = 2**63 - 1  # the largest id or version a row holds
MAX_SEAT = 11  # twelve seats at most, as the schema says
MAX_VERSION = 2**31 - 1  # Game.version's column, as the schema says
# As deep as any file or body the service reads needs (a BG Stats export nests 4 deep).
MAX_JSON_DEPTH = 32
_DIGITS = re.compile(r"[0-9]+")


def whole_number(value: Any, name: str, low: int, high: int) -> int:
    """An int (or a string of ASCII digits, as in a query) from ``low`` to ``high``."""
    if isinstance(value, str):
        text = value.strip()
        negative = text.startswith("-")
        if _DIGITS.fullmatch(text[negative:]) and len(text) <= 20:
            value = int(text)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInput(f"{name} must be a whole number from {low} to {high}")
    return value


def flag(value: Any, name: str) -> bool:
    """A yes or no in a query (``?unread=1``): 1, true or yes; 0, false, no or left out."""
    if value is None:
        return False
    word = str(value).strip().lower()
    if word in ("1", "true", "yes"):
        return True
    if word in ("0", "false", "no", ""):
        return False
    raise InvalidInput(f"{name} must be true or false (1 or 0)")


def seat(value: Any, num_players: int) -> int:
    """A seat of a game of ``num_players``: a number the schema allows (else InvalidInput,
    400) that this game has (else RuleViolation, 422: well-formed, not this game's)."""
    number = whole_number(value, "seat", 0, MAX_SEAT)
    if number >= num_players:
        raise RuleViolation(f"seat {number}: this game's seats are 0 to {num_players - 1}")
    return number


def version(value: Any, head: int, low: int, name: str = "version") -> int:
    """A version of a game whose head is ``head``: a number from ``low`` the schema allows
    (else InvalidInput, 400) that the game has reached (else RuleViolation, 422); ``name`` is
    what the errors call it."""
    number = whole_number(value, name, low, MAX_VERSION)
    if number > head:
        raise RuleViolation(f"{name} {number}: the game is at version {head}")
    return number


def whole_number_or_none(value: Any, low: int, high: int) -> int | None:
    """whole_number's value, or None where it would refuse: for input that is ignored when it
    is garbage (a page's ``?seat=``, a stream's Last-Event-ID), never handed to int() raw."""
    try:
        return whole_number(value, "", low, high)
    except InvalidInput:
        return None


def text(value: Any, name: str, max_length: int, *, blank: bool = False) -> str:
    """Stripped text of at most ``max_length`` characters, without control characters."""
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be text")
    value = value.strip()
    if not value and not blank:
        raise InvalidInput(f"{name} may not be empty")
    if len(value) > max_length:
        raise InvalidInput(f"{name} may be at most {max_length} characters")
    if any(ord(c) < 32 and c not in "\t\n\r" for c in value):
        raise InvalidInput(f"{name} may not contain control characters")
    return value


def score(value: Any, name: str) -> int | float | None:
    """A finite number of sane size, or None."""
    if value is None:
        return None
    if (
        isinstance(value, bool)
        or not isinstance(value, (int, float))
        or (isinstance(value, float) and not math.isfinite(value))
        or abs(value) > MAX_SCORE
    ):
        raise InvalidInput(
            f"{name} must be a number between -{MAX_SCORE:,} and {MAX_SCORE:,} or null"
        )
    return value


def past_moment(value: Any, name: str) -> dt.datetime:
    """When something happened: a date or date-time from 1900 up to now, as aware UTC.

    A date alone means noon that day (UTC). Offsets are honoured; a moment that cannot be
    expressed in UTC at all (year 1 east of Greenwich) is out of range like any other."""
    if isinstance(value, dt.datetime):
        moment = value
    elif isinstance(value, dt.date):
        moment = dt.datetime.combine(value, dt.time(12, 0))
    elif isinstance(value, str):
        try:
            moment = dt.datetime.fromisoformat(value.strip())
        except ValueError:
            raise InvalidInput(f"{name} must be a date or date-time (YYYY-MM-DD[THH:MM])") from None
        if len(value.strip()) == 10:
            moment = moment.replace(hour=12)
    else:
        raise InvalidInput(f"{name} must be a date or date-time (YYYY-MM-DD[THH:MM])")
    if timezone.is_naive(moment):
        moment = moment.replace(tzinfo=dt.UTC)
    try:
        moment = moment.astimezone(dt.UTC)
    except OverflowError:
        raise Refused(f"{name} is out of range (it must be from 1900 to today)") from None
    if moment < EARLIEST:
        raise Refused(f"{name} is before 1900 (it must be from 1900 to today)")
    if moment > timezone.now() + FUTURE_SLACK:
        raise Refused(f"{name} is in the future (it must be from 1900 to today)")
    return moment


def calendar_date(value: Any, name: str, *, years_ahead: int = 10) -> dt.date:
    """A day on the calendar (a season's start or end): from 1900 to ``years_ahead`` ahead."""
    if isinstance(value, str):
        try:
            value = dt.date.fromisoformat(value.strip())
        except ValueError:
            raise InvalidInput(f"{name} must be a date (YYYY-MM-DD)") from None
    if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
        raise InvalidInput(f"{name} must be a date (YYYY-MM-DD)")
    latest = (
        timezone.now()
        .date()
        .replace(month=1, day=1)
        .replace(year=timezone.now().year + years_ahead)
    )
    if not EARLIEST.date() <= value <= latest:
        raise Refused(f"{name} must be from 1900 to {latest.year}")
    return value


def json_document(raw: str, name: str) -> Any:
    """Parsed JSON that nests at most MAX_JSON_DEPTH deep and holds only what the service can
    store: no NUL or lone surrogate in its text, no number that is not finite or too long."""
    try:
        value = json.loads(raw, parse_constant=_no_constant)
    except RecursionError:  # the C decoder stops at the interpreter's recursion limit
        raise InvalidInput(f"{name} is JSON nested deeper than {MAX_JSON_DEPTH} levels") from None
    except json.JSONDecodeError as exc:
        raise InvalidInput(
            f"{name} is not JSON: {exc.msg} (line {exc.lineno}, column {exc.colno})"
        ) from None
    except ValueError:  # int() refuses a number of more than 4,300 digits
        raise InvalidInput(f"{name} holds a number too long to be one") from None
    json_value(value, name)
    return value


def _no_constant(word: str):
    raise InvalidInput(f"{word} is not a number: numbers must be finite")


def json_value(value: Any, name: str) -> None:
    """Raise InvalidInput if parsed JSON nests deeper than MAX_JSON_DEPTH or holds text or
    numbers the service cannot store. Iterative, so a hostile depth cannot exhaust the stack."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise InvalidInput(f"{name} is JSON nested deeper than {MAX_JSON_DEPTH} levels")
        if isinstance(item, dict):
            for key, child in item.items():
                _storable_text(key, name)
                stack.append((child, depth + 1))
        elif isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, str):
            _storable_text(item, name)
        elif isinstance(item, float) and not math.isfinite(item):
            raise InvalidInput(f"{name} holds a number that is not finite")


def _storable_text(value: str, name: str) -> None:
    if "\x00" in value:
        raise InvalidInput(f"{name} holds text with the NUL character")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise InvalidInput(f"{name} holds text that is not Unicode (a lone surrogate)") from None
