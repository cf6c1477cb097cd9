"""Fixtures the league's tests share: a module's players and their organiser."""

from __future__ import annotations

import pytest


@pytest.fixture
def users(make_user, request):
    """The players the test's module names in ``NAMES``, and "org", who organises: the users
    by name. A module whose field is made otherwise defines its own ``users``."""
    return {name: make_user(name) for name in (*request.module.NAMES, "org")}


@pytest.fixture
def org(api_for, users):
    """An API client signed in as "org"."""
    return api_for(users["org"])
