"""The interactive docs in a real browser: Debian's chromium, headless, loads
/api/v1/docs from a real server and renders every operation of openapi.yaml (Swagger UI 5:
the 4.x that flask-restx bundles refused OpenAPI 3.1 with "Unable to render this
definition"), and runs under its Content-Security-Policy without one violation, "Try it
out" included. `make test` installs chromium when it is missing (.ci/ensure-chromium)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml
from process_helpers import _stop, gunicorn

from hanabi.server.api.spec import TITLE, spec_yaml
from hanabi.server.ops.redis_process import free_port

#: Serving, logs, headers and the launcher are the same on any Redis: run once.
pytestmark = pytest.mark.once

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium")
    assert found, "chromium is missing: sudo apt-get update && sudo apt-get install -y chromium"
    return found


def dump_dom(url: str, profile: Path) -> str:
    command = [
        chromium(), *FLAGS, f"--user-data-dir={profile}",
        "--virtual-time-budget=20000", "--dump-dom", url,
    ]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_swagger_ui_lists_every_operation(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": redis_url, "HANABI_BOT_WORKER": "0"})
    try:
        dom = dump_dom(f"http://127.0.0.1:{port}/api/v1/docs", tmp_path / "profile")
    finally:
        _stop(proc)
    assert "Unable to render this definition" not in dom
    assert 'class="swagger-ui' in dom and TITLE in dom
    spec = yaml.safe_load(spec_yaml())
    operations = [
        (op["tags"][0], op["operationId"])
        for item in spec["paths"].values()
        for method, op in item.items()
        if method in ("get", "post", "put", "patch", "delete")
    ]
    assert len(operations) > 10
    missing = [op for op in operations if f'id="operations-{op[0]}-{op[1]}"' not in dom]
    assert not missing, missing
    assert "OAS 3.1" in dom  # Swagger UI 5 read it as OpenAPI 3.1
    for cdn in ("unpkg.com", "cdn.jsdelivr", "cdnjs"):
        assert cdn not in dom


#: Every Content-Security-Policy violation of the page, as the browser reports it.
LISTEN = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(
  [e.effectiveDirective, e.blockedURI, e.sample, e.sourceFile, e.lineNumber].join(" ")));"""


def test_the_docs_run_under_their_policy_and_try_it_out_works(
    redis_url: str, playwright_driver
) -> None:
    """As a newcomer uses the docs: "Try it out" on GET /health, then on POST /games with
    the body Swagger UI offers (it made one up from the schema before, which the server
    refused with 400), and a schema expanded; all without one violation of the page's
    Content-Security-Policy or a console error."""
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": redis_url, "HANABI_BOT_WORKER": "0"})
    errors: list[str] = []
    try:
        browser = playwright_driver.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page()
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
            page.add_init_script(LISTEN)
            response = page.goto(f"http://127.0.0.1:{port}/api/v1/docs")
            assert response is not None
            assert "script-src 'self'" in response.headers["content-security-policy"]
            health = page.locator("#operations-system-getHealth")
            health.locator(".opblock-summary").click()
            health.get_by_role("button", name="Try it out").click()
            health.get_by_role("button", name="Execute").click()
            answer = health.locator(
                ".live-responses-table tr.response td.response-col_status"
            ).first
            answer.wait_for()
            assert answer.inner_text().strip() == "200"  # "Try it out" reached the API

            op = page.locator("#operations-games-createGame")
            op.locator(".opblock-summary").click()
            op.locator("button.try-out__btn").click()
            offered = json.loads(op.locator("textarea.body-param__text").input_value())
            op.locator("button.execute").click()
            created = op.locator(".live-responses-table tr.response")
            status = created.locator(".response-col_status").first.inner_text(timeout=20_000)
            shown = created.locator(".response-col_description pre").first.inner_text()

            schemas = page.locator("section.models .json-schema-2020-12-expand-deep-button")
            schemas.first.click()  # a schema (Problem), expanded all the way
            page.locator("section.models .json-schema-2020-12-property").first.wait_for()
            page.wait_for_timeout(300)
            violations = page.evaluate("window.violations")
        finally:
            browser.close()
    finally:
        _stop(proc)
    assert status.strip() == "201", shown
    assert offered["name"] and json.loads(shown)["game"]["status"] == "lobby"
    assert violations == [] and errors == [], (violations, errors)
