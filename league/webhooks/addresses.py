"""Which addresses a webhook may send to: http or https, to a host name whose every address is
public. A club's organiser must not be able to make the service reach inside its own network
(a cloud's metadata at 169.254.169.254, a database on 10.x), so a URL is checked when it is
added and its host resolved and checked again at every send, in case its DNS has changed
since; the send then connects to the address it checked (league.webhooks.sending).

``HADAL_WEBHOOKS_ALLOW_LOOPBACK`` lets 127.0.0.1 and localhost through, for the tests' own
receivers; never in production."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

from django.conf import settings

from core.errors import InvalidInput, Refused

MAX_URL = 500


def checked_url(url: object) -> str:
    """``url`` if it is well formed and may receive, else raise: 400 for a malformed one, 422
    for one well formed that points somewhere not allowed (refusing it needs DNS, which the
    schema cannot know)."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInput("url must be an http or https address")
    url = url.strip()
    if len(url) > MAX_URL:
        raise InvalidInput(f"url must be at most {MAX_URL} characters")
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise InvalidInput("url must be an http or https address with a host name")
    if parts.username or parts.password:
        raise InvalidInput("url must not carry a user name or password")
    try:
        parts.port  # noqa: B018 -- raises on a port that is not a number in range
    except ValueError:
        raise InvalidInput("url has a port that is not a number from 0 to 65535") from None
    public_addresses(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
    return url


def public_addresses(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to, all of them allowed, or Refused: an address of a
    private, loopback, link-local, multicast, reserved or unspecified network anywhere among
    them refuses the host (a name resolving to one public and one private address would
    reach the private one half the time)."""
    literal = _ip(host)
    if literal is not None:
        if not _allowed(literal):
            raise Refused(f"{host} is not a public address: webhooks go to public hosts only")
        return [str(literal)]
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError):
        raise Refused(f"the host {host} cannot be found") from None
    addresses = [_ip(info[4][0]) for info in found]
    if not addresses or any(a is None or not _allowed(a) for a in addresses):
        raise Refused(f"{host} resolves to an address that is not public: refused")
    return sorted({str(a) for a in addresses if a is not None})


def _ip(text: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        return ipaddress.ip_address(text.strip("[]").split("%")[0])
    except ValueError:
        return None


def _allowed(address: ipaddress.IPv4Address | ipaddress.IPv6Address) -> bool:
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if address.is_loopback and settings.HADAL_WEBHOOKS_ALLOW_LOOPBACK:
        return True
    return address.is_global and not (
        address.is_private
        or address.is_loopback
        or address.is_link_local
        or address.is_multicast
        or address.is_reserved
        or address.is_unspecified
    )
