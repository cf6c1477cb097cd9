"""Pages for people: the games list, a new game, the game page."""

from django.urls import path

from games.pages import lobby as lobby_views
from games.pages import play as views
from games.pages import tablelog as log_views

urlpatterns = [
    path("", views.game_list, name="game-list"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/bot/<slug:slug>/", views.game_against_bot, name="game-against-bot"),
    path("games/how-to-play/<slug:slug>/", views.how_to_play, name="how-to-play"),
    path("oceans/", views.oceans_page, name="oceans"),
    path("invitations/", lobby_views.invitations, name="invitations"),
    path("lobby/", lobby_views.lobby_page, name="lobby"),
    path("games/<id:pk>/join/", lobby_views.game_join, name="game-join"),
    path("games/<id:pk>/rematch/", lobby_views.game_rematch, name="game-rematch"),
    path("games/<id:pk>/cancel/", lobby_views.game_cancel, name="game-cancel"),
    path("games/<id:pk>/", views.game_detail, name="game-detail"),
    path("games/<id:pk>/log/", log_views.game_log_page, name="game-log"),
    path("games/log/new/", log_views.table_log_new, name="game-log-new"),
    path("games/<id:pk>/accept/", views.game_seat_answer, {"answer": "accept"}, name="game-accept"),
    path(
        "games/<id:pk>/decline/",
        views.game_seat_answer,
        {"answer": "decline"},
        name="game-decline",
    ),
]
