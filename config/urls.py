from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts.views import TokenView
from config.http import healthz

urlpatterns = [
    path("healthz/", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("api/auth/token/", TokenView.as_view(), name="api-token"),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/", include("games.api.urls")),
    path("api/", include("league.api.urls")),
    path("", include("accounts.urls")),
    path("", include("league.urls")),
    path("", include("games.urls")),
]

handler404 = "config.http.not_found"
handler500 = "config.http.server_error"
