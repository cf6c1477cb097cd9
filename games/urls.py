"""Pages for people: accounts, the games list, a new game, the game page."""

from django.contrib.auth import views as auth_views
from django.urls import path

from games import views

urlpatterns = [
    path("", views.game_list, name="game-list"),
    path("games/new/", views.game_new, name="game-new"),
    path("games/<int:pk>/", views.game_detail, name="game-detail"),
    path("games/<int:pk>/accept/", views.game_seat_answer, {"answer": "accept"},
         name="game-accept"),
    path("games/<int:pk>/decline/", views.game_seat_answer, {"answer": "decline"},
         name="game-decline"),
    path("accounts/login/", auth_views.LoginView.as_view(redirect_authenticated_user=True),
         name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.SignUpView.as_view(), name="signup"),
]
