"""Reading the account mails in tests: who got what, and the links in it."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

from django.core import mail

LINK = re.compile(r"https?://\S+")


def sent_to(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


def links(message) -> list[str]:
    return LINK.findall(message.body)


def path_of(url: str) -> str:
    """A link's path, for the test client."""
    return urlsplit(url).path


def the_link(message, part: str) -> str:
    """The one link in ``message`` whose path holds ``part`` (a view's path)."""
    [url] = [u for u in links(message) if part in urlsplit(u).path]
    return url
