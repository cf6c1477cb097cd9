"""Signing up, in and out; settings; API tokens."""

from django.contrib.auth import views as auth_views
from django.urls import path

from accounts import pages, views

urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("accounts/signup/", views.SignUpView.as_view(), name="signup"),
    path("accounts/settings/", views.settings_page, name="settings"),
    path("accounts/tokens/", pages.tokens_page, name="api-tokens-page"),
    path("accounts/tokens/<id:pk>/revoke/", pages.token_revoke_page, name="api-token-revoke-page"),
]
