"""``python -m hanabi.server``: serve the API (see :mod:`hanabi.server.ops.launcher`)."""

from __future__ import annotations

from .ops.launcher import main

if __name__ == "__main__":
    raise SystemExit(main())
