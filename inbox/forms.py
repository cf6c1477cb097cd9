"""The choices page's form: for each kind of notice, e-mail (not at all, at once, in the daily
list) and whether to tell the member's devices; the daily list's hour and time zone."""

from __future__ import annotations

from django import forms

from inbox import kinds
from inbox.choices import HOURS, hour_words, zones

MAIL_WORDS = {kinds.NONE: "No e-mail", kinds.NOW: "At once", kinds.DIGEST: "In the daily list"}


class ChoicesForm(forms.Form):
    digest_hour = forms.TypedChoiceField(
        label="Send the daily list at",
        choices=[(hour, hour_words(hour)) for hour in HOURS],
        coerce=int,
        error_messages={"invalid_choice": "Choose an hour of the day, from 00:00 to 23:00."},
    )
    timezone = forms.ChoiceField(
        label="Your time zone",
        choices=[(zone, zone.replace("_", " ")) for zone in zones()],
        error_messages={"invalid_choice": "Choose a time zone from the list."},
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for kind in kinds.KINDS:
            self.fields[f"mail_{kind.name}"] = forms.ChoiceField(
                label=kind.label,
                choices=[(value, MAIL_WORDS[value]) for value in kinds.MAIL_CHOICES],
                error_messages={
                    "invalid_choice": "Choose no e-mail, at once, or in the daily list.",
                    "required": "Choose no e-mail, at once, or in the daily list.",
                },
            )
            self.fields[f"push_{kind.name}"] = forms.BooleanField(
                label="Tell my devices", required=False
            )

    def rows(self):
        """(label, mail field, push field) for each kind, in the order of inbox.kinds."""
        return [
            (kind.label, self[f"mail_{kind.name}"], self[f"push_{kind.name}"])
            for kind in kinds.KINDS
        ]

    @staticmethod
    def initial_from(current: dict) -> dict:
        initial = {"digest_hour": current["digest_hour"], "timezone": current["timezone"]}
        for name in kinds.NAMES:
            initial[f"mail_{name}"] = current["mail"][name]
            initial[f"push_{name}"] = current["push"][name]
        return initial

    def chosen(self) -> dict:
        data = self.cleaned_data
        return {
            "mail": {name: data[f"mail_{name}"] for name in kinds.NAMES},
            "push": {name: data[f"push_{name}"] for name in kinds.NAMES},
            "digest_hour": data["digest_hour"],
            "timezone": data["timezone"],
        }
