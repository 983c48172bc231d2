"""/health while one address holds thousands of idle sockets (slowloris), in one run.

Starts a private redis-server and gunicorn exactly as `make run` serves (gevent workers,
per-address limits on), then:

1. times --requests GETs of /api/v1/health, each on a fresh connection from 127.0.0.2;
2. opens --sockets idle connections from 127.0.0.1 (non-blocking, nothing sent) and waits
   until the server has refused those over its per-address cap;
3. times the same requests again, the idle sockets still open;
4. says how many idle sockets the server still holds.

Prints p50/p99 of both phases. The held sockets would be closed after the header timeout
(HANABI_HEADER_TIMEOUT, 10 s); the run sets it to --header-timeout (60 s) so that they stay
held while /health is timed, the worst case for the server.

    .venv/bin/python bench/idle_sockets.py [--sockets 10000] [--requests 200] [--workers 2]
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import selectors
import socket
import statistics
import struct
import subprocess
import time
from datetime import UTC, datetime

from hanabi.server.ops.redis_process import RedisProcess, free_port
from hanabi.server.ops.serving import gunicorn_command, raise_open_files
from timing import percentile

REQUEST = b"GET /api/v1/health HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n"


def health(port: int, source: str) -> float:
    """Seconds for one GET /health on a new connection from ``source``."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(REQUEST)
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    if not raw.startswith(b"HTTP/1.1 200"):
        raise OSError(f"/health answered {raw[:40]!r}")
    return time.perf_counter() - start


def timed(port: int, n: int) -> list[float]:
    """Sorted times of ``n`` requests; one that fails or takes 10 s counts as infinite."""
    out = []
    for _ in range(n):
        try:
            out.append(health(port, "127.0.0.2"))
        except OSError:
            out.append(math.inf)
    return sorted(out)


def pct(values: list[float], p: float) -> float:
    """The ``p``-th percentile of latencies in seconds, in ms."""
    return percentile(values, p / 100) * 1000


class IdleSockets:
    """Connections from 127.0.0.1 that send nothing; the ones the server closed are noticed
    (readable: end of input or a reset) and dropped."""

    def __init__(self) -> None:
        self.selector = selectors.DefaultSelector()
        self.open: set[socket.socket] = set()

    def connect(self, port: int, n: int) -> None:
        for _ in range(n):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(False)
            s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            s.connect_ex(("127.0.0.1", port))
            self.selector.register(s, selectors.EVENT_READ)
            self.open.add(s)
            if len(self.open) % 500 == 0:
                self.reap(0)

    def reap(self, timeout: float) -> int:
        """Drop the sockets the server closed within ``timeout`` s; how many were."""
        closed = 0
        for key, _ in self.selector.select(timeout):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            self.selector.unregister(s)
            self.open.discard(s)
            s.close()
            closed += 1
        return closed

    def settle(self, quiet: float = 1.0, limit: float = 60.0) -> None:
        """Reap until ``quiet`` seconds pass with no socket closed (at most ``limit`` s)."""
        deadline = time.monotonic() + limit
        while time.monotonic() < deadline and self.reap(quiet):
            pass

    def close(self) -> None:
        for s in self.open:  # SO_LINGER 0: a reset, no TIME_WAIT left behind
            s.close()
        self.selector.close()
        self.open.clear()


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--sockets", type=int, default=10_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--header-timeout", type=float, default=60.0)
    args = parser.parse_args()
    soft, _ = raise_open_files(args.sockets + 1024)
    if soft < args.sockets + 100:
        raise SystemExit(f"open-files limit {soft} is too low for {args.sockets} sockets")

    with RedisProcess() as redis_proc:
        port = free_port()
        env = {
            **os.environ,
            "REDIS_URL": redis_proc.url,
            "HANABI_LIMITS": "on",
            "HANABI_HEADER_TIMEOUT": str(args.header_timeout),
            "HANABI_ACCESS_LOG": "off",
        }
        command = gunicorn_command(f"127.0.0.1:{port}", args.workers, log_level="error")
        server = subprocess.Popen(command, env=env)
        idle = IdleSockets()
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    health(port, "127.0.0.2")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise
                    time.sleep(0.1)
            for _ in range(20):  # warm both workers
                health(port, "127.0.0.2")
            print(
                f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC; {platform.node()}: "
                f"{os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f}; "
                f"{args.workers} gevent workers; {args.requests} requests a phase, each on "
                f"a new connection"
            )
            without = timed(port, args.requests)
            started = time.monotonic()
            idle.connect(port, args.sockets)
            idle.settle()
            settled = time.monotonic() - started
            with_idle = timed(port, args.requests)
            idle.reap(0)
            failed = sum(t == math.inf for t in with_idle)
            print(
                f"without idle sockets   p50 {pct(without, 50):6.2f} ms   "
                f"p99 {pct(without, 99):6.2f} ms   mean {statistics.mean(without) * 1000:6.2f} ms"
            )
            print(
                f"{args.sockets:5d} idle sockets     p50 {pct(with_idle, 50):6.2f} ms   "
                f"p99 {pct(with_idle, 99):6.2f} ms   mean {statistics.mean(with_idle) * 1000:6.2f} ms"
                + (f"   ({failed} failed or timed out after 10 s)" if failed else "")
            )
            print(
                f"idle sockets the server still holds: {len(idle.open)} of {args.sockets} "
                f"(settled {settled:.1f} s after the first was opened)"
            )
        finally:
            idle.close()
            server.terminate()
            server.wait(15)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
