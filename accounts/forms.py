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


class SettingsForm(forms.Form):
    """What a person chooses: an e-mail when it is their turn, and the address it goes to."""

    email = forms.EmailField(
        label="E-mail address",
        required=False,
        help_text="Only used for the e-mails you ask for below.",
    )
    turn_emails = forms.BooleanField(
        label="E-mail me when it is my turn in a game without a short clock",
        required=False,
    )

    def clean(self):
        cleaned = super().clean()
        if cleaned.get("turn_emails") and not cleaned.get("email"):
            self.add_error("email", "Give the address to send them to.")
        return cleaned
