"""Seat tokens saved per game in the user's config directory.

The server shows a seat's token once; saving it lets a crashed or closed terminal come
back to its seat with ``hanabi-client join <id>``. One file per token (named by a hash of
it, since seat numbers move up when someone leaves a lobby), so two terminals of the same
user at the same table never overwrite each other; readable by the user only.

Layout: ``<config>/hanabi-client/seats/<server>/<game id>/<token hash>.json``.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

APP_DIR = "hanabi-client"


@dataclass(frozen=True)
class SavedSeat:
    server: str
    game_id: str
    seat: int
    name: str
    token: str


def config_dir() -> Path:
    """The per-user config directory, as platformdirs would choose it.

    ``XDG_CONFIG_HOME`` wins everywhere when set; otherwise ``%APPDATA%`` on Windows,
    ``~/Library/Application Support`` on macOS and ``~/.config`` elsewhere.
    """
    xdg = os.environ.get("XDG_CONFIG_HOME")
    if xdg and os.path.isabs(xdg):
        base = Path(xdg)
    elif sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    elif sys.platform == "darwin":
        base = Path.home() / "Library" / "Application Support"
    else:
        base = Path.home() / ".config"
    return base / APP_DIR


class TokenStore:
    """Read and write saved seats under one config directory."""

    def __init__(self, root: Path | None = None) -> None:
        self.root = (root or config_dir()) / "seats"

    def _game_dir(self, server: str, game_id: str) -> Path:
        return self.root / _slug(server) / _slug(game_id)

    def save(self, seat: SavedSeat) -> Path:
        directory = self._game_dir(seat.server, seat.game_id)
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        path = directory / _file_name(seat.token)
        write_private(path, asdict(seat))
        return path

    def seats(self, server: str, game_id: str) -> list[SavedSeat]:
        """Every seat saved for this game on this server, by seat number."""
        directory = self._game_dir(server, game_id)
        out = []
        for path in sorted(directory.glob("*.json")) if directory.is_dir() else []:
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                out.append(SavedSeat(**data))
            except (OSError, ValueError, TypeError):
                continue  # a damaged file is as good as none
        return sorted(out, key=lambda s: s.seat)

    def find(self, server: str, game_id: str, name: str | None = None) -> SavedSeat | None:
        """The saved seat to resume: the one ``name`` names (as the table matches names:
        ``Alice`` and ``Ａｌｉｃｅ`` find ``alice``), or the only one saved."""
        seats = self.seats(server, game_id)
        if name is not None:
            return next((s for s in seats if same_name(s.name, name)), None)
        return seats[0] if len(seats) == 1 else None

    def forget(self, seat: SavedSeat) -> None:
        path = self._game_dir(seat.server, seat.game_id) / _file_name(seat.token)
        path.unlink(missing_ok=True)


def same_name(a: str, b: str) -> bool:
    """Whether two players' names are one at a table, as the server tells them apart
    (NFKC, case folded, spaces around ignored): "Ａｌｉｃｅ", "ALICE" and "alice" are."""

    def key(name: str) -> str:
        folded = unicodedata.normalize("NFKC", name).strip().casefold()
        return unicodedata.normalize("NFKC", folded)

    return key(a) == key(b)


def write_private(path: Path, data: dict[str, Any]) -> None:
    """Write ``data`` as JSON readable by the user only (mode 0600), whole or not at all:
    into a file of its own first, then moved over ``path``."""
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        json.dump(data, fh)
    os.replace(tmp, path)


def _file_name(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:20] + ".json"


def _slug(text: str) -> str:
    """A file-name-safe rendering of a server URL or game id."""
    text = re.sub(r"^[a-z]+://", "", text.strip().rstrip("/"))
    return re.sub(r"[^A-Za-z0-9._-]+", "_", text) or "_"
