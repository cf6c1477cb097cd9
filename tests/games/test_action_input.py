"""The move body's fast path agrees with its serializer on every body, good or bad."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from games.api.serializers import MAX_VERSION, ActionIn

GOOD = {"seat": 1, "expected_version": 7, "action": {"type": "roll"}}

BODIES = [
    GOOD,
    {**GOOD, "idempotency_key": "k-1"},
    {**GOOD, "idempotency_key": "x" * 100},
    {**GOOD, "idempotency_key": "x" * 101},
    {**GOOD, "idempotency_key": " padded "},
    {**GOOD, "idempotency_key": ""},
    {**GOOD, "idempotency_key": "nul\x00"},
    {**GOOD, "idempotency_key": 12},
    {**GOOD, "idempotency_key": None},
    {**GOOD, "seat": True},
    {**GOOD, "seat": "1"},
    {**GOOD, "seat": 1.0},
    {**GOOD, "seat": -1},
    {**GOOD, "seat": 12},
    {**GOOD, "seat": None},
    {**GOOD, "expected_version": MAX_VERSION},
    {**GOOD, "expected_version": MAX_VERSION + 1},
    {**GOOD, "expected_version": "7"},
    {**GOOD, "action": []},
    {**GOOD, "action": "roll"},
    {**GOOD, "action": {}},
    {**GOOD, "extra": "ignored"},
    {"seat": 1, "action": {"type": "roll"}},
    {},
    [],
    "text",
    None,
]


def through_serializer(body):
    serializer = ActionIn(data=body)
    if serializer.is_valid():
        return "ok", dict(serializer.validated_data)
    return "error", serializer.errors


def through_fast_path(body):
    try:
        return "ok", ActionIn.validated(body)
    except serializers.ValidationError as refused:
        return "error", refused.detail


@pytest.mark.parametrize("body", BODIES, ids=range(len(BODIES)))
def test_the_fast_path_gives_what_the_serializer_gives(body):
    assert through_fast_path(body) == through_serializer(body)
