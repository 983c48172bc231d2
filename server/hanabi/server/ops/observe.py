"""Every request observed once: its id, its line in the request log, its metrics.

``X-Request-ID``: a request that brings a sane one (1-128 characters of letters, digits and
``-_.:@/+=``) keeps it, so a load balancer's or client's id follows the request through the
logs; any other gets a new one (32 hex digits). Every response carries it: problem
responses, 304s and event streams too.

A response is observed when the app has it ready; an event stream when it closes, so its
line says how long it was open. The log line names the route (the URL rule, never the path
or its query string) and the ids in it, never a body or a header (see
:mod:`hanabi.server.ops.logs`). Of the request's credential it names the scheme (``auth``) and,
for a token of this service's own shape, a short hash (``auth_hash``): see
:func:`credential_fields`.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
import uuid

from flask import Flask, Response, g, request

from . import metrics
from .logs import LOGGED_ARGS, REQUEST_LOGGER, route_of

HEADER = "X-Request-ID"
SANE_ID = re.compile(r"[A-Za-z0-9\-_.:@/+=]{1,128}")
UNMATCHED = "<unmatched>"  # the route of a request no URL rule matched (a 404)
#: An Authorization scheme as it may be logged (lower-cased); any other is "malformed".
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,19}")
#: The shape of the tokens this service issues (seat tokens, tickets, ``hs.`` sessions,
#: ``hk.`` API keys): 192 random bits, so 32 bits of their hash tell requests apart and
#: cannot confirm a guess. Anything else (a password pasted as a token) gets no hash.
OUR_TOKEN = re.compile(r"(?:hs\.|hk\.)?[A-Za-z0-9_-]{32}")


log = logging.getLogger(REQUEST_LOGGER)


def request_id() -> str:
    """This request's id: the client's if sane, else a new one (kept in ``g``)."""
    rid = g.get("request_id")
    if rid is None:
        given = request.headers.get(HEADER)
        rid = given if given is not None and SANE_ID.fullmatch(given) else uuid.uuid4().hex
        g.request_id = rid
    return rid


def held() -> bool:
    """Whether this request waits for changes (a long-poll or a stream): its time is the
    client's wait, not the server's work."""
    if request.path.endswith("/stream"):
        return True
    wait = request.args.get("wait") if request.query_string else None
    return wait not in (None, "", "0")


def short_hash(secret: str) -> str:
    """The first 8 hex digits of ``secret``'s SHA-256."""
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


def credential_fields() -> dict[str, str]:
    """What the request log says of the request's credential: ``auth``, its scheme
    ("bearer", "basic"..., "ticket" for a stream's ``?ticket=``, "malformed"), and
    ``auth_hash`` (:func:`short_hash`) for a token of :data:`OUR_TOKEN`'s shape. Nothing
    for a request without one. The credential itself never: not even a malformed one."""
    header = request.headers.get("Authorization")
    if header is not None:
        scheme, _, credential = header.strip().partition(" ")
        if not SCHEME.fullmatch(scheme):
            return {"auth": "malformed"}
        fields = {"auth": scheme.lower()}
        credential = credential.strip()
    elif request.query_string and "ticket" in request.args:
        fields, credential = {"auth": "ticket"}, request.args["ticket"]
    else:
        return {}
    if fields["auth"] in ("bearer", "ticket") and OUR_TOKEN.fullmatch(credential):
        fields["auth_hash"] = short_hash(credential)
    return fields


def request_line_fields(rid: str, method: str, route: str) -> dict[str, object]:
    fields: dict[str, object] = {"request_id": rid, "method": method, "route": route}
    for name in LOGGED_ARGS:
        value = (request.view_args or {}).get(name)
        if value is not None:
            fields[name] = value
    fields["remote"] = request.remote_addr
    fields.update(credential_fields())
    return fields


def install(app: Flask, *, count: bool, access_log: bool) -> None:
    """Give every request of ``app`` an id; ``count`` it in the metrics, ``access_log``: log
    one line per request."""

    @app.before_request
    def start() -> None:
        g.started = time.perf_counter()
        request_id()

    @app.after_request
    def finish(response: Response) -> Response:
        rid = request_id()
        response.headers[HEADER] = rid
        if not (count or access_log):
            return response
        rule = request.url_rule
        route = route_of(rule.rule) if rule is not None else UNMATCHED
        started = g.get("started") or time.perf_counter()
        method, status = request.method, response.status_code
        timed = not held()
        logged = access_log and log.isEnabledFor(logging.INFO)
        fields = request_line_fields(rid, method, route) if logged else None

        def done() -> None:
            seconds = time.perf_counter() - started
            if count:
                metrics.observe_request(route, method, status, seconds if timed else None)
            if fields is not None:
                fields["status"] = status
                fields["duration_ms"] = round(seconds * 1000, 3)
                log.info("%s %s %s", method, route, status, extra={"fields": fields})

        if response.is_streamed:
            response.call_on_close(done)
        else:
            done()
        return response
