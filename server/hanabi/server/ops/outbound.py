"""Requests the server makes to addresses its users give it (webhooks), kept from reaching
what they must not (SSRF).

A URL is checked when it is given (:func:`check_url`) and again at every delivery
(:func:`post`), which resolves the host once, refuses it if any of its addresses is
private, loopback, link-local, multicast, reserved or unspecified, and then connects to
the address it checked (not to a name resolved a second time, which a rebinding DNS
could point elsewhere). TLS is verified against the URL's host name. Redirects are not
followed. ``allow_private`` (``HANABI_WEBHOOK_PRIVATE=on``) lifts the address check and
allows plain ``http://``: for closed networks and tests only.
"""

from __future__ import annotations

import http.client
import ipaddress
import socket
import ssl
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL = 500
NAT64 = ipaddress.ip_network("64:ff9b::/96")


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalogues (docs/i18n.md); the table translates it."""
    return msgid


class Worded:
    """A sentence for people kept as a message id and named values, so that the table can
    refuse with it in the reader's language; ``str()`` is the English."""

    def __init__(self, template: str, /, **params: object) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))  # type: ignore[call-arg]


class NotAllowed(Worded, ValueError):
    """A URL the server will not call; its message says why, for people."""


class Unresolved(Worded, OSError):
    """The host has no address now (DNS down, or no such name): worth another try later."""


UNRESOLVED = N_("The host {host} could not be resolved.")


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str


def check_url(url: str, allow_private: bool) -> Target:
    """The URL's parts if the server may call it; :class:`NotAllowed` if not."""
    if len(url) > MAX_URL:
        raise NotAllowed(N_("The URL may be at most {limit} characters long."), limit=MAX_URL)
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise NotAllowed(N_("That is not a URL.")) from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not parts.hostname:
        raise NotAllowed(N_("The URL must start with https:// and name a host."))
    if parts.username or parts.password:
        raise NotAllowed(N_("The URL may not hold a user name or password."))
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, parts.hostname, port, path)


def resolve(target: Target, allow_private: bool) -> str:
    """The address to connect to: :class:`Unresolved` if the host resolves to none,
    :class:`NotAllowed` if to any address that is not public (unless ``allow_private``)."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Unresolved(UNRESOLVED, host=target.host) from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise Unresolved(UNRESOLVED, host=target.host)
    if not allow_private:
        for address in addresses:
            if not is_public(address):
                raise NotAllowed(
                    N_(
                        "The host {host} resolves to a private or reserved address "
                        "({address}); webhooks only reach public addresses."
                    ),
                    host=target.host,
                    address=address,
                )
    return addresses[0]


def is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        # an IPv6 address that carries an IPv4 one (mapped, 6to4, NAT64) goes where it does
        embedded = ip.ipv4_mapped or ip.sixtofour
        if ip in NAT64:
            embedded = ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
        ip = embedded or ip
    return not (
        ip.is_private
        or ip.is_loopback
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
        or (isinstance(ip, ipaddress.IPv4Address) and ip in ipaddress.ip_network("100.64.0.0/10"))
    )


class _Pinned(http.client.HTTPConnection):
    """Connects to the checked address, not to the name again."""

    def __init__(self, address: str, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self.address = address

    def connect(self) -> None:
        self.sock = socket.create_connection((self.address, self.port), self.timeout)


class _PinnedTLS(http.client.HTTPSConnection):
    def __init__(self, address: str, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout,
                         context=ssl.create_default_context())  # fmt: skip
        self.address = address

    def connect(self) -> None:
        sock = socket.create_connection((self.address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(url: str, body: bytes, headers: dict[str, str], timeout: float,
         allow_private: bool) -> int:  # fmt: skip
    """POST ``body`` to ``url``: the response's status code. :class:`NotAllowed` for a URL
    or address the server will not call; ``OSError`` for a network failure, a timeout or
    a name that does not resolve now."""
    target = check_url(url, allow_private)
    address = resolve(target, allow_private)
    kind = _PinnedTLS if target.scheme == "https" else _Pinned
    connection = kind(address, target, timeout)
    try:
        connection.request("POST", target.path, body=body, headers={
            **headers, "Content-Type": "application/json", "User-Agent": "hanabi-webhooks"})  # fmt: skip
        response = connection.getresponse()
        response.read(4096)
        return response.status
    except http.client.HTTPException as exc:
        raise OSError(f"bad HTTP answer: {type(exc).__name__}") from None
    finally:
        connection.close()
