"""Which address a client connects from: the connection's own, or, when the connection
comes from a proxy named in ``HANABI_TRUSTED_PROXIES``, the one that proxy wrote in
``X-Forwarded-For``.

The header is read from the right, skipping trusted proxies, and only when the connection
itself comes from a trusted proxy: a client that sends its own ``X-Forwarded-For``, directly
or through a proxy that appends to it, cannot choose the address it is counted by.

Both the per-address limits of the app (:mod:`hanabi.server.api.ratelimits`) and the
per-address connection cap of the gunicorn worker (:mod:`hanabi.server.ops.worker`) use this
module, so they always agree on who a client is. It imports nothing but the standard
library: gunicorn's master loads the worker class, and with it this module, before the
gevent worker has patched the standard library.
"""

from __future__ import annotations

import ipaddress

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def trusted_networks(setting: str) -> list[Network]:
    """``HANABI_TRUSTED_PROXIES``: comma-separated addresses or networks."""
    return [
        ipaddress.ip_network(part.strip(), strict=False)
        for part in setting.split(",")
        if part.strip()
    ]


def is_trusted(address: str, trusted: list[Network]) -> bool:
    """Whether ``address`` is one of the trusted proxies (False for anything not an IP)."""
    if not trusted:
        return False
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in trusted)


def forwarded_client(remote: str, forwarded_for: str, trusted: list[Network]) -> str:
    """The client's address, given the connection's (``remote``) and the request's
    ``X-Forwarded-For`` (all its values joined by commas; "" if none)."""
    if not is_trusted(remote, trusted):
        return remote
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else remote
