"""Pages for ratings and players."""

from django.urls import path

from league import views

urlpatterns = [
    path("ratings/", views.ratings_index, name="ratings"),
    path("ratings/<slug:slug>/", views.leaderboard, name="leaderboard"),
    path("players/<str:username>/", views.player, name="player"),
]
