"""Pages for people: the games list, a new game, the game page."""

from django.urls import path

from games import log_views, views

urlpatterns = [
    path("", views.game_list, name="game-list"),
    path("games/new/", views.game_new, name="game-new"),
    path("oceans/", views.oceans_page, name="oceans"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/log/", log_views.game_log_page, name="game-log"),
    path("games/log/new/", log_views.table_log_new, name="game-log-new"),
    path(
        "games/<int:pk>/accept/", views.game_seat_answer, {"answer": "accept"}, name="game-accept"
    ),
    path(
        "games/<int:pk>/decline/",
        views.game_seat_answer,
        {"answer": "decline"},
        name="game-decline",
    ),
]
