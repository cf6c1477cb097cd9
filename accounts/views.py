"""Signing in (the page and the API's token), each refusing a burst of wrong passwords with a
429 until the burst has passed, and a member's settings. Signing up, e-mail addresses and new
passwords are django-allauth's views (accounts.urls), with our forms and templates."""

from __future__ import annotations

from math import ceil

from allauth.account import views as allauth_views
from allauth.account.models import EmailAddress
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render
from django.utils.http import url_has_allowed_host_and_scheme
from rest_framework import exceptions, parsers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.forms import SignInForm
from accounts.scopes import NONE, HasScope
from accounts.throttling import FailedSignInThrottle, remember_device
from accounts.tokens import password_token_create
from core.parsers import StrictJSONParser


class SignInView(auth_views.LoginView):
    """Sign in by username or e-mail address."""

    form_class = SignInForm
    template_name = "account/login.html"
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        login = request.POST.get("username", "")
        throttle = FailedSignInThrottle(login)
        if not throttle.allow_request(request):
            return render(
                request,
                "registration/too_many.html",
                {"wait": round(throttle.wait() or 60), "account": throttle.refused == "account"},
                status=429,
            )
        response = super().post(request, *args, **kwargs)
        if response.status_code == 200:  # the form came back: wrong name or password
            throttle.record_failure(request)
        elif request.user.is_authenticated:
            remember_device(request, response, request.user.username)
        return response


class TokenView(APIView):
    """``POST /api/auth/token/`` with a username and password → ``{"token"}``: a new token
    with every scope each time, listed among the member's tokens (accounts.tokens)."""

    parser_classes = (StrictJSONParser, parsers.FormParser)
    permission_classes = (HasScope,)
    scopes = {"POST": NONE}
    serializer_class = AuthTokenSerializer

    def get_serializer(self, *args, **kwargs):
        kwargs.setdefault("context", {"request": self.request})
        return self.serializer_class(*args, **kwargs)

    def post(self, request, *args, **kwargs):
        username = request.data.get("username", "") if hasattr(request.data, "get") else ""
        username = username if isinstance(username, str) else ""
        throttle = FailedSignInThrottle(username)
        if not throttle.allow_request(request):
            wait = throttle.wait()
            raise exceptions.Throttled(wait, detail=f"{throttle.message()} {ceil(wait or 60)} s")
        serializer = self.get_serializer(data=request.data)
        if not serializer.is_valid():
            throttle.record_failure(request)
            raise exceptions.ValidationError(serializer.errors)
        response = Response(
            {"token": password_token_create(user=serializer.validated_data["user"])}
        )
        remember_device(request, response, username)
        return response


@login_required
def settings_page(request):
    """A member's own settings: their e-mail address (kept by allauth, changed on its page),
    their password, the way to their choices of how notices reach them, and the ways to take
    their data or leave."""
    addresses = EmailAddress.objects.filter(user=request.user)
    context = {
        "current": addresses.filter(verified=True).order_by("-primary", "pk").first(),
        "pending": addresses.filter(verified=False).order_by("-pk").first(),
    }
    return render(request, "registration/settings.html", context)


class EmailView(allauth_views.EmailView):
    """allauth's e-mail page, going back where it was asked from (the settings page's
    "send the link again") rather than to itself."""

    def get_success_url(self) -> str:
        wanted = self.request.POST.get("next", "")
        if wanted and url_has_allowed_host_and_scheme(
            wanted, {self.request.get_host()}, require_https=self.request.is_secure()
        ):
            return wanted
        return super().get_success_url()


class ConfirmEmailView(allauth_views.ConfirmEmailView):
    """allauth's confirmation page. Its button pressed on a link that no longer works (pressed
    twice, or expired since the page opened) says so, as opening such a link does, where
    allauth would answer 404."""

    def post(self, *args, **kwargs):
        try:
            return super().post(*args, **kwargs)
        except Http404:
            self.object = None
            return self.render_to_response(self.get_context_data())
