"""Signing up, in and out, e-mail addresses and passwords, a member's settings and API tokens.

Our own views come first, under the names the site's pages use (``login``, ``logout``,
``signup``, ``settings``) and under allauth's where we replace its view; allauth's
(``allauth.account.urls``) follow for the rest: the confirmation of an address, a new password
by e-mail, the password change. Its routes for codes (signing in by a code, signing in again by
one before a sensitive change) answer 404: nothing here sends a member there, both being off
(ACCOUNT_LOGIN_BY_CODE_ENABLED, ACCOUNT_REAUTHENTICATION_REQUIRED).
"""

from allauth.account import views as allauth_views
from django.http import Http404
from django.urls import include, path

from accounts import pages, views


def switched_off(request, *args, **kwargs):
    raise Http404("not used here")


urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("accounts/signup/", allauth_views.signup, name="signup"),
    path("accounts/settings/", views.settings_page, name="settings"),
    path("accounts/settings/away/<slug:action>/", views.away_page, name="settings-away"),
    path("accounts/tokens/", pages.tokens_page, name="api-tokens-page"),
    path("accounts/tokens/<id:pk>/revoke/", pages.token_revoke_page, name="api-token-revoke-page"),
    path("accounts/email/", views.EmailView.as_view(), name="account_email"),
    path(
        "accounts/confirm-email/<str:key>/",
        views.ConfirmEmailView.as_view(),
        name="account_confirm_email",
    ),
    path("accounts/reauthenticate/code/", switched_off),
    path("accounts/reauthenticate/code/confirm/", switched_off),
    path("accounts/login/code/confirm/", switched_off),
    path("accounts/", include("allauth.account.urls")),
]
