"""Every API error is JSON ``{"error": "...", ...}`` with the right status."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from games.services import ServiceError
from games.store import VersionConflict


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            message = _first_message(value)
            return message if key in ("non_field_errors", "detail") else f"{key}: {message}"
        return "invalid input"
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "invalid input"
    return str(detail)


def exception_handler(exc, context):
    if isinstance(exc, VersionConflict):
        return Response({"error": str(exc), "version": exc.current},
                        status=status.HTTP_409_CONFLICT)
    if isinstance(exc, ServiceError):
        return Response({"error": str(exc)}, status=exc.status)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound("not found")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    body = {"error": _first_message(response.data)}
    if isinstance(exc, exceptions.ValidationError) and isinstance(response.data, dict):
        body["fields"] = response.data
    response.data = body
    return response
