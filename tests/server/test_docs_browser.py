"""The interactive docs in a real browser: Debian's chromium, headless, loads
/api/v1/docs from a real server and renders every operation of openapi.yaml (Swagger UI 5:
the 4.x that flask-restx bundles refused OpenAPI 3.1 with "Unable to render this
definition"), and runs under its Content-Security-Policy without one violation, "Try it
out" included. `make test` installs chromium when it is missing (.ci/ensure-chromium)."""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field

import pytest
import yaml
from playwright.sync_api import Page
from process_helpers import _stop, gunicorn

from hanabi.server.api.spec import TITLE, spec_yaml
from hanabi.server.ops.redis_process import free_port

#: Serving, logs, headers and the launcher are the same on any Redis: run once.

FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium")
    assert found, "chromium is missing: sudo apt-get update && sudo apt-get install -y chromium"
    return found


#: Every Content-Security-Policy violation of the page, as the browser reports it.
LISTEN = """window.violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.violations.push(
  [e.effectiveDirective, e.blockedURI, e.sample, e.sourceFile, e.lineNumber].join(" ")));"""


@dataclass
class Docs:
    """The docs page loaded once for this file (one server, one browser: Swagger UI takes
    seconds to draw 100 operations), with what the browser reported since."""

    page: Page
    csp: str
    errors: list[str] = field(default_factory=list)


@pytest.fixture(scope="module")
def docs(redis_url: str, playwright_driver) -> Iterator[Docs]:
    port = free_port()
    proc = gunicorn(port, {"REDIS_URL": redis_url, "HANABI_BOT_WORKER": "0"})
    try:
        browser = playwright_driver.chromium.launch(executable_path=chromium(), args=FLAGS)
        try:
            page = browser.new_page()
            page.set_default_timeout(30_000)
            errors: list[str] = []
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(f"uncaught: {e}"))
            page.add_init_script(LISTEN)
            response = page.goto(f"http://127.0.0.1:{port}/api/v1/docs")
            assert response is not None
            page.locator(".swagger-ui .opblock").first.wait_for()
            yield Docs(page, response.headers["content-security-policy"], errors)
        finally:
            browser.close()
    finally:
        _stop(proc)


def test_swagger_ui_lists_every_operation(docs: Docs) -> None:
    dom = docs.page.content()
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


def test_the_docs_run_under_their_policy_and_try_it_out_works(docs: Docs) -> None:
    """As a newcomer uses the docs: "Try it out" on GET /health, then on POST /games with
    the body Swagger UI offers (it made one up from the schema before, which the server
    refused with 400), and a schema expanded; all without one violation of the page's
    Content-Security-Policy or a console error."""
    page = docs.page
    assert "script-src 'self'" in docs.csp
    health = page.locator("#operations-system-getHealth")
    health.locator(".opblock-summary").click()
    health.get_by_role("button", name="Try it out").click()
    health.get_by_role("button", name="Execute").click()
    answer = health.locator(".live-responses-table tr.response td.response-col_status").first
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
    assert status.strip() == "201", shown
    assert offered["name"] and json.loads(shown)["game"]["status"] == "lobby"
    assert violations == [] and docs.errors == [], (violations, docs.errors)
