"""One HTTP/1.1 POST whose every step fits in one total deadline: connecting, the TLS
handshake, sending the request and reading the answer's status and headers together.

Why not ``http.client``: its timeout bounds each socket operation, not the call. A
receiver that sends one byte of its answer every few seconds never lets one read time
out, and held the webhook thread that called it for as long as it liked (issue 45). Here
the socket is non-blocking and every wait is a selector's, for at most what is left of the
deadline; the TLS handshake and each TLS record are driven the same way (a TLS socket's
own timeout, under gevent, restarts at every byte too). The selector is looked up when it
is used, so under gevent's patched standard library (the server's workers) it is gevent's
and the wait lets the other greenlets run.

Only the status is wanted (a webhook's answer has no meaning beyond it): the body is not
read, and the connection is closed after the headers (``Connection: close``).
"""

from __future__ import annotations

import selectors
import socket
import ssl
import string
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from typing import TypeVar
from urllib.parse import quote

T = TypeVar("T")

#: Bytes of an answer's status line and headers read at most.
MAX_HEAD = 16 * 1024


class Phase(StrEnum):
    """Which step of a call was under way when its deadline ran out."""

    CONNECT = "connect"
    TLS = "tls"
    SEND = "send"
    ANSWER = "answer"


class DeadlineExceeded(TimeoutError):
    """The call did not finish within its deadline (or connecting within its own)."""

    def __init__(self, phase: Phase, seconds: float) -> None:
        super().__init__(f"no complete answer within {seconds:g} s (while at {phase})")
        self.phase = phase


class BadAnswer(OSError):
    """What came back is not an HTTP answer (or stopped before its headers ended)."""


class Deadline:
    """The moment a call must be over by."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self.end = time.monotonic() + seconds

    def left(self, phase: Phase) -> float:
        """Seconds left; :class:`DeadlineExceeded` when none are."""
        left = self.end - time.monotonic()
        if left <= 0:
            raise DeadlineExceeded(phase, self.seconds)
        return left


@dataclass(frozen=True)
class Request:
    """Where to send what: ``address`` is the one checked (not resolved again), ``host``
    the URL's (the Host header and, over TLS, the name the certificate must carry)."""

    address: str
    port: int
    host: str
    path: str
    tls: bool
    headers: dict[str, str]
    body: bytes


def post(request: Request, connect_timeout: float, deadline: Deadline) -> int:
    """Send ``request``: the answer's status code. :class:`DeadlineExceeded` past the
    deadline (or past ``connect_timeout`` while connecting), :class:`BadAnswer` for an
    answer that is not HTTP, ``ssl.SSLError`` for a failed handshake, ``OSError`` for the
    rest of the network's failures."""
    wait = min(connect_timeout, deadline.left(Phase.CONNECT))
    try:
        raw = socket.create_connection((request.address, request.port), timeout=wait)
    except TimeoutError:
        raise DeadlineExceeded(Phase.CONNECT, min(connect_timeout, deadline.seconds)) from None
    sock: socket.socket = raw
    try:
        raw.setblocking(False)
        if request.tls:
            context = ssl.create_default_context()
            sock = context.wrap_socket(raw, server_hostname=request.host,
                                       do_handshake_on_connect=False)  # fmt: skip
            _drive(sock, sock.do_handshake, deadline, Phase.TLS)
        payload = _request_bytes(request)
        while payload:
            sent = _drive(sock, partial(sock.send, payload), deadline, Phase.SEND)
            if not sent:  # gevent's non-blocking TLS socket says "wait" with a 0
                _wait(sock, selectors.EVENT_WRITE, deadline, Phase.SEND)
            payload = payload[sent:]
        return _status(sock, deadline)
    finally:
        sock.close()


def _request_bytes(request: Request) -> bytes:
    host = request.host  # ASCII (outbound.check_url: IDNA)
    if ":" in host:  # an IPv6 literal
        host = f"[{host}]"
    if request.port != (443 if request.tls else 80):
        host = f"{host}:{request.port}"
    # spaces, controls and non-ASCII percent-encoded: nothing can end the request line
    path = quote(request.path, safe=string.punctuation)
    lines = [f"POST {path} HTTP/1.1", f"Host: {host}", "Connection: close",
             f"Content-Length: {len(request.body)}"]  # fmt: skip
    for name, value in request.headers.items():
        if "\r" in value or "\n" in value:
            raise ValueError(f"header {name} holds a line break")
        lines.append(f"{name}: {value}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + request.body


def _status(sock: socket.socket, deadline: Deadline) -> int:
    """Read the answer's head: its status (interim 1xx answers are skipped)."""
    head = b""
    while True:
        end = head.find(b"\r\n\r\n")
        if end < 0:
            if len(head) >= MAX_HEAD:
                raise BadAnswer("the answer's headers are too long")
            chunk = _drive(sock, partial(sock.recv, 4096), deadline, Phase.ANSWER)
            if not chunk:
                raise BadAnswer("the connection closed before the answer's headers ended")
            head += chunk
            continue
        status = _parse_status(head[:end])
        if status >= 200:
            return status
        head = head[end + 4 :]  # 100 Continue, 103 Early Hints: the answer follows


def _parse_status(head: bytes) -> int:
    line = head.split(b"\r\n", 1)[0].split(b" ", 2)
    if len(line) < 2 or not line[0].startswith(b"HTTP/1.") or not line[1].isdigit():
        raise BadAnswer("the answer is not HTTP/1")
    status = int(line[1])
    if not 100 <= status <= 599 or len(line[1]) != 3:
        raise BadAnswer("the answer's status is not a status")
    return status


def _drive(sock: socket.socket, step: Callable[[], T], deadline: Deadline, phase: Phase) -> T:
    """Run the non-blocking ``step`` until it stops asking to wait, waiting for the
    socket at most what is left of the deadline each time."""
    while True:
        try:
            return step()
        except (ssl.SSLWantReadError, BlockingIOError) as exc:
            events = selectors.EVENT_READ
            if isinstance(exc, BlockingIOError) and phase is Phase.SEND:
                events = selectors.EVENT_WRITE
        except ssl.SSLWantWriteError:
            events = selectors.EVENT_WRITE
        _wait(sock, events, deadline, phase)


def _wait(sock: socket.socket, events: int, deadline: Deadline, phase: Phase) -> None:
    """Wait until ``sock`` is ready for ``events``, at most what is left of the deadline."""
    with selectors.DefaultSelector() as selector:  # looked up now: gevent's, if patched
        selector.register(sock, events)
        if not selector.select(deadline.left(phase)):
            raise DeadlineExceeded(phase, deadline.seconds)
