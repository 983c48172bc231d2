"""Timing one call again and again, for the benches run as ``python bench/<name>.py``
(their folder is on ``sys.path``, so they import this as ``timing``)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def timed(fn: Callable[[], Any], n: int) -> list[float]:
    """The wall time of ``n`` calls of ``fn``, in seconds, in call order."""
    out = []
    for _ in range(n):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out
