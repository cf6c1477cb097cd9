"""Mail about notices: one notice at once (inbox.delivery), to a verified primary address
only (accounts.addresses)."""

from __future__ import annotations

from django.conf import settings
from django.core.mail import send_mail
from django.urls import reverse

from accounts.addresses import verified_address
from inbox.models import Notice


def site(path: str) -> str:
    return settings.HADAL_SITE_URL.rstrip("/") + path


def send_notice(notice: Notice) -> bool:
    """Mail ``notice`` to its member: False if they have no verified address."""
    address = verified_address(notice.user)
    if address is None:
        return False
    send_mail(
        subject=notice.text,
        message=(
            f"Hello {notice.user.username},\n\n{notice.text}.\n\n"
            f"{site(reverse('notice-open', args=[notice.pk]))}\n\n"
            "You get this because you chose to be told at once by e-mail. To choose otherwise "
            f"(none, or one daily list), see {site(reverse('settings'))}."
        ),
        from_email=None,
        recipient_list=[address],
    )
    return True
