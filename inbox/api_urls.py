from django.urls import path

from inbox import api

urlpatterns = [
    path("me/notices/", api.NoticesApi.as_view(), name="api-me-notices"),
    path("me/notices/read/", api.NoticesReadApi.as_view(), name="api-me-notices-read"),
    path("me/push/", api.PushDevicesApi.as_view(), name="api-me-push"),
    path("me/push/key/", api.PushKeyApi.as_view(), name="api-me-push-key"),
    path("me/push/test/", api.PushTestApi.as_view(), name="api-me-push-test"),
    path("me/push/<id:pk>/", api.PushDeviceApi.as_view(), name="api-me-push-device"),
    path("me/notices/choices/", api.NoticeChoicesApi.as_view(), name="api-me-notices-choices"),
]
