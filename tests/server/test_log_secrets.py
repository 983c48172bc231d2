"""No secret ever reaches a log line: a real gunicorn (gevent workers, the JSON request log on,
gunicorn's own log at debug, its most talkative) is sent every kind of credential this service
knows, well-formed and malformed, and its whole stdout and stderr are searched for them.

The request log may name the credential's scheme and, for a token of this service's own
shape (192 random bits), the first 8 hex digits of its SHA-256: enough to tell one client's
requests from another's, nothing to replay or to check a guess against.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

from account_helpers import FAST
from api_helpers import API
from process_helpers import Http, _stop, _wait_healthy
from test_operate_processes import _json_lines

from hanabi.server.ops.redis_process import free_port
from hanabi.server.ops.serving import gunicorn_command

#: Serving, logs, headers and the launcher are the same on any Redis: run once.

PASSWORD = "pw-Xylophone-Quartz-81"
NEW_PASSWORD = "pw-Marmalade-Vortex-27"
WRONG_PASSWORD = "pw-Wrongly-Guessed-55"
METRICS_TOKEN = "metrics-Zebra-Okapi-64"
TABLE_PASSWORD = "table-Walrus-Saffron-33"
WRONG_TABLE_PASSWORD = "table-Guessed-Badly-90"


def short_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()[:8]


def raw_request(port: int, data: bytes, read: bool = True) -> bytes:
    """``data`` as it is, on a connection of its own: whatever comes back."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as sock:
        sock.sendall(data)
        if not read:
            return b""
        sock.shutdown(socket.SHUT_WR)
        got = b""
        while chunk := sock.recv(65536):
            got += chunk
        return got


def get(port: int, path: str, headers: dict[str, str]) -> int:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", path, headers=headers)
    response = conn.getresponse()
    response.read()
    conn.close()
    return response.status


def test_no_token_key_password_or_ticket_reaches_a_log_line(redis_url: str, tmp_path: Path) -> None:
    port = free_port()
    out, err = tmp_path / "stdout.log", tmp_path / "stderr.log"
    env = {
        **os.environ,
        **{k: str(v) for k, v in FAST.items()},
        "REDIS_URL": redis_url,
        "HANABI_METRICS_TOKEN": METRICS_TOKEN,
        # gunicorn's own access log asked for too: its format quotes the request line.
        "GUNICORN_CMD_ARGS": "--access-logfile -",
    }
    command = gunicorn_command(f"127.0.0.1:{port}", 1, log_level="debug", access_log=True)
    with out.open("wb") as stdout, err.open("wb") as stderr:
        proc = subprocess.Popen(command, env=env, stdout=stdout, stderr=stderr)
    secrets: list[str] = [PASSWORD, NEW_PASSWORD, WRONG_PASSWORD, METRICS_TOKEN]
    hashed: dict[str, str] = {}  # a token sent well-formed as Bearer -> its short hash
    try:
        _wait_healthy(port, proc)
        api = Http(port)
        name = f"logs{os.getpid()}"
        # A password in a body: registering, logging in (right and wrong), changing it.
        assert api("POST", "/accounts", {"username": name, "password": PASSWORD})[0] == 201
        assert api("POST", "/sessions", {"username": name, "password": WRONG_PASSWORD})[0] == 401
        status, _, logged_in = api("POST", "/sessions", {"username": name, "password": PASSWORD})
        assert status == 201
        session = logged_in["token"]
        status, _, key = api("POST", "/accounts/me/keys", {"name": "bot"}, session)
        assert status == 201
        api_key = key["key"]
        assert api("GET", "/accounts/me", token=api_key)[0] == 200
        change = {"old_password": PASSWORD, "password": NEW_PASSWORD}
        assert api("PATCH", "/accounts/me", change, session)[0] == 204
        # A seat token and a ticket (in a query string, as a browser's EventSource sends it).
        status, _, created = api("POST", "/games", {"name": "ann"})
        assert status == 201
        gid, seat = created["id"], created["token"]
        assert api("GET", f"/games/{gid}", token=seat)[0] == 200
        _, _, ticket = api("POST", f"/games/{gid}/tickets", token=seat)
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        conn.request("GET", f"{API}/games/{gid}/stream?ticket={ticket['ticket']}")
        response = conn.getresponse()
        assert response.status == 200
        got = b""
        while b"event: view" not in got:
            got += response.read1(65536)
        conn.close()
        used = ticket["ticket"]  # used once: a second try is refused, and logged
        assert get(port, f"{API}/games/{gid}/stream?ticket={used}", {}) == 401
        assert get(port, "/metrics", {"Authorization": f"Bearer {METRICS_TOKEN}"}) == 200
        # A password table (docs/lobby.md): its password in bodies, a spectator's pass in a
        # header and in a stream's query string.
        locked = {"name": "lee", "password": TABLE_PASSWORD, "password_spectators": True}
        status, _, table = api("POST", "/games", locked)
        assert status == 201
        tid = table["id"]
        wrong = {"name": "guess", "password": WRONG_TABLE_PASSWORD}
        assert api("POST", f"/games/{tid}/players", wrong)[0] == 403
        right = {"name": "pal", "password": TABLE_PASSWORD}
        assert api("POST", f"/games/{tid}/players", right)[0] == 201
        status, _, granted = api("POST", f"/games/{tid}/passes", {"password": TABLE_PASSWORD})
        assert status == 201
        spectator_pass = granted["pass"]
        assert get(port, f"{API}/games/{tid}", {"X-Table-Pass": spectator_pass}) == 200
        assert get(port, f"{API}/games/{tid}", {"X-Table-Pass": "forged-Pass-Ibis-12"}) == 403
        stream = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        stream.request("GET", f"{API}/games/{tid}/stream?pass={spectator_pass}")
        assert stream.getresponse().status == 200
        stream.close()
        secrets += [TABLE_PASSWORD, WRONG_TABLE_PASSWORD, spectator_pass, "forged-Pass-Ibis-12"]
        secrets += [session, api_key, seat, used]
        hashed.update({short_hash(t): t for t in (session, api_key, seat, used)})

        # Malformed Authorization headers the app reads (each answered 401 invalid_auth).
        long = "L0ngT0ken" * 34  # 306 characters
        basic = base64.b64encode(f"{name}:{NEW_PASSWORD}".encode()).decode()
        malformed = {
            "Bearer a:colonSecret-Otter-19": "colonSecret-Otter-19",
            f"Basic {basic}": basic,
            f"Bearer {long}": long,
            f"Token {session}x": f"{session}x",
            "Bearer  spaced-Secret-Lynx-73 extra": "spaced-Secret-Lynx-73",
        }
        for header, secret in malformed.items():
            assert get(port, f"{API}/accounts/me", {"Authorization": header}) == 401, header
            secrets.append(secret)
        # Raw bytes (latin-1 in the header value).
        raw_secret = "rawSecret-Heron-42"
        answer = raw_request(
            port,
            f"GET {API}/accounts/me HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            f"Authorization: Bearer {raw_secret}\xff\xfe\r\n\r\n".encode("latin-1"),
        )
        assert answer.startswith(b"HTTP/1.1 4"), answer[:40]
        secrets.append(raw_secret)
        # Headers gunicorn itself refuses, before the app sees them: a CR or LF inside the
        # token (a header injection attempt), a folded line, a NUL, a line without a colon.
        crlf = {
            "Authorization: Bearer crSecret-Puffin-11\rhalf-Secret-Puffin-12": [
                "crSecret-Puffin-11",
                "half-Secret-Puffin-12",
            ],
            "Authorization: Bearer lfSecret-Walrus-21\nInjected-Secret-Walrus-22": [
                "lfSecret-Walrus-21",
                "Injected-Secret-Walrus-22",
            ],
            "Authorization: Bearer fold-Secret-Kiwi-31\r\n folded-Secret-Kiwi-32": [
                "fold-Secret-Kiwi-31",
                "folded-Secret-Kiwi-32",
            ],
            "Authorization: Bearer nul-Secret-Yak-41\x00nul-Secret-Yak-42": [
                "nul-Secret-Yak-41",
                "nul-Secret-Yak-42",
            ],
            "Authorization: Bearer ok-Secret-Emu-51\r\nbare-Secret-Emu-52": [
                "ok-Secret-Emu-51",
                "bare-Secret-Emu-52",
            ],
        }
        for line, parts in crlf.items():
            answer = raw_request(
                port, f"GET {API}/accounts/me HTTP/1.1\r\nHost: x\r\n{line}\r\n\r\n".encode()
            )
            assert answer.startswith(b"HTTP/1.1 400"), (line, answer[:60])
            secrets += parts
        # A ticket in a request line gunicorn refuses; a header past its size limit.
        bad_line = "badLine-Ticket-Moose-61"
        answer = raw_request(port, f"GET {API}/x?ticket={bad_line}\x01 HTTP/1.1\r\n\r\n".encode())
        assert answer.startswith(b"HTTP/1.1 400"), answer[:60]
        huge = "huge-Secret-Bison-71" + "h" * 9000
        answer = raw_request(
            port, f"GET {API}/health HTTP/1.1\r\nAuthorization: Bearer {huge}\r\n\r\n".encode()
        )
        assert answer.startswith(b"HTTP/1.1 431"), answer[:60]
        secrets += [bad_line, "huge-Secret-Bison-71"]
        # A client that goes away in the middle of its headers (gunicorn's "no more data").
        gone = "gone-Secret-Gecko-81"
        raw_request(port, f"GET {API}/health HTTP/1.1\r\nAuthorization: Bearer {gone}".encode())
        secrets.append(gone)
        time.sleep(0.5)  # the last lines are written
    finally:
        _stop(proc)
    text = out.read_text(errors="replace") + err.read_text(errors="replace")
    for secret in secrets:
        assert secret not in text, f"{secret!r} is in the logs"
    for piece in ("Bearer", "Basic ", "ticket=", "Authorization", "password"):
        assert piece not in text, f"{piece!r} is in the logs"

    lines = _json_lines(text)
    requests = [line for line in lines if line["logger"] == "hanabi.requests"]
    assert any(line["logger"] == "gunicorn.error" for line in lines)
    by_route: dict[str, list[dict[str, Any]]] = {}
    for line in requests:
        by_route.setdefault(line["route"], []).append(line)
    # What the request log may say of a credential: its scheme, and the short hash of a
    # token of this service's own shape.
    allowed = {"time", "level", "logger", "message", "pid", "request_id", "method", "route"}
    allowed |= {"status", "duration_ms", "game_id", "seat", "remote", "auth", "auth_hash"}
    for line in requests:
        assert set(line) <= allowed, line
        if "auth_hash" in line:
            assert line["auth_hash"] in hashed, line
    me = by_route[f"{API}/accounts/me"]
    assert {line.get("auth") for line in me} >= {"bearer", "basic", "token"}
    assert {hashed[line["auth_hash"]] for line in me if "auth_hash" in line} >= {session, api_key}
    streams = by_route[f"{API}/games/{{game_id}}/stream"]
    stream = [line for line in streams if line.get("game_id") == gid]  # not the pass's
    assert {line.get("auth") for line in stream} == {"ticket"}
