"""The account pages that reach past accounts: leaving for good (the member's games are settled
and kept, league.services.erasure), taking one's data away (league.member_data) and making the
account a bot's (league.services.bot_accounts, from the API tokens page). The settings page
(accounts) links to the first two."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from games.models import Game, GameMode, GameStatus
from league.member_data import member_data_zip
from league.services import bot_accounts, erasure


class EraseForm(forms.Form):
    username = forms.CharField(label="Type your username to confirm", max_length=150)
    password = forms.CharField(label="Your password", widget=forms.PasswordInput)

    def __init__(self, *args, user, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean(self):
        data = super().clean()
        if data.get("username") != self.user.username:
            self.add_error("username", "That is not your username.")
        if not self.user.check_password(data.get("password") or ""):
            self.add_error("password", "That is not your password.")
        return data


@login_required
def account_erase(request):
    """What deleting the account does, and, confirmed with the username and password, doing it."""
    user = request.user
    form = EraseForm(request.POST or None, user=user)
    if request.method == "POST" and form.is_valid():
        try:
            erasure.member_erase(user=user)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            logout(request)
            messages.success(
                request,
                "Your account is deleted: your name, e-mail and password are gone, and your "
                "games stay in your clubs' history as a former member's.",
            )
            return redirect("game-list")
    running = (
        Game.objects.filter(seats__user=user, status=GameStatus.ACTIVE)
        .exclude(mode=GameMode.RECORD)
        .distinct()
        .count()
    )
    context = {"form": form, "blockers": erasure.why_not_erasable(user), "running": running}
    return render(request, "registration/erase.html", context)


@login_required
def account_data(request):
    """The member's own data: a ZIP of one JSON document and a CSV per table."""
    response = HttpResponse(member_data_zip(request.user), content_type="application/zip")
    response["Content-Disposition"] = 'attachment; filename="hadal-my-data.zip"'
    return response


@login_required
@require_POST
def account_bot(request):
    """Make the account a bot's, for good, once its member has ticked that they understand;
    why it may not, if it may not. Back to the API tokens page either way."""
    if request.POST.get("understood") != "yes":
        messages.error(request, "Tick that you understand it is for good, then ask again.")
    else:
        try:
            bot_accounts.bot_account_make(user=request.user)
        except ServiceError as exc:
            messages.error(request, f"{str(exc)[0].upper()}{str(exc)[1:]}.")
        else:
            messages.success(
                request,
                "This account is a bot's now: it plays through the API with a token, and "
                "is shown as a bot.",
            )
    return redirect("api-tokens-page")
