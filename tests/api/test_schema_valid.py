"""The OpenAPI schema clients generate code from is valid OpenAPI 3.0, with no warning."""

from __future__ import annotations

import io

from django.core.management import call_command


def test_the_schema_is_valid_openapi_and_drf_spectacular_warns_of_nothing():
    out = io.StringIO()
    call_command(
        "spectacular", "--validate", "--fail-on-warn", "--format", "openapi-json", stdout=out
    )
    assert '"openapi": "3.0.3"' in out.getvalue()
