from django.urls import path

from config.http import methods_allowed
from games.api import analysis, export, logs, streams, views

urlpatterns = [
    path("games/types/", views.GameTypesApi.as_view(), name="api-game-types"),
    path("games/", views.GameListCreateApi.as_view(), name="api-games"),
    path("games/open/", views.OpenGamesApi.as_view(), name="api-games-open"),
    path("games/invited/", views.InvitationsApi.as_view(), name="api-games-invited"),
    path("games/<id:pk>/", views.GameDetailApi.as_view(), name="api-game"),
    path("games/<id:pk>/join/", views.GameJoinApi.as_view(), name="api-game-join"),
    path("games/<id:pk>/rematch/", views.GameRematchApi.as_view(), name="api-game-rematch"),
    path("games/<id:pk>/cancel/", views.GameCancelApi.as_view(), name="api-game-cancel"),
    path("oceans/cards/", views.OceansCardsApi.as_view(), name="api-oceans-cards"),
    path("games/<id:pk>/state/", views.GameStateApi.as_view(), name="api-game-state"),
    path("games/<id:pk>/actions/", views.GameActionsApi.as_view(), name="api-game-actions"),
    path("games/<id:pk>/events/", views.GameEventsApi.as_view(), name="api-game-events"),
    path("games/<id:pk>/export/", export.GameExportApi.as_view(), name="api-game-export"),
    # The streams are not DRF views: TRACE or PUT must not open one.
    path(
        "games/<id:pk>/stream/",
        methods_allowed(streams.game_stream, "GET"),
        name="api-game-stream",
    ),
    path("me/stream/", methods_allowed(streams.user_stream, "GET"), name="api-me-stream"),
    path("games/<id:pk>/analysis/", analysis.GameAnalysisApi.as_view(), name="api-game-analysis"),
    path("games/<id:pk>/resign/", views.GameResignApi.as_view(), name="api-game-resign"),
    path(
        "games/<id:pk>/accept/", views.GameSeatApi.as_view(action="accept"), name="api-game-accept"
    ),
    path(
        "games/<id:pk>/decline/",
        views.GameSeatApi.as_view(action="decline"),
        name="api-game-decline",
    ),
    path("games/<id:pk>/undo/", logs.LogUndoApi.as_view(), name="api-game-undo"),
    path("games/<id:pk>/log/", logs.LogDueApi.as_view(), name="api-game-log"),
]
