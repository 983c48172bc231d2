"""Requests the server makes to addresses its users give it (webhooks), kept from reaching
what they must not (SSRF).

A URL is checked when it is given (:func:`check_url`) and again at every delivery
(:func:`post`), which resolves the host once, refuses it if any of its addresses is not
public (:func:`is_public`: every block of IANA's special-purpose registries, and anything
outside IPv6's global unicast space), and then connects to the address it checked (not to
a name resolved a second time, which a rebinding DNS could point elsewhere). Every refused
host gets the same sentence (:data:`ADDRESS_REFUSED`), which names neither the host's
addresses nor whether it has any: the answer must not map the server's own network or
DNS. TLS is verified against the URL's host name. Redirects are not followed. The call as
a whole, connecting, TLS and the answer's headers, fits in one deadline
(:mod:`.exchange`). ``allow_private`` (``HANABI_WEBHOOK_PRIVATE=on``) lifts the address
check and allows plain ``http://``: for closed networks and tests only.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from .exchange import Deadline, Phase, Request
from .exchange import post as exchange

MAX_URL = 500

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def _networks(*blocks: str) -> tuple[Network, ...]:
    return tuple(ipaddress.ip_network(block) for block in blocks)


#: IANA's IPv4 special-purpose address registry, each block whole (a few of its blocks
#: are marked globally reachable, anycast services no webhook lives on), and multicast.
SPECIAL_V4 = _networks(
    "0.0.0.0/8",  # this network
    "10.0.0.0/8",  # private
    "100.64.0.0/10",  # shared address space (carrier-grade NAT)
    "127.0.0.0/8",  # loopback
    "169.254.0.0/16",  # link-local (cloud metadata)
    "172.16.0.0/12",  # private
    "192.0.0.0/24",  # IETF protocol assignments
    "192.0.2.0/24",  # documentation (TEST-NET-1)
    "192.31.196.0/24",  # AS112-v4
    "192.52.193.0/24",  # AMT
    "192.88.99.0/24",  # deprecated 6to4 relay anycast
    "192.168.0.0/16",  # private
    "192.175.48.0/24",  # direct delegation AS112 service
    "198.18.0.0/15",  # benchmarking
    "198.51.100.0/24",  # documentation (TEST-NET-2)
    "203.0.113.0/24",  # documentation (TEST-NET-3)
    "224.0.0.0/4",  # multicast
    "240.0.0.0/4",  # reserved
    "255.255.255.255/32",  # limited broadcast
)
#: IANA's IPv6 special-purpose address registry, each block whole, and the blocks the
#: address space registry does not give to global unicast that Python's ``is_global``
#: lets through (site-local above all). The three that carry an IPv4 address are judged
#: by it instead (:data:`CARRIERS`).
SPECIAL_V6 = _networks(
    "::/128",  # unspecified
    "::1/128",  # loopback
    "64:ff9b:1::/48",  # local-use IPv4/IPv6 translation (a network's own NAT64)
    "100::/64",  # discard-only
    "2001::/23",  # IETF protocol assignments (Teredo, benchmarking, ORCHID, AMT...)
    "2001:db8::/32",  # documentation
    "3fff::/20",  # documentation
    "5f00::/16",  # segment routing (SRv6) SIDs
    "fc00::/7",  # unique local
    "fe80::/10",  # link-local
    "fec0::/10",  # site-local (deprecated, still routed inside some networks)
    "ff00::/8",  # multicast
)
#: Global unicast: every other IPv6 address is reserved, local or special.
GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
MAPPED = ipaddress.ip_network("::ffff:0:0/96")  # IPv4-mapped
NAT64 = ipaddress.ip_network("64:ff9b::/96")  # the well-known NAT64 prefix
SIX_TO_FOUR = ipaddress.ip_network("2002::/16")  # 6to4
#: The IPv6 blocks whose addresses carry an IPv4 one, and go where it does.
CARRIERS = (MAPPED, NAT64, SIX_TO_FOUR)


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
#: What every refused host is told, whatever it resolved to (or did not).
ADDRESS_REFUSED = N_("This address cannot receive webhooks: use a public https address.")


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str  # ASCII: an IDNA name's A-labels, or an address
    port: int
    path: str


def check_url(url: str, allow_private: bool) -> Target:
    """The URL's parts if the server may call it; :class:`NotAllowed` if not."""
    if len(url) > MAX_URL:
        raise NotAllowed(N_("The URL may be at most {limit} characters long."), limit=MAX_URL)
    try:
        parts = urlsplit(url)
        port = parts.port
        host = (parts.hostname or "").encode("idna").decode("ascii")
    except (ValueError, UnicodeError):
        raise NotAllowed(N_("That is not a URL.")) from None
    schemes = ("https", "http") if allow_private else ("https",)
    if parts.scheme not in schemes or not host:
        raise NotAllowed(N_("The URL must start with https:// and name a host."))
    if parts.username or parts.password:
        raise NotAllowed(N_("The URL may not hold a user name or password."))
    port = port or (443 if parts.scheme == "https" else 80)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(parts.scheme, host, port, path)


def resolve(target: Target, allow_private: bool) -> str:
    """The address to connect to: :class:`Unresolved` if the host resolves to none,
    :class:`NotAllowed` (:data:`ADDRESS_REFUSED`) if to any address that is not public
    (unless ``allow_private``)."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise Unresolved(UNRESOLVED, host=target.host) from None
    addresses = [str(info[4][0]) for info in infos]
    if not addresses:
        raise Unresolved(UNRESOLVED, host=target.host)
    if not allow_private and not all(is_public(address) for address in addresses):
        raise NotAllowed(ADDRESS_REFUSED)
    return addresses[0]


def is_public(address: str) -> bool:
    """Whether a webhook may be sent to ``address``: not in any special-purpose block; an
    IPv6 address that carries an IPv4 one (mapped, NAT64, 6to4) as that IPv4 address."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        carried = embedded_ipv4(ip)
        if carried is None:
            return (
                ip in GLOBAL_UNICAST
                and not any(ip in block for block in SPECIAL_V6)
                and ip.is_global
            )
        ip = carried
    return not any(ip in block for block in SPECIAL_V4) and ip.is_global


def embedded_ipv4(ip: ipaddress.IPv6Address) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 one carries, for the blocks that carry one."""
    if ip in MAPPED or ip in NAT64:
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    if ip in SIX_TO_FOUR:
        return ipaddress.IPv4Address((int(ip) >> 80) & 0xFFFFFFFF)
    return None


def post(url: str, body: bytes, headers: dict[str, str], allow_private: bool, *,
         deadline: float, connect_timeout: float) -> int:  # fmt: skip
    """POST ``body`` to ``url``: the answer's status code. :class:`NotAllowed` for a URL
    or address the server will not call; :class:`.exchange.DeadlineExceeded` when the
    whole call (resolving, connecting, TLS, sending and the answer's headers) takes more
    than ``deadline`` seconds or connecting more than ``connect_timeout``;
    :class:`Unresolved`, ``ssl.SSLError``, :class:`.exchange.BadAnswer` or another
    ``OSError`` for the network's failures."""
    until = Deadline(deadline)
    target = check_url(url, allow_private)
    address = resolve(target, allow_private)
    until.left(Phase.CONNECT)  # resolving cannot be cut short: it is counted, at least
    request = Request(address, target.port, target.host, target.path,
                      target.scheme == "https", {**headers, "Content-Type": "application/json",
                                                 "User-Agent": "hanabi-webhooks"}, body)  # fmt: skip
    return exchange(request, connect_timeout, until)
