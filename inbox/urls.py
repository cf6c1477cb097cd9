from django.urls import path

from inbox import views

urlpatterns = [
    path("inbox/", views.inbox_page, name="inbox"),
    path("inbox/<id:pk>/", views.notice_open, name="notice-open"),
    path("inbox/read/", views.read_all, name="inbox-read-all"),
    path("inbox/choices/", views.choices_page, name="inbox-choices"),
    path("inbox/unsubscribe/<str:token>/", views.unsubscribe, name="inbox-unsubscribe"),
]
