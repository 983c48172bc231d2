"""One server and the requests sent to it: the base of the client library's calls.

Requests that fail on the network are retried when that is safe: reads always, and
actions too, because an action names the ``turn`` it is for, so the server answers a
re-sent action with the original result instead of acting twice. Requests that would
have a second effect (creating a game, joining, chatting) are retried only when the
connection was never made, so the server cannot have seen them. A refusal (4xx/5xx)
raises :class:`ApiError` with the server's problem ``code``.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

import requests

from . import i18n
from .errors import Unreachable, _never_sent, _problem, _reason
from .i18n import _

DEFAULT_SERVER = "http://127.0.0.1:8000"
API_PREFIX = "/api/v1"
USER_AGENT = "hanabi-client/0.1"
MAX_WAIT = 30  # the server holds a long-poll at most this long


class Transport:
    """A connection to one Hanabi server: where it is, the token sent by default, and how
    long and how often to try.

    ``retries`` is how many times a safe request is re-sent after a network failure
    (with ``backoff`` seconds before the first retry, doubling each time).
    """

    def __init__(
        self,
        server: str = DEFAULT_SERVER,
        token: str | None = None,
        *,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.25,
        session: requests.Session | None = None,
    ) -> None:
        server = server.strip().rstrip("/")
        if "://" not in server:  # "127.0.0.1:9101", "localhost:8000": plain HTTP is meant
            server = f"http://{server}"
        if server.endswith(API_PREFIX):
            server = server[: -len(API_PREFIX)]
        self.server = server
        self.token = token
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.session = session or requests.Session()
        self.session.headers.setdefault("User-Agent", USER_AGENT)

    def url(self, path: str) -> str:
        return f"{self.server}{API_PREFIX}{path}"

    def _auth_header(self, token: str | None) -> dict[str, str]:
        """The Authorization header for ``token``, else this client's own (none without)."""
        chosen = token if token is not None else self.token
        return {"Authorization": f"Bearer {chosen}"} if chosen else {}

    def _long_poll(self, params: dict[str, Any], wait: float | None, etag: str | None) -> float:
        """Ask the server to hold the request: ``wait`` seconds (at most :data:`MAX_WAIT`;
        only with an ``etag`` to wait on) go into ``params``. The read timeout it needs."""
        if wait is None or not etag:
            return self.timeout
        wait = max(0.0, min(float(wait), MAX_WAIT))
        params["wait"] = int(wait) if float(wait).is_integer() else wait
        return self.timeout + wait

    def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        token: str | None = None,
        timeout: float | None = None,
        idempotent: bool = True,
        allow: tuple[int, ...] = (),
    ) -> requests.Response:
        """Send one request; retry network failures when safe; raise ApiError on 4xx/5xx."""
        all_headers = {
            "Accept": "application/json, application/problem+json",
            "Accept-Language": i18n.language(),  # the server answers refusals in it
        }
        all_headers.update(self._auth_header(token))
        all_headers.update(headers or {})
        clean_params = {k: v for k, v in (params or {}).items() if v is not None}
        url = self.url(path)
        attempt = 0
        maybe_sent = False
        while True:
            try:
                response = self.session.request(
                    method,
                    url,
                    json=json,
                    params=clean_params,
                    headers=all_headers,
                    timeout=(min(5.0, self.timeout), timeout or self.timeout),
                )
            except requests.RequestException as exc:
                never_sent = _never_sent(exc)
                maybe_sent = maybe_sent or not never_sent
                if attempt < self.retries and (idempotent or never_sent):
                    self._sleep(attempt)
                    attempt += 1
                    continue
                reason = _reason(exc)
                raise Unreachable(
                    _(
                        "Cannot reach the server at {server}: {reason}",
                        server=self.server,
                        reason=reason,
                    ),
                    maybe_sent=maybe_sent,
                    reason=reason,
                ) from exc
            if response.status_code in (502, 503, 504) and attempt < self.retries and idempotent:
                self._sleep(attempt)
                attempt += 1
                continue
            if response.status_code >= 400 and response.status_code not in allow:
                raise _problem(response)
            return response

    def _sleep(self, attempt: int) -> None:
        time.sleep(self.backoff * (2**attempt))
