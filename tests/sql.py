"""Helpers for tests about which way a statement goes to the database."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from unittest import mock

from django.db.backends.utils import CursorWrapper


@contextmanager
def through_djangos_cursor() -> Iterator[list[str]]:
    """The statements sent through Django's cursor wrapper within, as they go; a statement
    sent straight to the driver (core.direct) is not among them."""
    seen: list[str] = []
    execute = CursorWrapper.execute

    def watched(self, sql, params=None):
        seen.append(sql)
        return execute(self, sql, params)

    with mock.patch.object(CursorWrapper, "execute", watched):
        yield seen
