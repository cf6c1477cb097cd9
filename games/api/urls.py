from django.urls import path

from games.api import analysis, views

urlpatterns = [
    path("games/types/", views.GameTypesApi.as_view(), name="api-game-types"),
    path("games/", views.GameListCreateApi.as_view(), name="api-games"),
    path("games/<int:pk>/", views.GameDetailApi.as_view(), name="api-game"),
    path("oceans/cards/", views.OceansCardsApi.as_view(), name="api-oceans-cards"),
    path("games/<int:pk>/state/", views.GameStateApi.as_view(), name="api-game-state"),
    path("games/<int:pk>/actions/", views.GameActionsApi.as_view(), name="api-game-actions"),
    path("games/<int:pk>/events/", views.GameEventsApi.as_view(), name="api-game-events"),
    path("games/<int:pk>/analysis/", analysis.GameAnalysisApi.as_view(), name="api-game-analysis"),
    path("games/<int:pk>/resign/", views.GameResignApi.as_view(), name="api-game-resign"),
    path(
        "games/<int:pk>/accept/", views.GameSeatApi.as_view(action="accept"), name="api-game-accept"
    ),
    path(
        "games/<int:pk>/decline/",
        views.GameSeatApi.as_view(action="decline"),
        name="api-game-decline",
    ),
]
