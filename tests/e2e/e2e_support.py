"""End-to-end support: a real server (gunicorn, real Redis) on a real port, a proxy that
breaks the network on purpose, and deck helpers.

Nothing is mocked: the client talks HTTP to gunicorn workers that talk to redis-server.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hanabi.client.api import ApiError, Client
from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command

E2E_DB = 7  # a Redis database of its own, so no other suite's cleanup touches these games


class LiveServer:
    """gunicorn serving ``hanabi.server:create_app()`` on a fixed port; can crash and return."""

    def __init__(self, redis_url: str, workers: int = 2) -> None:
        self.redis_url = re.sub(r"/\d*$", f"/{E2E_DB}", redis_url)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.workers = workers
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> LiveServer:
        env = {**os.environ, "REDIS_URL": self.redis_url}
        command = gunicorn_command(f"127.0.0.1:{self.port}", self.workers, log_level="warning")
        self.proc = subprocess.Popen(
            command,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,  # its own process group, so a crash takes the workers too
        )
        client = Client(self.url, retries=0)
        deadline = time.monotonic() + 60  # a loaded machine boots slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with {self.proc.returncode}")
            try:
                client.health()
                return self
            except ApiError:
                time.sleep(0.05)
        self.crash()
        raise RuntimeError("the server did not answer /health in 60 s")

    def crash(self) -> None:
        """Kill the master and its workers at once, as a power cut would."""
        proc, self.proc = self.proc, None
        if proc is None or proc.poll() is not None:
            return
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


# -- a proxy that breaks things on purpose ---------------------------------------------

# decide(phase, method, target) -> what to do. Phases and answers:
#   "request":  "forward" | "refuse" (close at once, nothing reaches the server)
#               | "hold" (keep the connection open, send nothing, until released)
#               | "502" (answer a bare HTML 502 Bad Gateway)
#   "response": "deliver" | "drop" (the server acted; close without its answer)
#               | "hold" (keep the answer until released, then deliver it)
Decide = Callable[[str, str, str], str]


def pass_everything(phase: str, method: str, target: str) -> str:
    return "forward" if phase == "request" else "deliver"


class FaultProxy:
    """An HTTP/1.1 proxy, one request per connection, whose faults a test scripts.

    ``log`` records (method, target, decision) for every request, in order.
    """

    def __init__(self, upstream_port: int) -> None:
        self.upstream = upstream_port
        self.decide: Decide = pass_everything
        self.released = threading.Event()
        self.log: list[tuple[str, str, str]] = []
        self.sock = socket.create_server(("127.0.0.1", 0))
        self.port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def set(self, decide: Decide) -> None:
        self.released.clear()
        self.decide = decide

    def release(self) -> None:
        """Back to passing everything; held connections go on."""
        self.decide = pass_everything
        self.released.set()

    def close(self) -> None:
        self.closed = True
        self.released.set()
        self.sock.close()

    def _accept(self) -> None:
        while not self.closed:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            threading.Thread(target=self._serve, args=(conn,), daemon=True).start()

    def _serve(self, conn: socket.socket) -> None:
        with conn:
            try:
                head, body = _read_request(conn)
            except (OSError, ValueError):
                return
            request_line = head.split(b"\r\n", 1)[0].decode("latin-1")
            method, target, _ = request_line.split(" ", 2)
            decision = self.decide("request", method, target)
            self.log.append((method, target, decision))
            if decision == "refuse":
                return
            if decision == "hold":
                self.released.wait(30)
                return
            if decision == "404":  # a server that knows no such route
                conn.sendall(
                    b"HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n"
                    b"Content-Length: 20\r\nConnection: close\r\n\r\n<h1>Not Found</h1>\r\n"
                )
                return
            if decision == "502":
                conn.sendall(
                    b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
                    b"Content-Length: 22\r\nConnection: close\r\n\r\n<h1>Bad Gateway</h1>\r\n"
                )
                return
            lines = [
                line
                for line in head.split(b"\r\n")
                if not line.lower().startswith((b"connection:", b"keep-alive:"))
            ]
            upstream_head = b"\r\n".join([*lines, b"Connection: close"]) + b"\r\n\r\n"
            try:
                with socket.create_connection(("127.0.0.1", self.upstream), timeout=60) as up:
                    up.sendall(upstream_head + body)
                    answer = b""
                    while chunk := up.recv(65536):
                        answer += chunk
            except OSError:
                return
            decision = self.decide("response", method, target)
            self.log.append((method, target, decision))
            if decision == "drop":
                return
            if decision == "hold":
                self.released.wait(30)
            with contextlib.suppress(OSError):
                conn.sendall(answer)


def _read_request(conn: socket.socket) -> tuple[bytes, bytes]:
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = conn.recv(65536)
        if not chunk:
            raise ValueError("closed before a whole request")
        data += chunk
    head, rest = data.split(b"\r\n\r\n", 1)
    match = re.search(rb"(?im)^content-length:\s*(\d+)", head)
    length = int(match.group(1)) if match else 0
    while len(rest) < length:
        chunk = conn.recv(65536)
        if not chunk:
            break
        rest += chunk
    return head, rest


# -- decks and game helpers ------------------------------------------------------------

SUITS = ("red", "yellow", "green", "blue", "white")
COPIES = (3, 2, 2, 2, 1)


def full_deck(head: list[tuple[str, int]] = ()) -> list[dict[str, Any]]:  # type: ignore[assignment]
    """A no-variant deck starting with ``head``, then the remaining cards in suit order."""
    rest = [(s, r) for s in SUITS for r in range(1, 6) for _ in range(COPIES[r - 1])]
    for card in head:
        rest.remove(card)
    return [{"suit": s, "rank": r} for s, r in [*head, *rest]]


def write_deck(path: Path, deck: list[dict[str, Any]]) -> Path:
    path.write_text(json.dumps(deck))
    return path


# -- hanabi-client processes in pseudo-terminals ---------------------------------------


def client_command() -> list[str]:
    """The installed console script next to this Python, else ``python -m``."""
    script = Path(sys.executable).parent / "hanabi-client"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-m", "hanabi.client.cli"]


def client_env(server_url: str, home: Path, **extra: str) -> dict[str, str]:
    """A clean environment: its own config dir, no colour, a dumb terminal (no escapes)."""
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "HANABI_SERVER": server_url,
        "NO_COLOR": "1",
        "TERM": "dumb",
        "PYTHONIOENCODING": "utf-8",
        "LANG": "C.UTF-8",
    }
    env.update(extra)
    return env


class Terminal:
    """One hanabi-client process in a pseudo-terminal, 120 columns wide."""

    def __init__(self, args: list[str], env: dict[str, str], timeout: float = 15) -> None:
        import pexpect

        command = client_command()
        self.child = pexpect.spawn(
            command[0],
            [*command[1:], *args],
            env=env,
            encoding="utf-8",
            dimensions=(60, 120),
            timeout=timeout,
        )
        self.child.delaybeforesend = None

    def expect(self, pattern: str, timeout: float | None = -1) -> re.Match[str]:
        self.child.expect(pattern, timeout=timeout)
        return self.child.match

    def expect_exact(self, text: str, timeout: float | None = -1) -> None:
        self.child.expect_exact(text, timeout=timeout)

    @property
    def before(self) -> str:
        return self.child.before

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def wait_turn(self, turn: int, mine: bool) -> str:
        """Wait for the table at engine turn ``turn``; returns the text drawn up to the prompt."""
        self.expect(rf"· turn {turn + 1}(?!\d)")
        header = self.child.after
        self.expect_exact("Your move> " if mine else "> ")
        return header + self.child.before

    def end(self, timeout: float = 15) -> int:
        """Wait for the process to exit; its exit status."""
        import pexpect

        self.child.expect(pexpect.EOF, timeout=timeout)
        self.child.close()
        return self.child.exitstatus if self.child.exitstatus is not None else -1

    def kill(self) -> None:
        if self.child.isalive():
            self.child.terminate(force=True)
