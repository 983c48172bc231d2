"""``hanabi-client``: create, list, join, watch, export and replay games from a terminal,
and seat bots that play through the same API (``hanabi-client bot``).

Every command takes ``--server URL`` (default ``$HANABI_SERVER``, else
http://127.0.0.1:8000) and ``--json`` (machine-readable output: one JSON document, or one
JSON object per line at a table). Each command is a module here; :mod:`.entry` builds the
argument tree from them and runs the one chosen.
"""

from .entry import build_parser, main

__all__ = ["build_parser", "main"]
