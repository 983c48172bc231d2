"""Timing one call again and again, and the percentiles every bench reports, for the
benches run as ``python bench/<name>.py`` (their folder is on ``sys.path``, so they import
this as ``timing``)."""

from __future__ import annotations

import statistics
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


def percentile(values: list[float], q: float) -> float:
    """The ``q`` quantile (0.99 for p99) by nearest rank: the value with a share ``q`` of
    the samples below it. NaN for no samples."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def p50_p99(values: list[float]) -> tuple[float, float]:
    """The median and the p99 of ``values``, in their unit."""
    return statistics.median(values), percentile(values, 0.99)
