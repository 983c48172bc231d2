"""Logs as one JSON object per line, for machines first (and ``jq`` for people).

Every line has ``time`` (UTC, ISO 8601, milliseconds), ``level``, ``logger``, ``message`` and
``pid``; a line written while a request is handled also has its ``request_id``, ``route`` and
``game_id`` (if the route names a game). The request log (logger ``hanabi.requests``, see
:mod:`hanabi.server.ops.observe`) adds ``method``, ``status``, ``duration_ms`` and ``remote``.

What never goes into a line: request or response bodies, query strings (a stream ticket
travels in one), headers (``Authorization``), tokens, passwords, cards. Code logs ids and
type names only, and an exception is logged as its type and its stack frames, without its
message (a message could in principle quote game state). Of a credential, the request log
keeps its scheme and at most a short hash (:func:`hanabi.server.ops.observe.credential_fields`).

Other code's messages are scrubbed on the way out (:func:`scrub`): gunicorn quotes what it
could not parse (``Invalid HTTP Header: 'Bearer abc'`` for a header line a CR or LF cut in
two; ``No more data after: b'Authorization: ...'`` at debug), so every quoted string in a
message, and every query string, is cut out.

:func:`configure` is called by the gunicorn hooks (:mod:`hanabi.server.ops.gunicorn_conf`): the
app factory leaves logging alone, so the Flask test client and embedding programs keep theirs.
"""

from __future__ import annotations

import logging
import re
import sys
import traceback
from typing import Any

import orjson
from flask import g, has_request_context, request

from .times import iso

#: The request log's logger: one INFO line per answered request.
REQUEST_LOGGER = "hanabi.requests"
#: View arguments that may be logged (ids; never anything a route could take as a secret).
LOGGED_ARGS = ("game_id", "seat")
#: A query string in a URL that a message quotes (gunicorn's "Error handling request
#: /api/v1/games/x/stream?ticket=..."): cut out, since a stream ticket travels in one.
QUERY = re.compile(r"\?[^\s\"']*")
#: A quoted string in a message: Python's repr of a str or bytes (gunicorn's
#: ``Invalid HTTP Header: %r``, ``No more data after: %r``). What a parser could not read is
#: what the client sent, which may be a token: cut out, whatever it holds.
QUOTED = re.compile(r"""(?<!\w)b?(?:'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*")""")

_ROUTES: dict[str, str] = {}  # URL rule -> its route, worked out once per rule


def scrub(message: str) -> str:
    """``message`` without query strings or quoted strings (see :data:`QUERY`, :data:`QUOTED`)."""
    return QUERY.sub("?…", QUOTED.sub("'…'", message))


def route_of(rule: str) -> str:
    """A URL rule as openapi.yaml names its path: ``/api/v1/games/{game_id}``."""
    route = _ROUTES.get(rule)
    if route is None:
        route = _ROUTES[rule] = re.sub(r"<(?:[^:<>]+:)?(\w+)>", r"{\1}", rule)
    return route


def request_fields() -> dict[str, Any]:
    """request_id, route and the logged ids of the request being handled, if any."""
    if not has_request_context():
        return {}
    fields: dict[str, Any] = {}
    rid = g.get("request_id")
    if rid is not None:
        fields["request_id"] = rid
    rule = request.url_rule
    if rule is not None:
        fields["route"] = route_of(rule.rule)
    for name in LOGGED_ARGS:
        value = (request.view_args or {}).get(name)
        if value is not None:
            fields[name] = value
    return fields


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docstring for the fields)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": iso(int(record.created * 1000)),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": scrub(record.getMessage()),
            "pid": record.process,
        }
        fields = getattr(record, "fields", None)
        if fields is None:
            fields = request_fields()
        line.update(fields)
        if record.exc_info and record.exc_info[0] is not None:
            kind, _, tb = record.exc_info
            line["exc_type"] = kind.__name__
            line["stack"] = "".join(traceback.format_tb(tb))
        return orjson.dumps(line, default=str).decode()


def _handler(stream: Any) -> logging.Handler:
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonFormatter())
    handler.set_name("hanabi-json")
    return handler


def configure(level: str = "info", loggers: tuple[str, ...] = ("gunicorn.error",)) -> None:
    """Send this process's logs as JSON lines: the request log to stdout, everything else
    (the app's ``hanabi.*`` loggers and ``loggers``, e.g. gunicorn's) to stderr."""
    formatter = JsonFormatter()
    for name in loggers:
        for handler in logging.getLogger(name).handlers:
            handler.setFormatter(formatter)
    app_log = logging.getLogger("hanabi")
    if not any(h.get_name() == "hanabi-json" for h in app_log.handlers):
        app_log.addHandler(_handler(sys.stderr))
    app_log.setLevel(level.upper())
    app_log.propagate = False
    requests_log = logging.getLogger(REQUEST_LOGGER)
    if not any(h.get_name() == "hanabi-json" for h in requests_log.handlers):
        requests_log.addHandler(_handler(sys.stdout))
    requests_log.setLevel(logging.INFO)
    requests_log.propagate = False
