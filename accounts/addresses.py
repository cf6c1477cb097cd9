"""A member's e-mail address, as django-allauth keeps it (``EmailAddress`` rows): one primary
address, verified by a link, and perhaps a new one waiting to be verified in its place. Mail
about the member's games goes only to a verified primary address: an address nobody has
confirmed may be a typo, or someone else's."""

from __future__ import annotations

from allauth.account.models import EmailAddress


def verified_address(user) -> str | None:
    """The address mail to ``user`` may go to, or None."""
    return (
        EmailAddress.objects.filter(user_id=user.pk, primary=True, verified=True)
        .values_list("email", flat=True)
        .first()
    )
