from django.urls import path

from league.api import views

urlpatterns = [
    path("ratings/", views.LeaderboardApi.as_view(), name="api-ratings"),
    path("players/", views.PlayerListApi.as_view(), name="api-players"),
    path("players/<str:username>/", views.PlayerDetailApi.as_view(), name="api-player"),
]
