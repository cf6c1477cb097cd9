"""Signing up, signing in (the page and the API's token), each refusing a burst of wrong
passwords with a 429 until the burst has passed."""

from __future__ import annotations

from math import ceil

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.shortcuts import redirect, render
from django.views.generic import CreateView
from rest_framework import exceptions, parsers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.forms import SettingsForm, SignUpForm
from accounts.models import Profile
from accounts.scopes import NONE, HasScope
from accounts.throttling import FailedSignInThrottle, remember_device
from accounts.tokens import password_token_create
from core.parsers import StrictJSONParser


class SignUpView(CreateView):
    """Create an account and sign straight in."""

    form_class = SignUpForm
    template_name = "registration/signup.html"

    def form_valid(self, form):
        user = form.save()
        login(self.request, user, backend="django.contrib.auth.backends.ModelBackend")
        return redirect("game-list")


class SignInView(auth_views.LoginView):
    redirect_authenticated_user = True

    def post(self, request, *args, **kwargs):
        username = request.POST.get("username", "")
        throttle = FailedSignInThrottle(username)
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
            remember_device(request, response, username)
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
    """A person's own settings: turn e-mails on or off, and the address they go to."""
    user = request.user
    profile = Profile.objects.filter(user=user).first() or Profile(user=user)
    initial = {"email": user.email, "turn_emails": profile.turn_emails}
    form = SettingsForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            user.email = form.cleaned_data["email"]
            user.save(update_fields=["email"])
            profile.turn_emails = form.cleaned_data["turn_emails"]
            profile.save()
        messages.success(request, "Your settings are saved.")
        return redirect("settings")
    return render(request, "registration/settings.html", {"form": form})
