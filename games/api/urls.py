from django.urls import path

from games.api import analysis
from games.api import live as streams
from games.api import play as views
from games.api import records as export
from games.api import tablelog as logs

urlpatterns = [
    # First: Django keeps, on each request, every pattern it tried before the one that
    # matched, and a stream's request lives as long as the stream (1.7 KB each, listed last).
    path("games/<id:pk>/stream/", streams.game_stream, name="api-game-stream"),
    path("me/stream/", streams.user_stream, name="api-me-stream"),
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
