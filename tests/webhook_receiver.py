"""A webhook's receiving end for the tests: a real HTTP server on 127.0.0.1 (the tests
that use it let the server call loopback: HANABI_WEBHOOK_PRIVATE=on)."""

from __future__ import annotations

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
