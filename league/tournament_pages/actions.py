"""How an action taken from a tournament's page answers: back to the page with a message once
the service has done it, or the page again with the service's error, on the form it came from
or at the top."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ServiceError
from league import visibility
from league.models import Tournament
from league.tournament_pages.page import tournament_page
from league.views import _refusal_status


def attempt(
    request,
    tournament: Tournament,
    call: Callable[[], str],
    *,
    form=None,
    key: Any = None,
    anchor: str = "",
):
    """Run a service call that returns the success message. A ``form`` that is not valid
    comes back on the page with its errors (as ``bound[key]``), and nothing is called. On
    success, back to the page with the message; on a service error, the page again with the
    error on the form, or at the top for a button or a refusal (403: not the viewer's to do)."""
    if form is not None and not form.is_valid():
        return tournament_page(request, tournament, bound={key: form})
    try:
        done = call()
    except ServiceError as exc:
        status = _refusal_status(exc)
        if form is None or status == 403:
            return tournament_page(request, tournament, error=str(exc), status=status)
        form.add_error(None, str(exc))
        return tournament_page(request, tournament, bound={key: form})
    messages.success(request, done)
    return redirect(reverse("tournament-detail", args=[tournament.pk]) + anchor)


def simple_post(call: Callable[..., str], *, anchor: str = ""):
    """A view for a button that calls one service with the tournament and the request."""

    @login_required
    @require_POST
    def view(request, pk: int, **kwargs):
        tournament = visibility.tournament_or_404(pk, request.user)
        return attempt(
            request, tournament, lambda: call(tournament, request, **kwargs), anchor=anchor
        )

    return view


def form_post(
    form_class: type[forms.Form], key: str, call: Callable[..., str], *, anchor: str = ""
):
    """A view for a form of the page that calls one service with the tournament, the request
    and what the form cleaned; the form comes back on the page under ``key`` if it is not
    valid, or if the service refuses what it says."""

    @login_required
    @require_POST
    def view(request, pk: int):
        tournament = visibility.tournament_or_404(pk, request.user)
        sent = form_class(request.POST)
        return attempt(
            request,
            tournament,
            lambda: call(tournament, request, sent.cleaned_data),
            form=sent,
            key=key,
            anchor=anchor,
        )

    return view
