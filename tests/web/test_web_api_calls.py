"""The check every web test makes of the requests its pages sent (api_calls.check, in the
``web`` fixture): documented calls pass, and each way a call can leave the contract is
caught. No browser here: the recording is the web tests' own."""

from __future__ import annotations

import json

import pytest
from api_calls import check

BASE = "http://127.0.0.1:8000"
CLUE = {"type": "clue", "turn": 3, "target": 1, "color": "red"}
RANK_CLUE = {"type": "clue", "turn": 3, "target": 1, "rank": 2}


@pytest.mark.parametrize(
    ("method", "path", "body"),
    [
        ("GET", "/api/v1/games?status=lobby&limit=10", None),
        (
            "POST",
            "/api/v1/games",
            {"name": "Ann", "variant": "Rainbow (6 Suits)", "max_players": 3},
        ),
        ("POST", "/api/v1/games/abc123/start", None),
        ("POST", "/api/v1/games/abc123/actions", CLUE),
        ("POST", "/api/v1/replays/r00m/hypothetical/actions", RANK_CLUE),
        ("DELETE", "/api/v1/games/abc123/players/1", None),
        ("GET", "/api/v1/accounts/me", None),
        ("GET", "/api/v1/games/abc123/stream?after=4", None),
        ("GET", "/api/v1/docs", None),  # the interactive docs: a page, not an operation
        ("GET", "/static/app.js", None),  # not the API
    ],
)
def test_documented_calls_pass(method: str, path: str, body: dict | None) -> None:
    assert check(method, BASE + path, json.dumps(body) if body is not None else None) is None


@pytest.mark.parametrize(
    ("method", "path", "body", "said"),
    [
        ("GET", "/api/v1/gamez", None, "no such path"),
        ("PUT", "/api/v1/games/abc123/start", None, "no PUT operation"),
        ("GET", "/api/v1/games?colour=red", None, "query parameter 'colour'"),
        ("POST", "/api/v1/games/abc123/actions", None, "requires one"),
        ("POST", "/api/v1/games/abc123/actions", {**CLUE, "rank": 2}, "refused by the contract"),
        ("POST", "/api/v1/games/abc123/actions", {"type": "pass", "turn": 0}, "refused"),
        ("POST", "/api/v1/games/abc123/votes", {"end": "yes"}, "refused by the contract"),
        ("POST", "/api/v1/games", {"max_players": 9}, "refused by the contract"),
        ("DELETE", "/api/v1/games/abc123/players/1", {"why": 1}, "a body the operation"),
    ],
)
def test_calls_off_the_contract_are_caught(
    method: str, path: str, body: dict | None, said: str
) -> None:
    problem = check(method, BASE + path, json.dumps(body) if body is not None else None)
    assert problem is not None and said in problem, problem
