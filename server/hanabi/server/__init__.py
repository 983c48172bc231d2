"""Flask REST API for Hanabi games: ``create_app(config)`` builds the WSGI app.

Three layers, each importing only the one below it: :mod:`.api` (HTTP), :mod:`.table`
(the game service), :mod:`.storage` (Redis); :mod:`.ops` beside them (settings, logs,
metrics, serving); :mod:`.app` wires them together (docs/architecture.md).

The app is imported only when ``create_app`` is first asked for, so that importing a light
module of this package (its settings, say, from gunicorn's config in the master process)
loads neither Flask nor redis before gunicorn's gevent worker has patched the standard
library.
"""

from __future__ import annotations

from typing import Any

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from .app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
