"""How long the links in the account mails work, for the pages and mails that say so."""

from __future__ import annotations

from allauth.account import app_settings
from django.conf import settings


def link_lifetimes(request) -> dict[str, int]:
    return {
        "link_days": app_settings.EMAIL_CONFIRMATION_EXPIRE_DAYS,
        "reset_days": max(1, settings.PASSWORD_RESET_TIMEOUT // 86400),
    }
