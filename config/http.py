"""The HTTP edge: what every request passes before a view sees it, and what an error becomes.

No bad input reaches a service or the database as anything but a clear 4xx, and an API client
never gets HTML:

- ``core.parsers.StrictJSONParser`` refuses JSON nested too deeply, NUL characters, lone
  surrogates and numbers that are not finite (``NaN``, ``Infinity``, ``1e400``), and bodies
  over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` (413).
- :class:`RequestGuardMiddleware` refuses NUL characters in the path, the query string and
  form fields (PostgreSQL cannot store them, so they must not get as far as a query), and
  turns a lost database into a 503.
- :func:`exception_handler` (DRF) and Django's handlers (:func:`bad_request`,
  :func:`permission_denied`, :func:`not_found`, :func:`server_error`, :func:`csrf_failure`)
  answer ``{"error": ...}`` for API paths; an API path that names nothing, a trailing slash
  missing included, is :func:`not_found` whatever DEBUG says (config.urls routes it there, so
  no APPEND_SLASH redirect either).
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError, connection
from django.http import Http404, HttpResponse, HttpResponsePermanentRedirect, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from core.errors import ServiceError
from core.parsers import PayloadTooLarge
from games.store import VersionConflict

log = logging.getLogger(__name__)

DATABASE_DOWN = (OperationalError, InterfaceError)


def is_api(request) -> bool:
    return request.path.startswith("/api/")


# -- bodies ---------------------------------------------------------------------------------


def body_limit(content_type: str) -> int:
    """The most bytes a body of this type may have: a file sent from a form (a plays import)
    HADAL_UPLOAD_MAX_BYTES, anything else DATA_UPLOAD_MAX_MEMORY_SIZE."""
    if content_type.startswith("multipart/"):
        return settings.HADAL_UPLOAD_MAX_BYTES
    return settings.DATA_UPLOAD_MAX_MEMORY_SIZE


def body_refusal(length: str | None, content_type: str) -> tuple[str, int] | None:
    """Why a body of ``length`` bytes (the Content-Length header as sent, None without one)
    may not be read: a 400 for a length that is not a number, a 413 for one over the limit."""
    if length is None:
        return None
    text = length.strip()
    if not (text.isascii() and text.isdigit()):
        return "the Content-Length header is not a number", 400
    # 19 digits and more is beyond any limit (and beyond what int64 servers accept).
    if len(text) > 18 or int(text) > body_limit(content_type):
        return "the request body is too large", 413
    return None


# -- the middleware ---------------------------------------------------------------------------


def _error(request, message: str, code: int):
    if is_api(request):
        return JsonResponse({"error": message}, status=code)
    return HttpResponse(message, status=code, content_type="text/plain; charset=utf-8")


class RequestGuardMiddleware:
    """Refuses what no view should see, before any view runs."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        refusal = self._refusal(request)
        if refusal is not None:
            return _error(request, *refusal)
        return self.get_response(request)

    @staticmethod
    def _refusal(request) -> tuple[str, int] | None:
        if "\x00" in request.path:
            return "the address may not contain the NUL character", 400
        refusal = body_refusal(request.META.get("CONTENT_LENGTH") or None, request.content_type)
        if refusal is not None:
            return refusal
        params = [request.GET]
        if request.method == "POST" and request.content_type in (
            "application/x-www-form-urlencoded",
            "multipart/form-data",
        ):
            try:
                params.append(request.POST)
            except RequestDataTooBig:
                return "the request body is too large", 413
        for query in params:
            for key, values in query.lists():
                if "\x00" in key or any("\x00" in v for v in values):
                    return "the request may not contain the NUL character", 400
        return None

    def process_exception(self, request, exception):
        if isinstance(exception, DATABASE_DOWN):
            log.error("database unavailable: %s", exception)
            return _error(request, "the database is unavailable; try again shortly", 503)
        if isinstance(exception, RequestDataTooBig):
            return _error(request, "the request body is too large", 413)
        return None


class SitePagesMiddleware:
    """With DEBUG on (``make run``), a page's 404 is the site's own page, as with DEBUG off,
    not Django's list of URL patterns; an API path keeps its JSON either way. (With DEBUG on a
    500 stays Django's traceback, for whoever runs the server.)"""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if settings.DEBUG and response.status_code == 404 and _is_debug_404(response):
            return not_found(request)
        return response


def _is_debug_404(response) -> bool:
    """Django's technical 404 (views.debug.technical_404_response), told by its title."""
    content = getattr(response, "content", b"")
    return response.get("Content-Type", "").startswith("text/html") and (
        b"<title>Page not found at " in content[:2000]
    )


def favicon(request):
    """``/favicon.ico``, asked for by browsers and feed readers whatever the page links: the
    site's icon."""
    from django.templatetags.static import static

    return HttpResponsePermanentRedirect(static("img/hadal.svg"))


# -- errors -----------------------------------------------------------------------------------


def _first_message(detail) -> str:
    if isinstance(detail, dict):
        for key, value in detail.items():
            message = _first_message(value)
            return message if key in ("non_field_errors", "detail") else f"{key}: {message}"
        return "invalid input"
    if isinstance(detail, list):
        return _first_message(detail[0]) if detail else "invalid input"
    return str(detail)


def _service_error(exc: ServiceError) -> Response:
    body = {"error": str(exc)}
    scope = getattr(exc, "scope", None)  # accounts.scopes.MissingScope: the scope it lacks
    if scope:
        body["scope"] = scope
    response = Response(body, status=exc.status)
    retry_after = getattr(exc, "retry_after", None)  # TooMany, Busy
    if retry_after:
        response["Retry-After"] = str(retry_after)
    return response


def exception_handler(exc, context):
    """DRF's handler: every API error is ``{"error": "...", ...}`` with the right status."""
    if isinstance(exc, VersionConflict):
        return Response(
            {"error": str(exc), "version": exc.current}, status=status.HTTP_409_CONFLICT
        )
    if isinstance(exc, ServiceError):
        return _service_error(exc)
    if isinstance(exc, DATABASE_DOWN):
        log.error("database unavailable: %s", exc)
        return Response(
            {"error": "the database is unavailable; try again shortly"},
            status=status.HTTP_503_SERVICE_UNAVAILABLE,
        )
    if isinstance(exc, RequestDataTooBig):
        exc = PayloadTooLarge()
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound("not found")
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None:
        return None
    body: dict[str, Any] = {"error": _first_message(response.data)}
    if isinstance(exc, exceptions.ValidationError) and isinstance(response.data, dict):
        body["fields"] = response.data
    response.data = body
    return response


def healthz(request):
    """``GET /healthz/``: 200 while this process serves and reaches its database, else 503 (for
    an operator's uptime check and the deployment's own)."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except DATABASE_DOWN:
        return JsonResponse({"status": "the database is unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


def bad_request(request, exception=None):
    """Django's 400: a request it refuses before any view (a Host not allowed, more fields or
    files than DATA_UPLOAD_MAX_NUMBER_FIELDS / _FILES)."""
    if is_api(request):
        return JsonResponse({"error": "bad request"}, status=400)
    from django.views.defaults import bad_request as page_bad_request

    return page_bad_request(request, exception)


def permission_denied(request, exception=None):
    if is_api(request):
        return JsonResponse({"error": "you may not do that"}, status=403)
    from django.views.defaults import permission_denied as page_permission_denied

    return page_permission_denied(request, exception)


def csrf_failure(request, reason: str = ""):
    """CSRF_FAILURE_VIEW: a signed-in page's POST without its CSRF token."""
    if is_api(request):
        return JsonResponse(
            {"error": f"CSRF failed: {reason}; send the token (X-CSRFToken) or use a token"},
            status=403,
        )
    from django.views.csrf import csrf_failure as page_csrf_failure

    return page_csrf_failure(request, reason)


@csrf_exempt
def not_found(request, exception=None):
    """Django's 404, and the view of every API path that names nothing."""
    if is_api(request):
        message = "not found"
        with_slash = f"{request.path_info}/"
        if not request.path_info.endswith("/") and _names_a_view(with_slash):
            message = f"not found: the address ends in a slash, {with_slash}"
        return JsonResponse({"error": message}, status=404)
    from django.views.defaults import page_not_found

    return page_not_found(request, exception)


def _names_a_view(path: str) -> bool:
    from django.urls import Resolver404, resolve

    try:
        return resolve(path).func is not not_found
    except Resolver404:
        return False


def server_error(request):
    if is_api(request):
        return JsonResponse(
            {"error": "something went wrong on our side; it has been logged"}, status=500
        )
    from django.views.defaults import server_error as page_server_error

    return page_server_error(request)
