"""What a resource reaches from the app that serves it: the game service's parts (the
composition's :class:`~hanabi.server.table.services.Services`), the limits, and the waits
that count against both."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from flask import current_app

from ..table.refusals import Refused
from ..table.services import Services
from .credentials import still_valid
from .ratelimits import LAPSE, Limits


def services() -> Services:
    return current_app.extensions["hanabi"]


def limits() -> Limits:
    return current_app.extensions["hanabi_limits"]


def address() -> str:
    """The client's address: the connection's, or X-Forwarded-For's behind a proxy named in
    HANABI_TRUSTED_PROXIES (see :mod:`hanabi.server.api.ratelimits`)."""
    return limits().address()


def hit_per_address(name: str) -> None:
    """Count one request of kind ``name`` against the client's address (429 past it)."""
    lim = limits()
    lim.hit(name, lim.address())


@contextmanager
def holding(wait: float) -> Iterator[None]:
    """Count this request as a waiting one while the block runs: against this process's
    cap (503 ``too_many_waiters``) and its address's (429 ``too_many_waiting``)."""
    release = services().reads.hold()
    try:
        held = limits().hold_waiting(lapse=wait + LAPSE)
    except Refused:
        release()
        raise
    try:
        yield
    finally:
        release()
        if held is not None:
            held(0)
    still_valid()  # the account credential may have ended while the request waited
