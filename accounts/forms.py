"""Signing up: a username and a password, never a name kept for the bots."""

from django import forms
from django.contrib.auth.forms import UserCreationForm

from accounts.bots import BOT_PREFIX


class SignUpForm(UserCreationForm):
    class Meta(UserCreationForm.Meta):
        fields = ("username",)

    def clean_username(self):
        username = super().clean_username()
        # Bots are users named "bot-<level>": a person must never be mistaken for one.
        if username and username.lower().startswith(BOT_PREFIX):
            raise forms.ValidationError(
                f'Usernames starting with "{BOT_PREFIX}" are kept for the bots; please choose '
                "another."
            )
        return username
