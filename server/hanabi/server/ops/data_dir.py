"""The embedded Redis's data directory (``--data``): private to its owner, used by one
launcher at a time, and home of the Redis password when Redis listens on TCP.

Why: the directory holds the append-only file (every seed and hand) and the unix socket
that reaches the live Redis. Mode 0700 keeps other local users out of both. Two launchers
on one directory would run two redis-servers appending to the same file; the lock (an
``flock`` held by the launcher and inherited by its redis-server) makes the second refuse.
"""

from __future__ import annotations

import fcntl
import os
import secrets
from pathlib import Path

__all__ = ["DataDirBusy", "DataDirLock", "make_private", "password", "process_line"]

#: The lock file in the data directory; it holds the launcher's pid.
LOCK_NAME = "launcher.lock"
#: The password file (mode 0600) of an embedded Redis that listens on TCP.
PASSWORD_NAME = "redis.password"


def make_private(directory: str | os.PathLike[str]) -> Path:
    """Create ``directory`` (and its parents) if needed and make it mode 0700; return its
    absolute path. An existing directory from an older version is tightened too."""
    path = Path(directory).resolve()
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    os.chmod(path, 0o700)
    return path


def password(directory: Path) -> str:
    """The Redis password of ``directory``: read from its password file, or drawn at random
    (256 bits) and written there with mode 0600 the first time. It never changes after, so
    a restarted Redis and its clients agree."""
    path = directory / PASSWORD_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        os.chmod(path, 0o600)
        secret = path.read_text().strip()
        if secret:
            return secret
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC)
    secret = secrets.token_urlsafe(32)
    with os.fdopen(fd, "w") as out:
        out.write(secret + "\n")
    return secret


class DataDirBusy(Exception):
    """Another launcher (or the redis-server it left running) holds the data directory."""


class DataDirLock:
    """An exclusive ``flock`` on the data directory's lock file, held while this object is
    acquired. Pass :attr:`fd` to the redis-server child (``pass_fds``) so that the lock
    lasts as long as that Redis does, even if the launcher is killed without cleaning up."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.path = directory / LOCK_NAME
        self.fd: int | None = None

    def acquire(self) -> DataDirLock:
        """Take the lock and write our pid in the file, or raise :class:`DataDirBusy` with a
        sentence naming the directory and the pid that holds it."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)  # no O_TRUNC: the holder's pid
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 64, 0).decode(errors="replace").strip()
            os.close(fd)
            raise DataDirBusy(self._busy_sentence(holder)) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self.fd = fd
        return self

    def release(self) -> None:
        """Let go of the lock (the file stays: removing it would race a new launcher)."""
        fd, self.fd = self.fd, None
        if fd is not None:
            os.close(fd)

    def _busy_sentence(self, holder: str) -> str:
        where = f"The data directory {self.directory} is already in use"
        advice = "stop it first, or give this server another --data (HANABI_DATA)."
        if not holder.isdigit():
            return f"{where} by another hanabi server; {advice}"
        line = process_line(int(holder))
        if line is None:
            return (
                f"{where}: the redis-server started by process {holder} (which has exited) "
                f"still runs there; {advice}"
            )
        return f"{where} by process {holder} ({line}); {advice}"


def process_line(pid: int) -> str | None:
    """The command line of a running process (shortened), or None if it is gone."""
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return None
    line = raw.replace(b"\0", b" ").decode(errors="replace").strip()
    if not line:  # a zombie, or a kernel thread: no command line
        return None
    return line if len(line) <= 160 else line[:157] + "..."
