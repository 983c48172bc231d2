"""The browser client: one page for every path a person opens, and the files it loads.

The page is plain HTML, CSS and ES modules from ``web/`` (no build step). It talks to the
server only through the public API, like any other front end. ``/``, ``/games/<id>`` and
``/players/<name>`` and ``/replays/<room id>`` (a shared replay) all answer the same page; its router reads the path. A path
that is none of them answers a browser (which asks for HTML) a "not found" page in its
language with a link to the lobby (:func:`not_found`); an API client still gets the
problem+json 404, and so does anything under ``/api/``. The headers
forbid inline script and every origin but this one, so a name or a chat line that holds
markup can never run (the page renders them as text as well).
"""

from __future__ import annotations

from functools import cache
from html import escape
from pathlib import Path

from flask import Blueprint, Response, request, send_from_directory

from ..table.wording import N_, Words
from . import language
from .headers import secure
from .operations import PREFIX

WEB = Path(__file__).parent.parent / "web"

#: No inline script or style, nothing from another origin, no framing.
CSP = "; ".join(
    (
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
    )
)

blueprint = Blueprint("web", __name__)


def _secure(response: Response) -> Response:
    secure(response, CSP)
    # Revalidated on every load (an ETag answers 304): a new server version's page and
    # modules are never mixed with an old cached one.
    response.headers["Cache-Control"] = "no-cache"
    return response


@blueprint.get("/")
@blueprint.get("/games/<game_id>")
@blueprint.get("/players/<username>")
@blueprint.get("/replays/<room_id>")
@blueprint.get("/leaderboards")
@blueprint.get("/seeds/<seed_name>")
@blueprint.get("/history")  # docs/history.md
@blueprint.get("/history/variants/<variant>")
def page(
    game_id: str | None = None,
    username: str | None = None,
    room_id: str | None = None,
    seed_name: str | None = None,
    variant: str | None = None,
) -> Response:
    """The page; its script shows the lobby, a game or a profile by the path. Its few
    words before the script runs (and without it) speak the request's language."""
    tag = language.current()
    response = Response(page_html(tag), mimetype="text/html")
    response.add_etag()
    response.make_conditional(request)
    return _secure(language.label(response, tag))


#: The page's words before its script runs: (the English in web/index.html, its id).
PAGE_WORDS = (
    ("Loading…", N_("Loading…")),
    ('aria-label="Account"', N_("Account")),
)
NOSCRIPT = (
    'This page needs JavaScript. The API is described at <a href="/api/v1/docs">/api/v1/docs</a>.'
)


@cache
def page_html(tag: str) -> bytes:
    """web/index.html in language ``tag``: ``<html lang>``, the words shown while the
    script loads and the ``<noscript>`` text (the script speaks the rest, web/i18n.js)."""
    html = (WEB / "index.html").read_text(encoding="utf-8")
    html = html.replace('<html lang="en">', f'<html lang="{tag}">', 1)
    for english, msgid in PAGE_WORDS:
        said = escape(language.say(msgid, tag))
        html = html.replace(english, english.replace(msgid, said), 1)
    link = '<a href="/api/v1/docs">/api/v1/docs</a>'
    noscript = Words("This page needs JavaScript. The API is described at {link}.", link="{link}")
    said = escape(language.say(noscript, tag)).replace("{link}", link)
    return html.replace(NOSCRIPT, said, 1).encode()


@blueprint.get("/web/<path:name>")
def asset(name: str) -> Response:
    """A module, the style sheet or an icon (404 for anything else)."""
    return _secure(send_from_directory(WEB, name))


@blueprint.get("/rules/<lang>")
def rules(lang: str) -> Response:
    """The rules in a language the page speaks (``en``, ``zh-Hans``, ``ru``), as the Markdown
    text of docs/rules*.md (copied beside the web catalogues by ``make i18n-compile``)."""
    if lang not in ("en", "zh-Hans", "ru"):
        lang = "en"
    response = send_from_directory(WEB / "i18n", f"rules.{lang}.md", mimetype="text/plain")
    response.headers["Content-Language"] = lang
    return _secure(response)


#: What an answer may be, the API's first: a client that says nothing (``*/*``) gets it.
ANSWERS = ("application/problem+json", "application/json", "text/html")

NOT_FOUND_PAGE = """<!doctype html>
<html lang="{lang}">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="color-scheme" content="light dark">
  <title>{title} · Hanabi</title>
  <link rel="icon" href="/web/icon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/web/style.css">
</head>
<body>
  <header class="top"><a class="brand" href="/">Hanabi</a></header>
  <main id="main">
    <h1>{title}</h1>
    <p>{detail}</p>
    <p><a href="/">{home}</a></p>
  </main>
</body>
</html>
"""


def wants_page() -> bool:
    """Whether a 404 should answer a page: a browser's request (it prefers HTML) for a
    path outside the API."""
    if request.path == PREFIX or request.path.startswith(PREFIX + "/"):
        return False
    return request.accept_mimetypes.best_match(ANSWERS) == "text/html"


def not_found() -> Response:
    """The 404 page for a person who opened a path that is no page, in their language."""
    tag = language.current()
    html = NOT_FOUND_PAGE.format(
        lang=tag,
        title=escape(language.say(N_("Page not found"), tag)),
        detail=escape(language.say(N_("There is no page at this address."), tag)),
        home=escape(language.say(N_("Back to the lobby"), tag)),
    )
    response = Response(html, status=404, mimetype="text/html")
    return _secure(language.label(response, tag))
