from django.urls import path

from inbox import api

urlpatterns = [
    path("me/notices/", api.NoticesApi.as_view(), name="api-me-notices"),
    path("me/notices/read/", api.NoticesReadApi.as_view(), name="api-me-notices-read"),
    path("me/notices/choices/", api.NoticeChoicesApi.as_view(), name="api-me-notices-choices"),
]
