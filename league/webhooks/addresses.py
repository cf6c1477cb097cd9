"""Which addresses a webhook may send to: http or https, to a host name whose every address is
public. A club's organiser must not be able to make the service reach inside its own network
(a cloud's metadata at 169.254.169.254, a database on 10.x), so a URL is checked when it is
added and its host resolved and checked again at every send, in case its DNS has changed
since; the send then connects to the address it checked (league.webhooks.sending).

``HADAL_WEBHOOKS_ALLOW_LOOPBACK`` lets 127.0.0.1 and localhost through, for the tests' own
receivers; never in production."""

from __future__ import annotations

import ipaddress
import re
import socket
from urllib.parse import urlsplit

from django.conf import settings

from core.errors import InvalidInput, Refused

MAX_URL = 500
# The shape the API's schema states (league.api.webhooks): http or https, a host name or an
# IPv4 address (no user name or password), an optional port, then printable ASCII (the same
# class in Python and in the schema's ECMA dialect, where \S differs).
URL_PATTERN = r"^https?://[A-Za-z0-9.-]+(:[0-9]{1,5})?([/?#][!-~]*)?$"
_URL = re.compile(URL_PATTERN)


def checked_url(url: object) -> str:
    """``url`` if it may receive, else raise: 400 for one not of the shape the schema states
    (an ftp:// address, an IPv6 literal, a user name in it), 422 for one of that shape that
    points somewhere not allowed (which takes DNS to know, as the schema cannot)."""
    if not isinstance(url, str) or not url.strip():
        raise InvalidInput("url must be an http or https address")
    url = url.strip()
    if len(url) > MAX_URL:
        raise InvalidInput(f"url must be at most {MAX_URL} characters")
    if not _URL.match(url):
        raise InvalidInput(
            "url must be http:// or https:// and a host name, with no user name or password"
        )
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        raise Refused("url has a port that is not a number from 1 to 65535") from None
    if not parts.hostname or port == 0:
        raise Refused("url must name a host, and a port from 1 to 65535 if any")
    public_addresses(parts.hostname, port or (443 if parts.scheme == "https" else 80))
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
    addresses = [_ip(str(info[4][0])) for info in found]
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
