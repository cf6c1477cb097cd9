"""Serializer fields every app's API shares: text as the services take it (core.inputs.text),
with the rule stated in the schema too."""

from __future__ import annotations

from django.core.validators import RegexValidator
from rest_framework import serializers

# What core.inputs.text refuses: the C0 control characters but tab, line feed and return.
_ALLOWED = r"[^\x00-\x08\x0b\x0c\x0e-\x1f]"
_VISIBLE = r"[^\s\x00-\x1f]"


class Text(serializers.CharField):
    """A JSON string (DRF's CharField takes a number too and makes it text) without control
    characters; unless it may be blank, with something in it besides spaces (the server strips
    them). Both rules are a ``pattern`` in the schema."""

    default_error_messages = {"not_text": "Must be text."}

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        pattern = (
            rf"^{_ALLOWED}*\Z" if self.allow_blank else rf"^{_ALLOWED}*{_VISIBLE}{_ALLOWED}*\Z"
        )
        self.validators.append(
            RegexValidator(pattern, "may not be blank or hold control characters")
        )

    def to_internal_value(self, data):
        if not isinstance(data, str):
            self.fail("not_text")
        return super().to_internal_value(data)
