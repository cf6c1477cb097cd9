"""How django-allauth behaves here: the usernames a person may not take, where its pages go
next, and where its notices go."""

from __future__ import annotations

from allauth.account.adapter import DefaultAccountAdapter
from allauth.utils import build_absolute_uri
from django import forms
from django.urls import reverse

from accounts.addresses import verified_address
from accounts.bots import BOT_PREFIX
from accounts.people import ERASED_PREFIX

# A username starting with one of these would be taken for something it is not.
KEPT_PREFIXES = {
    BOT_PREFIX: "the bots",  # "bot-<level>": the bots' own accounts
    ERASED_PREFIX: "deleted accounts",  # "former-member-<id>": an erased member's row
}


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username: str, shallow: bool = False) -> str:
        for prefix, kept_for in KEPT_PREFIXES.items():
            if username.lower().startswith(prefix):
                raise forms.ValidationError(
                    f'Usernames starting with "{prefix}" are kept for {kept_for}; please '
                    "choose another."
                )
        return super().clean_username(username, shallow=shallow)

    def get_password_change_redirect_url(self, request) -> str:
        return reverse("settings")

    def send_notification_mail(self, template_prefix, user, context=None, email=None) -> None:
        """ "Your password was changed" and the like, to the member's verified address (allauth
        would use an unverified one too); "your address was changed" goes to the old address,
        which allauth names."""
        email = email or verified_address(user)
        if not email:
            return
        reset = build_absolute_uri(self.request, reverse("account_reset_password"))
        context = {"user": user, "password_reset_url": reset, **(context or {})}
        super().send_notification_mail(template_prefix, user, context, email=email)
