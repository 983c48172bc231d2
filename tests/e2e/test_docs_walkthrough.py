"""docs/http-bots.md, run as written: its shell blocks (curl and jq) against a live
server, one bash process in a scratch directory, and its Python blocks in one
interpreter, so the walkthrough cannot drift from the API or the bots."""

from __future__ import annotations

import ast
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

DOC = Path(__file__).resolve().parents[2] / "docs" / "http-bots.md"
DOC_SERVER = "http://127.0.0.1:8000"


def blocks(language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_curl_walkthrough_plays_a_whole_game(live_server, tmp_path):
    for tool in ("bash", "curl", "jq"):
        assert shutil.which(tool), f"the walkthrough needs {tool}"
    script = "set -eu -o pipefail\n" + "\n".join(blocks("sh"))
    assert script.count(DOC_SERVER) == 1  # one place to change for another server
    ran = subprocess.run(
        ["bash", "-c", script.replace(DOC_SERVER, live_server.url)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert ran.returncode == 0, ran.stdout + ran.stderr
    out = ran.stdout
    assert out.startswith('{"status":"ok"}1\n')  # health, then bob's seat
    lines = out.splitlines()
    assert '{"status":"playing","turn":0,"current_seat":0,"you":0}' in lines
    mine = json.loads(next(line for line in lines if "alices_cards" in line))
    assert mine["my_first_card"] is None and all(s and r for s, r in mine["alices_cards"])
    # Long-poll with nothing new: 304; the clue; its resend: 200; another move: stale.
    at = lines.index("304")
    move = json.loads(lines[at + 1])
    assert move["turn"] == 0 and move["type"] == "clue" and move["target"] == 1
    assert json.loads(lines[at + 2])[0]["type"] == "clue"
    assert lines[at + 3] == "200"
    assert (
        lines[at + 4] == '{"status":409,"code":"stale_turn","detail":"It is turn 1, not turn 0."}'
    )
    # The loop played both seats to the end, and the finished game replays and exports.
    finished = json.loads(lines[at + 5])
    assert finished["status"] == "finished" and finished["result"]["reason"] == "deck_out"
    assert json.loads(lines[at + 6])["turn"] == 1
    exported = json.loads(lines[at + 7])
    assert exported["players"] == ["alice", "bob"] and exported["actions"] > 40
    # and a seat looks back at the game as it saw it (the in-game replay's view)
    assert json.loads(lines[at + 8]) == {"turn": 1, "clue_tokens": 7}
    # What the doc shows as output is what came out.
    text = DOC.read_text(encoding="utf-8")
    for shown in re.findall(r"```\n(\{.*?\})\n```", text):
        if '"result"' in shown:
            assert json.loads(shown) == finished
        else:
            assert shown in lines


def test_the_strategy_example_plays_in_self_play():
    ran = subprocess.run(
        [sys.executable, "-c", "\n".join(blocks("python"))],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert ran.returncode == 0, ran.stderr
    result = ast.literal_eval(ran.stdout)  # the printed dict
    assert result["reason"] in ("deck_out", "perfect") and result["score"] > 0
