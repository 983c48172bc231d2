"""The web client in a real browser: Debian's chromium driven by Playwright, against a
real server (gunicorn, real Redis) on a port of its own.

Playwright's own browser downloads cannot be reached here, so chromium is launched by
path; `make test` installs it when missing (.ci/ensure-chromium) and this never skips.
Every page fails its test on a console error or an uncaught exception, unless the test
says which refusal it expects the browser to log.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from hanabi.client.api import ApiError, Client
from hanabi.server.redis_process import free_port
from hanabi.server.serving import gunicorn_command

WEB_DB = 8  # a Redis database of its own: no other suite's cleanup touches these games


def chromium_path() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    assert os.path.exists(found), (
        "chromium is missing (the web client's tests need it); run:\n"
        "  sudo apt-get update && sudo apt-get install -y chromium"
    )
    return found


@dataclass
class WebServer:
    url: str
    proc: subprocess.Popen[bytes]

    def api(self) -> Client:
        return Client(self.url, retries=1, backoff=0.05)


@pytest.fixture(scope="session")
def web_server(redis_url: str) -> Iterator[WebServer]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "REDIS_URL": re.sub(r"/\d*$", f"/{WEB_DB}", redis_url)}
    if "HANABI_TEST_REDIS" in os.environ:  # a cluster has database 0 only
        env["REDIS_URL"] = redis_url
    proc = subprocess.Popen(
        gunicorn_command(f"127.0.0.1:{port}", 2, log_level="warning"),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    client = Client(url, retries=0)
    deadline = time.monotonic() + 20
    while True:
        try:
            client.health()
            break
        except ApiError:
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
            assert time.monotonic() < deadline, "the server did not answer /health in 20 s"
            time.sleep(0.05)
    yield WebServer(url, proc)
    os.killpg(proc.pid, 9)
    proc.wait()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path(), headless=True)
        yield b
        b.close()


@dataclass
class Browsing:
    """New browser contexts (each a separate person: its own storage) whose pages fail the
    test on a console error or an uncaught exception."""

    browser: Browser
    base: str
    contexts: list[BrowserContext] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    allowed: list[re.Pattern[str]] = field(default_factory=list)

    def person(self, width: int = 1200, height: int = 900) -> Page:
        context = self.browser.new_context(base_url=self.base, viewport={"width": width, "height": height})
        context.set_default_timeout(15000)
        self.contexts.append(context)
        return self.watch(context.new_page())

    def watch(self, page: Page) -> Page:
        page.on("console", lambda m: self._console(m.type, m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        page.on("dialog", lambda d: (self.errors.append(f"dialog: {d.message}"), d.dismiss()))
        return page

    def allow(self, pattern: str) -> None:
        """A console error the test provokes on purpose (a refusal the browser logs)."""
        self.allowed.append(re.compile(pattern))

    def _console(self, kind: str, text: str) -> None:
        if kind == "error" and not any(p.search(text) for p in self.allowed):
            self.errors.append(f"console: {text}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def web(browser: Browser, web_server: WebServer) -> Iterator[Browsing]:
    browsing = Browsing(browser, web_server.url)
    yield browsing
    browsing.close()
    assert not browsing.errors, "the page logged errors:\n" + "\n".join(browsing.errors)


Check = Callable[[], bool]


def wait_until(check: Check, timeout: float = 15.0, what: str = "the page") -> None:
    deadline = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)
