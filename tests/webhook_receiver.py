"""A webhook's receiving end for the tests: a real HTTP server on 127.0.0.1 (the tests
that use it let the server call loopback: HANABI_WEBHOOK_PRIVATE=on)."""

from __future__ import annotations

import select
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class Receiver:
    """A real HTTP server on 127.0.0.1 that records what it is sent and answers with the
    statuses it is told (then 200), after ``delay`` seconds."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, str], bytes, float]] = []
        self.answers: list[int] = []
        self.delay = 0.0
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.rfile.read(int(self.headers["Content-Length"]))
                receiver.calls.append((dict(self.headers), body, time.monotonic()))
                time.sleep(receiver.delay)
                status = receiver.answers.pop(0) if receiver.answers else 200
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def wait(self, count: int, within: float = 5.0) -> list[tuple[dict[str, str], bytes, float]]:
        began = time.monotonic()
        while len(self.calls) < count:
            assert time.monotonic() - began < within, f"{len(self.calls)} calls, not {count}"
            time.sleep(0.02)
        return self.calls


class DripReceiver:
    """A receiver that answers as an attacker's would: it reads the request, then sends
    its answer's head one byte every ``every`` seconds, never ending it (each byte comes
    well within a per-read timeout). Real sockets on 127.0.0.1; it keeps when each call
    began and when the caller hung up (``held``), and stops dripping at :meth:`close`."""

    def __init__(self, every: float, tls_like: bool = False) -> None:
        self.every = every
        self.tls_like = tls_like  # drip what looks like the start of a TLS record
        self.held: list[list[float]] = []  # [began, hung up (inf while held)]
        self.closed = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        port = self.listener.getsockname()[1]
        self.url = f"{'https' if tls_like else 'http'}://127.0.0.1:{port}/hook"
        threading.Thread(target=self._accept, daemon=True).start()

    def most_at_once(self, overlap: float = 0.1) -> int:
        """The most calls held at once (two that overlap by less than ``overlap`` seconds,
        one hanging up as the next connects, are not counted together)."""
        spans = [(began, end - overlap) for began, end in self.held]
        return max((sum(b <= began < e for b, e in spans) for began, _ in spans), default=0)

    def _accept(self) -> None:
        while not self.closed.is_set():
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return
            span = [time.monotonic(), float("inf")]
            self.held.append(span)
            threading.Thread(target=self._drip, args=(conn, span), daemon=True).start()

    def _drip(self, conn: socket.socket, span: list[float]) -> None:
        start = b"\x16\x03\x03\x40\x00" if self.tls_like else b"HTTP/1.1 200 OK\r\nX-Drip: "
        head = start + b"x" * 100_000
        sent = 0
        try:
            while sent < len(head) and not self.closed.is_set():
                ready, _, _ = select.select([conn], [], [], self.every)
                if ready:
                    if not conn.recv(65536):  # the caller hung up
                        break
                    continue  # the request: read, not answered
                conn.sendall(head[sent : sent + 1])
                sent += 1
        except OSError:
            pass  # the caller gave up: what a deadline is for
        finally:
            span[1] = time.monotonic()
            conn.close()

    def close(self) -> None:
        self.closed.set()
        self.listener.close()
