from django.urls import path

from inbox import views

urlpatterns = [
    path("inbox/", views.inbox_page, name="inbox"),
    path("inbox/<id:pk>/", views.notice_open, name="notice-open"),
    path("inbox/read/", views.read_all, name="inbox-read-all"),
    path("inbox/devices/<id:pk>/remove/", views.device_remove, name="push-device-remove"),
    path("sw.js", views.service_worker, name="service-worker"),
    path("manifest.webmanifest", views.manifest, name="manifest"),
    path("inbox/choices/", views.choices_page, name="inbox-choices"),
    path("inbox/unsubscribe/<str:token>/", views.unsubscribe, name="inbox-unsubscribe"),
]
