from django.contrib import admin
from django.urls import include, path, re_path, register_converter
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import api as tokens_api
from accounts import away_api
from accounts.views import TokenView
from config import http
from core.inputs import BIGINT


class IdConverter:
    """``<id:pk>``: a row's id (or a round's or a table's number) in a path, as ``<int:>`` but
    at most what a bigint column holds. A longer number names no row, so the path names
    nothing (the API's 404), where ``<int:>`` would hand it to the database, which overflows."""

    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if number > BIGINT:
            raise ValueError(f"{value} is beyond any id")
        return number

    def to_url(self, value: int) -> str:
        return str(value)


register_converter(IdConverter, "id")

urlpatterns = [
    path("healthz/", http.healthz, name="healthz"),
    path("favicon.ico", http.favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/me/tokens/", tokens_api.TokensApi.as_view(), name="api-me-tokens"),
    path("api/me/tokens/<id:pk>/", tokens_api.TokenRevokeApi.as_view(), name="api-me-token"),
    path("api/me/vacations/", away_api.VacationsApi.as_view(), name="api-me-vacations"),
    path("api/me/vacations/away/", away_api.AwayNowApi.as_view(), name="api-me-away"),
    path("api/me/vacations/back/", away_api.BackApi.as_view(), name="api-me-back"),
    path(
        "api/me/vacations/settings/",
        away_api.AwaySettingsApi.as_view(),
        name="api-me-away-settings",
    ),
    path("api/me/vacations/<id:pk>/", away_api.VacationCancelApi.as_view(), name="api-me-vacation"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/", include("inbox.api_urls")),
    path("api/", include("league.api.urls")),
    # Any other API path, a trailing slash missing included: the API's JSON 404, never a page
    # (DEBUG's included) nor an APPEND_SLASH redirect, which would drop a POST's body.
    re_path(r"^api/", http.not_found),
    path("", include("accounts.urls")),
    path("", include("inbox.urls")),
    path("", include("league.urls")),
    path("", include("games.urls")),
]

handler400 = "config.http.bad_request"
handler403 = "config.http.permission_denied"
handler404 = "config.http.not_found"
handler500 = "config.http.server_error"
