"""Signing up, in and out, e-mail addresses and passwords, and a member's settings.

Our own views come first, under the names the site's pages use (``login``, ``logout``,
``signup``, ``settings``) and under allauth's where we replace its view; allauth's
(``allauth.account.urls``) follow for the rest: the confirmation of an address, a new password
by e-mail, the password change. Two routes allauth has are of no use here, as nothing sends a
member there: signing in again before a sensitive change (off: ACCOUNT_REAUTHENTICATION_
REQUIRED) by a code, and confirming a sign-in code (ACCOUNT_LOGIN_BY_CODE_ENABLED off); they
answer 404.
"""

from allauth.account import views as allauth_views
from django.http import Http404
from django.urls import include, path

from accounts import views


def switched_off(request, *args, **kwargs):
    raise Http404("not used here")


urlpatterns = [
    path("accounts/login/", views.SignInView.as_view(), name="login"),
    path("accounts/logout/", allauth_views.logout, name="logout"),
    path("accounts/signup/", allauth_views.signup, name="signup"),
    path("accounts/settings/", views.settings_page, name="settings"),
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
