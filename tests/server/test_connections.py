"""Slowloris guards on real servers (gunicorn, the project's gevent worker, as `make run`):
a cap on the connections one address holds per worker, a deadline for a request's headers,
and /health fast while one address opens thousands of idle sockets.

The clients here choose their source address on the loopback (127.0.0.1, .2, .3 are all
this machine), so that the one that floods and the one that measures are different
addresses, and a proxy can be told apart from its clients.
"""

from __future__ import annotations

import http.client
import json
import selectors
import socket
import struct
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from process_helpers import API, Http, _stop, gunicorn

from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import raise_open_files

#: Serving, logs, headers and the launcher are the same on any Redis: run once.
pytestmark = pytest.mark.serial

#: SO_LINGER on, 0 s: the test's own sockets close with a reset and leave no TIME_WAIT.
RESET = struct.pack("ii", 1, 0)


def _server(redis_url: str, workers: int, **settings: str) -> Iterator[int]:
    port = free_port()
    env = {"REDIS_URL": redis_url, "HANABI_LIMITS": "on", **settings}
    proc = gunicorn(port, env, workers=workers)
    try:
        yield port
    finally:
        _stop(proc)


def _connect(port: int, source: str) -> socket.socket:
    """A connection from ``source`` that has sent nothing yet."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
    return sock


def _closed_within(sock: socket.socket, seconds: float) -> bool:
    """Whether the server closes ``sock`` (end of input or a reset) within ``seconds``;
    the server never sends these connections anything unasked."""
    with selectors.DefaultSelector() as selector:
        selector.register(sock, selectors.EVENT_READ)
        if not selector.select(seconds):
            return False
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def _get(
    port: int, path: str, source: str = "127.0.0.1", **headers: str
) -> tuple[int, dict[str, str], Any]:
    """One GET on a new connection from ``source``: status, headers, JSON body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    try:
        conn.request("GET", API + path, headers=headers)
        response = conn.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), json.loads(raw) if raw else None
    finally:
        conn.close()


def _game(port: int) -> tuple[str, str, str]:
    """A started two-player game: its id, the first seat's token, a spectator's ETag."""
    client = Http(port)
    _, _, created = client("POST", "/games", {"name": "a", "seed": "conn"})
    gid = created["id"]
    client("POST", f"/games/{gid}/players", {"name": "b"})
    assert client("POST", f"/games/{gid}/start", token=created["token"])[0] == 200
    _, headers, _ = client("GET", f"/games/{gid}")
    return gid, created["token"], headers["ETag"]


# -- the header deadline ----------------------------------------------------------------


@pytest.fixture(scope="module")
def quick(redis_url: str) -> Iterator[int]:
    """A server that gives clients 1 s for a request's headers (127.0.0.3 is a proxy)."""
    yield from _server(
        redis_url,
        1,
        HANABI_HEADER_TIMEOUT="1",
        HANABI_TRUSTED_PROXIES="127.0.0.3",
        HANABI_KEEPALIVE="0.5",
    )


def test_a_client_that_sends_nothing_or_dribbles_is_closed_at_the_header_deadline(
    quick: int,
) -> None:
    silent = _connect(quick, "127.0.0.1")
    start = time.monotonic()
    assert _closed_within(silent, 5)
    assert 0.8 <= time.monotonic() - start < 4

    dribbler = _connect(quick, "127.0.0.1")
    dribbler.sendall(f"GET {API}/health HTTP/1.1\r\nHost: test\r\n".encode())
    start, closed = time.monotonic(), False
    while not closed and time.monotonic() - start < 5:
        try:
            dribbler.sendall(b"X-Slow: a\r\n")  # a byte or so every 0.1 s: never done
        except OSError:
            closed = True
            break
        closed = _closed_within(dribbler, 0.1)
    assert closed and 0.8 <= time.monotonic() - start < 4

    # A kept-alive connection, idle after its answer, has the same deadline.
    kept = Http(quick)
    assert kept("GET", "/health")[0] == 200
    assert kept.conn.sock is not None
    start = time.monotonic()
    assert _closed_within(kept.conn.sock, 5)
    assert 0.8 <= time.monotonic() - start < 4


def test_a_trusted_proxy_keeps_its_idle_connections_past_the_header_deadline(quick: int) -> None:
    pooled = _connect(quick, "127.0.0.3")
    assert not _closed_within(pooled, 2.5)
    pooled.sendall(f"GET {API}/health HTTP/1.1\r\nHost: test\r\n\r\n".encode())
    assert pooled.recv(65536).startswith(b"HTTP/1.1 200")


def test_long_polls_and_streams_outlast_the_header_deadline(quick: int) -> None:
    gid, token, etag = _game(quick)
    events = b""
    streaming = threading.Event()

    def read_stream() -> None:
        nonlocal events
        conn = http.client.HTTPConnection("127.0.0.1", quick, timeout=10)
        conn.request("GET", f"{API}/games/{gid}/stream", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        if response.status == 200:
            streaming.set()
        while b"event: clue" not in events:
            chunk = response.read1(65536)
            if not chunk:
                break
            events += chunk
        conn.close()

    reader = threading.Thread(target=read_stream)
    reader.start()
    assert streaming.wait(5)

    client = Http(quick)
    start = time.monotonic()
    status, _, _ = client("GET", f"/games/{gid}?wait=3", **{"If-None-Match": etag})
    assert status == 304 and time.monotonic() - start >= 2.5  # held 3 s, past the deadline
    assert client("GET", "/health")[0] == 200  # the same connection serves the next request

    view = client("GET", f"/games/{gid}", token=token)[2]
    clue = {"turn": 0, "type": "clue", "target": 1, "rank": view["hands"][1][0]["rank"]}
    assert client("POST", f"/games/{gid}/actions", clue, token=token)[0] == 201
    reader.join(10)
    assert b"event: clue" in events  # the stream, open 3 s and more, still followed the game
    assert events.count(b": keep-alive") >= 2  # and got its keep-alive comments meanwhile


# -- the cap per address ----------------------------------------------------------------


@pytest.fixture(scope="module")
def capped(redis_url: str) -> Iterator[int]:
    """A server allowing 3 connections per address; 127.0.0.1 is a trusted proxy."""
    yield from _server(
        redis_url,
        1,
        HANABI_MAX_CONNECTIONS_PER_ADDRESS="3",
        HANABI_TRUSTED_PROXIES="127.0.0.1",
        HANABI_HEADER_TIMEOUT="30",
        HANABI_KEEPALIVE="0.5",
    )


def test_over_the_cap_a_new_connection_is_closed_at_once(capped: int) -> None:
    held = [_connect(capped, "127.0.0.2") for _ in range(3)]
    refused = _connect(capped, "127.0.0.2")
    assert _closed_within(refused, 3)
    assert not any(_closed_within(sock, 0.2) for sock in held)
    assert _get(capped, "/health", "127.0.0.4")[0] == 200  # other addresses are served
    held.pop().close()  # one fewer: the address may open one again
    deadline = time.monotonic() + 5
    while _closed_within(again := _connect(capped, "127.0.0.2"), 0.5):
        assert time.monotonic() < deadline, "the closed connection was never released"
    for sock in [*held, again]:
        sock.close()


def test_behind_a_trusted_proxy_the_forwarded_address_is_counted(capped: int) -> None:
    gid, _, _ = _game(capped)
    # The proxy's own connections are not capped by its address.
    pooled = [_connect(capped, "127.0.0.1") for _ in range(6)]
    assert not any(_closed_within(sock, 0.3) for sock in pooled)

    client = {"X-Forwarded-For": "203.0.113.7"}
    streams = []
    for _ in range(3):  # three event streams of one client, each open once its headers are
        conn = http.client.HTTPConnection("127.0.0.1", capped, timeout=10)
        conn.request("GET", f"{API}/games/{gid}/stream", headers=client)
        assert conn.getresponse().status == 200
        streams.append(conn)
    status, headers, body = _get(capped, "/health", **client)
    assert status == 429, (status, body)
    assert headers["Content-Type"] == "application/problem+json"
    assert body["code"] == "too_many_connections" and body["status"] == 429 and body["detail"]
    assert int(headers["Retry-After"]) > 0
    # Answered before the app sees the request, yet in the reader's language, saying so.
    status, headers, body = _get(capped, "/health", **client, **{"Accept-Language": "ru"})
    assert (status, body["code"], body["title"]) == (
        429,
        "too_many_connections",
        "Слишком много запросов",
    )
    assert body["detail"].startswith("С этого адреса открыто слишком много соединений"), body[
        "detail"
    ]
    assert headers["Content-Language"] == "ru" and headers["Vary"] == "Accept-Language"
    assert (
        _get(capped, "/health", **client, **{"Accept-Language": "zh-CN"})[2]["title"] == "请求过多"
    )
    post = http.client.HTTPConnection("127.0.0.1", capped, timeout=10)
    body = json.dumps({"name": "c"}).encode()
    post.request("POST", f"{API}/games", body, {**client, "Content-Type": "application/json"})
    assert post.getresponse().status == 429  # a request with a body is refused whole too
    post.close()
    # Another client behind the same proxy is served; so is a client that is not behind
    # the proxy and names the capped address itself: its header is not believed.
    assert _get(capped, "/health", **{"X-Forwarded-For": "203.0.113.8"})[0] == 200
    assert _get(capped, "/health", "127.0.0.5", **client)[0] == 200
    streams.pop().close()  # the server notices at its next keep-alive comment (0.5 s)
    deadline = time.monotonic() + 5
    while _get(capped, "/health", **client)[0] == 429:
        assert time.monotonic() < deadline, "the ended stream still counted"
        time.sleep(0.2)
    for conn in streams:
        conn.close()
    for sock in pooled:
        sock.close()


# -- thousands of idle sockets ----------------------------------------------------------


class IdleSockets:
    """Non-blocking connections from 127.0.0.1 that send nothing; those the server closed
    are noticed (readable: end of input or a reset) and dropped."""

    def __init__(self) -> None:
        self.selector = selectors.DefaultSelector()
        self.open: set[socket.socket] = set()

    def connect(self, port: int, n: int) -> None:
        for _ in range(n):
            sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            sock.setblocking(False)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, RESET)
            sock.connect_ex(("127.0.0.1", port))
            self.selector.register(sock, selectors.EVENT_READ)
            self.open.add(sock)
            if len(self.open) % 500 == 0:
                self.reap(0)

    def reap(self, timeout: float) -> int:
        """Drop the sockets the server closed within ``timeout`` s; how many were."""
        closed = 0
        for key, _ in self.selector.select(timeout):
            sock = key.fileobj
            assert isinstance(sock, socket.socket)
            self.selector.unregister(sock)
            self.open.discard(sock)
            sock.close()
            closed += 1
        return closed

    def settle(self, quiet: float = 1.0, limit: float = 40.0) -> None:
        """Reap until ``quiet`` seconds pass with no socket closed (at most ``limit`` s)."""
        deadline = time.monotonic() + limit
        while self.reap(quiet) and time.monotonic() < deadline:
            pass

    def close(self) -> None:
        for sock in self.open:
            sock.close()
        self.selector.close()


@pytest.fixture(scope="module")
def flooded(redis_url: str) -> Iterator[int]:
    """The defaults (256 connections per address and worker), two workers, and a header
    deadline long enough that the held sockets stay held while /health is timed."""
    yield from _server(redis_url, 2, HANABI_HEADER_TIMEOUT="60")


@pytest.fixture
def full_size(request: pytest.FixtureRequest) -> None:
    if "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("the full 10,000-socket run: pytest -m slow")


HEALTH = f"GET {API}/health HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n".encode()


def _health_ms(port: int) -> float:
    """Milliseconds for GET /health on a new connection from 127.0.0.2 (a raw socket: the
    client shares the machine's two cores with the server, so it spends little)."""
    start = time.perf_counter()
    with socket.create_connection(("127.0.0.1", port), 10, ("127.0.0.2", 0)) as sock:
        sock.sendall(HEALTH)
        raw = b""
        while chunk := sock.recv(65536):
            raw += chunk
    assert raw.startswith(b"HTTP/1.1 200"), raw[:100]
    return (time.perf_counter() - start) * 1000


def _p50_p99(port: int, n: int = 200) -> tuple[float, float]:
    times = sorted(_health_ms(port) for _ in range(n))
    return times[n // 2], times[n * 99 // 100 - 1]


def _flood(port: int, sockets: int) -> None:
    cap, workers = 256, 2
    soft, _ = raise_open_files(sockets + 1024)
    assert soft >= sockets + 100, f"open-files limit {soft}: too low for this test"
    for _ in range(10):  # warm both workers
        _health_ms(port)
    before = _p50_p99(port)
    idle = IdleSockets()
    try:
        idle.connect(port, sockets)
        idle.settle()
        held = len(idle.open)
        assert cap <= held <= workers * cap, held  # the rest refused: at most the cap each
        # The figure: p99 <= 100 ms. Other tests share this machine's two cores; a
        # round they slowed down is measured again (at most three rounds, all reported).
        rounds = [_p50_p99(port)]
        while rounds[-1][1] > 100 and len(rounds) < 3:
            rounds.append(_p50_p99(port))
        assert rounds[-1][1] <= 100, f"(p50, p99) ms: {rounds}; without idle sockets {before}"
        idle.connect(port, 300)  # later ones: refused too
        idle.settle()
        assert held <= len(idle.open) <= workers * cap
    finally:
        idle.close()
    deadline = time.monotonic() + 5  # the workers see the resets and release the address
    while _closed_within(again := _connect(port, "127.0.0.1"), 0.5):
        assert time.monotonic() < deadline, "the address stayed counted after it closed"
    again.close()


def test_health_stays_fast_while_one_address_opens_3000_idle_sockets(flooded: int) -> None:
    _flood(flooded, 3000)


@pytest.mark.slow
def test_health_stays_fast_while_one_address_opens_10000_idle_sockets(
    flooded: int, full_size: None
) -> None:
    _flood(flooded, 10_000)
