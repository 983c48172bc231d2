"""Every response says nosniff, and every page (a document a browser could run script in)
has a Content-Security-Policy, no framing and no referrer. The pages are found by asking
every GET rule of the app's URL map, not from a list, so a page added later is checked."""

from __future__ import annotations

import re

from flask import Flask, Response

from hanabi.server import create_app
from hanabi.server.api.headers import DOCUMENTS, STRICT

#: Serving, logs, headers and the launcher are the same on any Redis: run once.

#: What a rule's variable parts are filled with: a plain word, and a file name that a rule
#: serving files from a folder (the web client's, the docs') answers with a page.
FILLERS = ("x", "index.html")


def _urls(app: Flask) -> set[str]:
    urls = set()
    for rule in app.url_map.iter_rules():
        if "GET" not in (rule.methods or ()):
            continue
        for filler in FILLERS:
            urls.add(re.sub(r"<(?:[^:<>]+:)?\w+>", filler, rule.rule))
    return urls


def _page_headers_hold(url: str, response: Response) -> None:
    csp = response.headers.get("Content-Security-Policy", "")
    directives = {}
    for directive in csp.split(";"):
        name, _, value = directive.strip().partition(" ")
        if name:
            directives[name] = value.strip()
    assert "frame-ancestors" in directives and directives["frame-ancestors"] == "'none'", url
    script = directives.get("script-src", directives.get("default-src", ""))
    assert script and "unsafe-inline" not in script and "unsafe-eval" not in script, url
    assert "unsafe-inline" not in directives.get("style-src", ""), url
    assert directives.get("object-src", directives.get("default-src")) in ("'none'",), url
    assert response.headers.get("X-Frame-Options") == "DENY", url
    assert response.headers.get("Referrer-Policy") == "no-referrer", url


def test_every_response_is_nosniff_and_every_page_has_its_guarding_headers(
    app: Flask,
) -> None:
    client = app.test_client()
    pages = []
    for url in sorted(_urls(app)):
        response = client.get(url)
        assert response.headers.get("X-Content-Type-Options") == "nosniff", url
        if response.mimetype in DOCUMENTS:
            pages.append(url)
            _page_headers_hold(url, response)
        response.close()
    # the enumeration did reach the pages: the web client's and the API docs'
    assert {"/", "/api/v1/docs", "/api/v1/docs/", "/api/v1/docs/index.html"} <= set(pages)
    assert "/web/index.html" in pages and "/games/x" in pages


def test_a_page_added_without_thinking_of_headers_gets_the_strict_policy(
    redis_url: str,
) -> None:
    app = create_app({"REDIS_URL": redis_url, "HANABI_BOT_WORKER": 0})
    app.add_url_rule("/new-page", "new_page", lambda: Response("<p>hi</p>", mimetype="text/html"))
    response = app.test_client().get("/new-page")
    assert response.headers["Content-Security-Policy"] == STRICT
    _page_headers_hold("/new-page", response)
    assert response.headers["X-Content-Type-Options"] == "nosniff"


def test_the_docs_page_starts_swagger_ui_from_a_file_not_an_inline_script(app: Flask) -> None:
    client = app.test_client()
    page = client.get("/api/v1/docs").get_data(as_text=True)
    scripts = re.findall(r"<script([^>]*)>(.*?)</script>", page, re.S)
    assert len(scripts) == 3 and all('src="/api/v1/docs/' in a and not b for a, b in scripts)
    assert "<style" not in page and "style=" not in page
    for attributes, _ in scripts:
        src = re.search(r'src="([^"]+)"', attributes)
        assert src is not None
        loaded = client.get(src.group(1))
        assert loaded.status_code == 200 and loaded.mimetype == "text/javascript", src.group(1)
