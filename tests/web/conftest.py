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
import subprocess
import time
from collections.abc import Iterator

import api_calls
import pytest
from playwright.sync_api import Browser, expect
from web_support import Browsing, WebServer, chromium_path

from hanabi.client.api import ApiError, Client
from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command

WEB_DB = 8  # a Redis database of its own: no other suite's cleanup touches these games
# expect() waits as long as the pages' actions do (Browsing.person: 15 s), not its own 5 s:
# on a loaded 2-core machine a change can take seconds to reach a page (make test runs two
# browsers and their servers at once); a page that never shows it still fails.
expect.set_options(timeout=15_000)


@pytest.fixture(scope="session")
def web_server(redis_url: str) -> Iterator[WebServer]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "REDIS_URL": re.sub(r"/\d*$", f"/{WEB_DB}", redis_url)}
    # Cheap password hashing: a registration is not a measure of argon2 on a busy machine.
    env.update(HANABI_ARGON2_TIME="1", HANABI_ARGON2_MEMORY="1024", HANABI_ARGON2_PARALLELISM="1")
    env["HANABI_WEBHOOK_PRIVATE"] = "on"  # the webhook test's receiver listens on loopback
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
    deadline = time.monotonic() + 60  # a loaded machine boots slowly
    while True:
        try:
            client.health()
            break
        except ApiError:
            assert proc.poll() is None, f"the server exited with {proc.returncode}"
            assert time.monotonic() < deadline, "the server did not answer /health in 60 s"
            time.sleep(0.05)
    yield WebServer(url, proc)
    os.killpg(proc.pid, 9)
    proc.wait()


@pytest.fixture(scope="session")
def browser(playwright_driver) -> Iterator[Browser]:
    b = playwright_driver.chromium.launch(executable_path=chromium_path(), headless=True)
    yield b
    b.close()


@pytest.fixture
def web(browser: Browser, web_server: WebServer) -> Iterator[Browsing]:
    browsing = Browsing(browser, web_server.url)
    yield browsing
    browsing.close()
    assert not browsing.errors, "the page logged errors:\n" + "\n".join(browsing.errors)
    # api.js keeps to the contract: every call the pages made is a documented operation.
    off = {p for call in browsing.calls if (p := api_calls.check(*call)) is not None}
    assert not off, "the page's API calls are off the contract:\n" + "\n".join(sorted(off))
