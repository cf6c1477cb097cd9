"""Mail about notices: one notice at once (inbox.delivery), or the day's list (inbox.digest),
to a verified primary address only (accounts.addresses).

Every mail carries a one-click unsubscribe (RFC 8058): ``List-Unsubscribe`` names a link
holding a signed token (the member, and what to stop: the notice's kind, or the daily list),
and ``List-Unsubscribe-Post`` lets the mail client stop it by a POST to that link, with no
signing in. The body links to the choices page too."""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse

from accounts.addresses import verified_address
from inbox import kinds
from inbox.models import Notice

_SALT = "inbox.unsubscribe"


def site(path: str) -> str:
    return settings.HADAL_SITE_URL.rstrip("/") + path


def unsubscribe_token(user_id: int, what: str) -> str:
    """A token for the link that stops ``what`` (a kind, ``digest`` or ``all``) for the
    member: signed with the site's key, so that it cannot be made up or changed. No date in
    it: the link in an old mail keeps working, and each mail of a kind carries the same."""
    return signing.Signer(salt=_SALT).sign_object({"u": user_id, "s": what}, compress=True)


def unsubscribe_read(token: str) -> tuple[int, str] | None:
    """The member and what to stop, or None for a token we did not sign."""
    try:
        found = signing.Signer(salt=_SALT).unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(found, dict):
        return None
    user_id, what = found.get("u"), found.get("s")
    if not isinstance(user_id, int) or isinstance(user_id, bool):
        return None
    if what not in (kinds.ALL, kinds.DIGEST, *kinds.NAMES):
        return None
    return user_id, what


def unsubscribe_url(user_id: int, what: str) -> str:
    return site(reverse("inbox-unsubscribe", args=[unsubscribe_token(user_id, what)]))


def _message(*, user, address: str, subject: str, template: str, context: dict, stops: str):
    unsubscribe = unsubscribe_url(user.pk, stops)
    context = {
        **context,
        "user": user,
        "unsubscribe": unsubscribe,
        "choices": site(reverse("inbox-choices")),
    }
    message = EmailMultiAlternatives(
        subject=subject,
        body=render_to_string(f"inbox/mail/{template}.txt", context),
        to=[address],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )
    message.attach_alternative(
        render_to_string(f"inbox/mail/{template}.html", context), "text/html"
    )
    return message


def send_notice(notice: Notice) -> bool:
    """Mail ``notice`` to its member: False if they have no verified address."""
    address = verified_address(notice.user)
    if address is None:
        return False
    _message(
        user=notice.user,
        address=address,
        subject=notice.text,
        template="notice",
        context={
            "notice": notice,
            "link": site(reverse("notice-open", args=[notice.pk])),
            "kind": kinds.label(notice.kind),
        },
        stops=notice.kind,
    ).send()
    return True


def digest_message(*, user, address: str, notices: Sequence[Notice]) -> EmailMultiAlternatives:
    """The day's list: the games waiting for the member's move, the records waiting for
    their word, then the rest, each with its link."""
    rows = [(notice, site(reverse("notice-open", args=[notice.pk]))) for notice in notices]
    turns = [row for row in rows if row[0].kind == "your_turn"]
    records = [row for row in rows if row[0].kind == "record_to_confirm"]
    others = [row for row in rows if row[0].kind not in ("your_turn", "record_to_confirm")]
    count = len(rows)
    return _message(
        user=user,
        address=address,
        subject=f"Hadal: {count} thing{'s' if count != 1 else ''} for you today",
        template="digest",
        context={"turns": turns, "records": records, "others": others},
        stops=kinds.DIGEST,
    )
