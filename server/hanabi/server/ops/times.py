"""Time as the service counts and writes it: milliseconds since the epoch (this machine's
clock; the clocks of timed games are Redis's, :mod:`hanabi.server.storage.server_time`),
and one way to write a moment down (:func:`iso`)."""

from __future__ import annotations

import time
from datetime import UTC, datetime


def now_ms() -> int:
    return int(time.time() * 1000)


def iso(ms: int, timespec: str = "milliseconds") -> str:
    """RFC 3339 in UTC, with milliseconds (``timespec``: fewer), so that timestamps sort as
    strings too: ``2026-12-06T20:00:00.000Z``."""
    stamp = datetime.fromtimestamp(ms / 1000, UTC).isoformat(timespec=timespec)
    return stamp.replace("+00:00", "Z")
