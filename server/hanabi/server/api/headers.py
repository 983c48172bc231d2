"""Headers that guard every response: ``X-Content-Type-Options: nosniff`` on all of them, and
on every document a browser may run script in (an HTML page, an SVG image) a
Content-Security-Policy, no framing and no referrer.

A page sets its own policy with :func:`secure` (the web client's, the docs'); :func:`install`
gives every other document of the app :data:`STRICT` (nothing runs, nothing loads), so a
page added without thinking of it is guarded all the same.
"""

from __future__ import annotations

from flask import Flask, Response

#: Nothing runs and nothing loads: the policy of a document that did not set one.
STRICT = "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
#: Types a browser renders as a document that may hold script.
DOCUMENTS = frozenset({"text/html", "application/xhtml+xml", "image/svg+xml", "text/xml"})


def secure(response: Response, csp: str) -> Response:
    """``response`` with the page headers and the policy ``csp``."""
    response.headers["Content-Security-Policy"] = csp
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


def guard(response: Response) -> Response:
    """nosniff on every response; the page headers (with :data:`STRICT` unless it has a
    policy of its own) on every document."""
    headers = response.headers
    headers["X-Content-Type-Options"] = "nosniff"
    if response.mimetype in DOCUMENTS:
        headers.setdefault("Content-Security-Policy", STRICT)
        headers.setdefault("X-Frame-Options", "DENY")
        headers.setdefault("Referrer-Policy", "no-referrer")
    return response


def install(app: Flask) -> None:
    app.after_request(guard)
