"""The account forms, in the site's words: signing up (a username, an e-mail address if the
member wants a way back in), signing in by username or address, a new password, and the
e-mail addresses. The usernames nobody may take are the adapter's to refuse
(accounts.adapter), on every path allauth takes."""

from __future__ import annotations

from datetime import datetime, time, timedelta

from allauth.account import forms as allauth_forms
from allauth.account.adapter import get_adapter
from allauth.account.models import EmailAddress, get_emailconfirmation_model
from allauth.utils import build_absolute_uri
from django import forms
from django.contrib.auth.forms import AuthenticationForm
from django.urls import reverse
from django.utils import timezone

PASSWORD_HELP = "At least 8 characters; not a common password, nor one like your username."


def _plain(form: forms.Form, labels: dict[str, str], help_texts: dict[str, str] | None = None):
    """Our labels and help in place of allauth's, and no placeholders repeating the labels."""
    help_texts = help_texts or {}
    for name, field in form.fields.items():
        field.widget.attrs.pop("placeholder", None)
        if name in labels:
            field.label = labels[name]
        if name in help_texts:
            field.help_text = help_texts[name]


class SignUpForm(allauth_forms.SignupForm):
    field_order = ["username", "email", "password1", "password2"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain(
            self,
            {
                "username": "Username",
                "email": "E-mail address (optional)",
                "password1": "Password",
                "password2": "The same password again",
            },
            {
                "username": "What other players see. Letters, digits and @ . + - _ only.",
                "email": (
                    "Without one, a forgotten password is the end of your account: nobody "
                    "can send you a new one. We send a link to confirm it, and never show it "
                    "to anyone."
                ),
                "password1": PASSWORD_HELP,
            },
        )


class SignInForm(AuthenticationForm):
    """Django's sign-in form, taking a username or an e-mail address (the allauth backend in
    AUTHENTICATION_BACKENDS finds the account by either)."""

    error_messages = {
        **AuthenticationForm.error_messages,
        "invalid_login": (
            "That username or e-mail address and password do not match an account. Check "
            "both and try again."
        ),
    }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        login = self.fields["username"]
        login.label = "Username or e-mail address"
        login.max_length = 254
        login.widget.attrs["maxlength"] = "254"
        self.fields["password"].label = "Password"


class ChangePasswordForm(allauth_forms.ChangePasswordForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain(
            self,
            {
                "oldpassword": "Your password now",
                "password1": "New password",
                "password2": "The new password again",
            },
            {"oldpassword": "", "password1": PASSWORD_HELP},
        )


class ResetPasswordKeyForm(allauth_forms.ResetPasswordKeyForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain(
            self,
            {"password1": "New password", "password2": "The new password again"},
            {"password1": PASSWORD_HELP},
        )


class AddEmailForm(allauth_forms.AddEmailForm):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain(self, {"email": "New e-mail address"})


class ResetPasswordForm(allauth_forms.ResetPasswordForm):
    """A new password by e-mail, for an address its account has verified: the link in the
    mail opens the account, so it goes only where the member has shown they read their mail.

    What each address gets, the page answering the same whatever it is: a verified address, the
    link to set a new password; an address an account holds unverified, a link to confirm it
    first (then they ask again); an address no account holds, allauth's mail saying so."""

    users: list  # who gets a link (allauth's clean_email finds the candidates)
    unverified: list  # the accounts holding the address unverified

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _plain(self, {"email": "Your e-mail address"})

    def clean_email(self) -> str:
        email = super().clean_email()  # self.users: the active accounts holding the address
        verified = set(
            EmailAddress.objects.filter(
                email=email.lower(), verified=True, user__in=self.users
            ).values_list("user_id", flat=True)
        )
        self.unverified = [user for user in self.users if user.pk not in verified]
        self.users = [user for user in self.users if user.pk in verified]
        return email

    def save(self, request, **kwargs) -> str:
        email = self.cleaned_data["email"]
        if self.users or not self.unverified:
            return super().save(request, **kwargs)
        adapter = get_adapter()
        for user in self.unverified:
            # The address may be on the user row alone (an account made in the admin).
            address = EmailAddress.objects.add_email(request, user, email)
            confirmation = get_emailconfirmation_model().create(address)
            adapter.send_mail(
                "account/email/password_reset_unverified",
                address.email,
                {
                    "user": user,
                    "activate_url": adapter.get_email_confirmation_url(request, confirmation),
                    "password_reset_url": build_absolute_uri(
                        request, reverse("account_reset_password")
                    ),
                },
            )
        return email


class VacationForm(forms.Form):
    """Days away from the board, from one day to another, both included."""

    starts = forms.DateField(
        label="From", widget=forms.DateInput(attrs={"type": "date"}), help_text="the first day"
    )
    ends = forms.DateField(
        label="To", widget=forms.DateInput(attrs={"type": "date"}), help_text="the last day"
    )

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts"), data.get("ends")
        today = timezone.localdate()
        if ends and ends.year > today.year + 1:
            self.add_error("ends", "That is too far ahead: book this year's or next year's days.")
        if starts and starts < today:
            self.add_error("starts", "That day has passed: a vacation starts today or later.")
        elif starts and ends and ends < starts:
            self.add_error("ends", "The last day comes before the first: swap them.")
        return data

    def moments(self, now: datetime) -> tuple[datetime, datetime]:
        """From the start of the first day (now, if that is today) to the end of the last."""
        zone = timezone.get_current_timezone()
        starts = datetime.combine(self.cleaned_data["starts"], time(), tzinfo=zone)
        ends = datetime.combine(self.cleaned_data["ends"] + timedelta(days=1), time(), tzinfo=zone)
        return max(starts, now), ends


class AwayAutoForm(forms.Form):
    auto = forms.BooleanField(
        label="Take a day of my vacation rather than let my clock run out",
        required=False,
        help_text="In a game with a day or more a move, while I have days left.",
    )
