"""The API tokens page (``/accounts/tokens/``): a member's tokens listed, a new one made (its
key shown on the answer, once, never stored in the clear) and one revoked, with a
confirmation. The API does the same at /api/me/tokens/ (accounts.api)."""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from accounts import tokens
from accounts.models import Profile
from accounts.scopes import DESCRIPTIONS, SCOPES
from core.errors import ServiceError


class TokenForm(forms.Form):
    name = forms.CharField(
        max_length=tokens.NAME_LENGTH,
        help_text="So that you know it again: the program or device that will use it.",
    )
    scopes = forms.MultipleChoiceField(
        choices=[(scope, scope) for scope in SCOPES],
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": "Choose at least one scope."},
    )
    expires = forms.DateField(
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        label="Last day it works (optional)",
        help_text="It stops at midnight UTC after this day. Leave empty for a token that "
        "works until you revoke it.",
    )

    def clean_expires(self) -> datetime | None:
        day: date | None = self.cleaned_data.get("expires")
        if day is None:
            return None
        ends = datetime.combine(day + timedelta(days=1), time(0), tzinfo=UTC)
        if ends <= timezone.now():
            raise forms.ValidationError("That day is over: choose today or a later day.")
        return ends


@login_required
@never_cache  # a new key is on the answer: no cache, nor the browser's back button, keeps it
def tokens_page(request):
    """The member's tokens; POST makes one and shows its key, this once."""
    form = TokenForm(request.POST or None, initial={"scopes": [SCOPES[0]]})
    made = None
    if request.method == "POST" and form.is_valid():
        try:
            made, key = tokens.token_create(user=request.user, **form.cleaned_data)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        else:
            made.key = key  # for this answer only
            form = TokenForm(initial={"scopes": [SCOPES[0]]})
    listed = list(tokens.tokens_of(request.user))
    now = timezone.now()
    context = {
        "form": form,
        "made": made,
        "bot_since": _bot_since(request.user),
        "tokens": [(token, token.expired(now)) for token in listed],
        "scopes": [(scope, DESCRIPTIONS[scope]) for scope in SCOPES],
    }
    return render(request, "accounts/tokens.html", context)


def _bot_since(user):
    """When the account became a bot's (accounts.bots), or None."""
    profile = Profile.objects.filter(user=user).only("bot_since").first()
    return profile.bot_since if profile is not None else None


@login_required
@require_POST
def token_revoke_page(request, pk: int):
    try:
        token = tokens.token_revoke(user=request.user, token_id=pk)
    except ServiceError:
        messages.error(request, "That token is not yours, or it was revoked already.")
    else:
        messages.success(request, f"“{token.name}” is revoked: it no longer works anywhere.")
    return redirect("api-tokens-page")
