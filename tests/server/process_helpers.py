"""Helpers for tests that run the server as real processes (imported by module name)."""

from __future__ import annotations

import http.client
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from hanabi.server.ops.serving import gunicorn_command

API = "/api/v1"


class Http:
    """A tiny JSON client on one keep-alive connection."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)

    def __call__(
        self, method: str, path: str, body: Any = None, token: str | None = None, **headers: str
    ) -> tuple[int, dict[str, str], Any]:
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        self.conn.request(method, API + path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, dict(response.getheaders()), json.loads(raw) if raw else None


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"server exited with {proc.returncode}")
        try:
            if Http(port)("GET", "/health")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise RuntimeError("server did not become healthy")


def _stop(proc: subprocess.Popen[bytes]) -> int:
    if proc.poll() is None:
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    return proc.returncode


def gunicorn(port: int, env: dict[str, str], workers: int = 1) -> Any:
    """A gunicorn serving the app on ``port`` with ``env`` added to this environment, as
    ``python -m hanabi.server`` serves it (gevent workers)."""
    command = gunicorn_command(f"127.0.0.1:{port}", workers, log_level="warning")
    proc = subprocess.Popen(command, env={**os.environ, **env})
    try:
        _wait_healthy(port, proc)
    except BaseException:
        _stop(proc)
        raise
    return proc


def launcher(port: int, data: Path) -> tuple[list[str], dict[str, str]]:
    """``python -m hanabi.server`` on ``port`` with its embedded Redis's AOF in ``data``:
    the command and an environment without REDIS_URL."""
    env = {k: v for k, v in os.environ.items() if k != "REDIS_URL"}
    command = [
        sys.executable, "-m", "hanabi.server", "--port", str(port), "--workers", "1",
        "--connections", "100", "--data", str(data),
    ]  # fmt: skip
    return command, env


def run_async(coroutine: Any) -> Any:
    """``asyncio.run`` in a thread of its own: the main thread may hold the Playwright
    driver's event loop (a browser test ran first in this process)."""
    import asyncio
    import threading

    result: dict[str, Any] = {}

    def run() -> None:
        try:
            result["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # re-raised in the caller's thread
            result["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    if "error" in result:
        raise result["error"]
    return result["value"]
