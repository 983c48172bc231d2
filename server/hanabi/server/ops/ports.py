"""Whether the HTTP port is free, and if not, which process listens on it.

The launcher asks before it starts anything (its embedded Redis included): a second
``make run`` on a busy port refuses with one sentence instead of starting a Redis and then
watching gunicorn fail. The process is found through ``/proc`` (Linux; only processes the
user may look at), so the sentence names it when it can and still refuses when it cannot.
"""

from __future__ import annotations

import errno
import socket
from pathlib import Path

from .data_dir import process_line

__all__ = ["busy_port_sentence", "in_use", "listeners"]

#: /proc/net/tcp's state code of a listening socket.
LISTEN = "0A"


def in_use(host: str, port: int) -> bool:
    """True if ``host:port`` cannot be bound because something listens there. The probe
    binds as gunicorn does (SO_REUSEADDR), so a port in TIME_WAIT counts as free."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror:  # an unknown host name: gunicorn says so itself
        return False
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            return exc.errno == errno.EADDRINUSE
    return False


def listeners(port: int) -> list[int]:
    """The pids of the processes holding a socket that listens on TCP ``port`` (any
    address), the parent first when a parent and its children share it (gunicorn)."""
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            rows = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for row in rows:
            fields = row.split()
            if fields[3] == LISTEN and int(fields[1].rsplit(":", 1)[1], 16) == port:
                inodes.add(f"socket:[{fields[9]}]")
    pids = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if any(str(fd.readlink()) in inodes for fd in (entry / "fd").iterdir()):
                pids.append(int(entry.name))
        except OSError:  # gone, or not ours to look at
            continue
    return sorted(pids, key=lambda pid: _parent(pid) in pids)


def _parent(pid: int) -> int:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0
    return int(stat[stat.rindex(")") + 2 :].split()[1])


def busy_port_sentence(host: str, port: int) -> str | None:
    """None if the launcher may bind ``host:port``; else one sentence naming the port and
    the process already there (pid and command line when it can be seen)."""
    if not in_use(host, port):
        return None
    advice = "stop it, or choose another port with --port (HANABI_PORT)."
    for pid in listeners(port):
        line = process_line(pid)
        if line is not None:
            return f"Port {port} on {host} is already in use by process {pid} ({line}); {advice}"
    return f"Port {port} on {host} is already in use by another process; {advice}"
