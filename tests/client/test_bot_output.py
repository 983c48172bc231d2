"""What `hanabi-client bot` prints at the end: the score out of the variant's perfect
score, never out of the view's max_score (the best still reachable, which at the end is
the score itself)."""

from __future__ import annotations

import io
import json
import socket

from rich.console import Console

from hanabi.client.api import Client
from hanabi.client.bot import BotPlayer


def finished_view(**over):
    return {
        "status": "finished",
        "variant": "no_variant",
        "players": [
            {"seat": 0, "name": "ann", "bot": None},
            {"seat": 1, "name": "robo", "bot": None},
        ],
        "you": 1,
        "turn": 61,
        "score": 21,
        "max_score": 21,
        "fireworks": {"red": 5, "yellow": 4, "green": 4, "blue": 4, "white": 4},
        "result": {"reason": "deck_out", "score": 21},
        **over,
    }


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def bot_output(view, *, json_mode=False):
    out = io.StringIO()
    # No server: the variant is read off the view (5 per firework), as when GET /variants fails.
    client = Client(f"http://127.0.0.1:{free_port()}", retries=0)
    player = BotPlayer(
        client, "g1", "token", "conventions", console=Console(file=out), json_mode=json_mode
    )
    assert player._over(view) == 0
    return out.getvalue()


def test_the_final_score_is_out_of_the_variants_perfect_score():
    assert "Game over (the deck ran out): final score 21/25" in bot_output(finished_view())
    strikeout = finished_view(result={"reason": "strikeout", "score": 0}, max_score=0)
    assert "Game over (three strikes): final score 0/25" in bot_output(strikeout)
    line = json.loads(bot_output(finished_view(), json_mode=True))
    assert line["perfect_score"] == 25 and line["result"]["score"] == 21
