"""Signing in (the page and the API's token), each refusing a burst of wrong passwords with a
429 until the burst has passed, and a member's settings. Signing up, e-mail addresses and new
passwords are django-allauth's views (accounts.urls), with our forms and templates."""

from __future__ import annotations

from math import ceil

from allauth.account import views as allauth_views
from allauth.account.models import EmailAddress
from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.views.decorators.http import require_POST
from rest_framework import exceptions, parsers
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts import vacations
from accounts.forms import AwayAutoForm, SignInForm, VacationForm
from accounts.scopes import NONE, HasScope
from accounts.throttling import FailedSignInThrottle, remember_device
from accounts.tokens import password_token_create
from core import inputs
from core.errors import ServiceError
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
    their password, the way to their choices of how notices reach them, days away from the
    board, and the ways to take their data or leave."""
    return render(request, "registration/settings.html", _settings_context(request.user))


def _settings_context(user, vacation_form: VacationForm | None = None) -> dict:
    addresses = EmailAddress.objects.filter(user=user)
    context = {
        "current": addresses.filter(verified=True).order_by("-primary", "pk").first(),
        "pending": addresses.filter(verified=False).order_by("-pk").first(),
    }
    return context | _away_context(user, vacation_form)


def _away_context(user, vacation_form: VacationForm | None = None) -> dict:
    summary = vacations.summary_of(user)
    return {
        "away": summary,
        "vacation_form": vacation_form or VacationForm(),
        "away_auto_form": AwayAutoForm(initial={"auto": summary.auto}),
        "upcoming": [
            {"vacation": v, "days": vacations.days_counted(v, timezone.now())}
            for v in summary.vacations
            if v.state == vacations.State.SCHEDULED
        ],
    }


@login_required
@require_POST
def away_page(request, action: str):
    """The settings page's "Away from the board": schedule a vacation, be away now or back,
    call one off, or opt in to a day taken instead of a timeout. A refusal is shown on the
    settings page, with nothing stored."""
    user = request.user
    vacation_form = None
    try:
        if action == "schedule":
            vacation_form = VacationForm(request.POST)
            if vacation_form.is_valid():
                starts, ends = vacation_form.moments(timezone.now())
                vacations.vacation_schedule(user=user, starts_at=starts, ends_at=ends)
                messages.success(request, "Your vacation is booked.")
                return redirect(f"{reverse('settings')}#away")
        elif action == "now":
            vacations.vacation_away_now(user=user)
            messages.success(request, "You are away: your correspondence clocks wait.")
            return redirect(f"{reverse('settings')}#away")
        elif action == "back":
            vacations.vacation_back(user=user)
            messages.success(request, "Welcome back: your clocks run again.")
            return redirect(f"{reverse('settings')}#away")
        elif action == "cancel":
            pk = inputs.whole_number(request.POST.get("vacation"), "the vacation", 1, inputs.BIGINT)
            vacations.vacation_cancel(user=user, vacation_id=pk)
            messages.success(request, "That vacation is called off.")
            return redirect(f"{reverse('settings')}#away")
        elif action == "auto":
            auto = AwayAutoForm(request.POST)
            auto.is_valid()
            vacations.away_auto_set(user=user, on=bool(auto.cleaned_data.get("auto")))
            messages.success(request, "Your settings are saved.")
            return redirect(f"{reverse('settings')}#away")
        else:
            raise Http404("no such action")
    except ServiceError as exc:
        vacation_form = vacation_form or VacationForm()
        vacation_form.add_error(None, f"{str(exc)[:1].upper()}{str(exc)[1:]}.")
    context = _settings_context(user, vacation_form=vacation_form)
    return render(request, "registration/settings.html", context, status=422)


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
