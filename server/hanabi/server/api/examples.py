"""The example request bodies of the API's docs, by operation id.

Swagger UI's "Try it out" starts from an operation's example. Without one it makes a body
up from the schema, every optional field at its least value, and the server refused what
it made for ``POST /games`` (a seed *and* a one-card deck, a 1-second timer). So every
JSON request body has examples here; :mod:`hanabi.server.api.spec` puts them in
``openapi.yaml``, and the tests check that each one is valid against its schema and that
the server accepts it (tests/server/test_examples.py walks them in order: a guest opens
a table, a second person joins, ... ; the account examples are one account's life).

Each entry is name -> (summary, body); the first is what "Try it out" shows.
"""

from __future__ import annotations

from typing import Any

from .http import body_refusal
from .problems import problem_body
from .refusals import status_of
from .schemas.requests import CreateGameSchema

Example = tuple[str, dict[str, Any]]

#: The example account's passwords, before and after its change of password.
PASSWORD = "correct horse battery"
NEW_PASSWORD = "battery staple horse"

REQUEST_EXAMPLES: dict[str, dict[str, Example]] = {
    "createGame": {
        "guest": (
            "A guest's table for up to 3 (with an account's credential, leave out name)",
            {
                "name": "alice",
                "variant": "no_variant",
                "max_players": 3,
                "options": {"empty_clues": False, "strikeout_keeps_score": False},
            },
        ),
        "timed": (
            "A timed game for 2: 5 minutes on each clock, 10 seconds more per move",
            {
                "name": "alice",
                "max_players": 2,
                "options": {"timer": {"base": 300, "per_turn": 10}},
            },
        ),
        "seeded": (
            "A chosen deal: the same seed deals the same deck (custom_deal: true)",
            {"name": "alice", "variant": "rainbow", "seed": "friday-night"},
        ),
        "hands_hidden": (
            "A table whose spectators see the public board only, not the hands",
            {"name": "alice", "max_players": 2, "options": {"spectators_see_hands": False}},
        ),
        "locked": (
            "A password table: friends join with its password, spectators need it too",
            {"name": "alice", "password": "open sesame", "password_spectators": True},
        ),
    },
    "createPass": {
        "watch": ("A spectator's pass of a password table", {"password": "open sesame"})
    },
    "joinGame": {
        "person": ("A guest takes the next seat", {"name": "bob"}),
        "program": (
            "A program takes a seat and says which bot strategy it plays",
            {"name": "hatbot", "plays": "hat"},
        ),
    },
    "declareStrategy": {
        "bot": ("The program in this seat plays conventions", {"plays": "conventions"}),
        "person": ("A person plays this seat again", {"plays": None}),
    },
    "addBot": {
        "default": ("Seat a bot of the default strategy", {}),
        "named": (
            "Seat a hat bot under a name of your choice",
            {"strategy": "hat", "name": "Hatty"},
        ),
    },
    "startGame": {
        "play": ("Deal, and play at your seat", {"watch": False}),
    },
    # One game of two, from the deal: the turn numbers follow on.
    "act": {
        "color_clue": (
            "Turn 0: tell seat 1 which of its cards are red",
            {"type": "clue", "turn": 0, "target": 1, "color": "red"},
        ),
        "discard": (
            "Turn 1: discard the card with order 5 (orders: see your view's hands)",
            {"type": "discard", "turn": 1, "card": 5},
        ),
        "play": ("Turn 2: play the card with order 0", {"type": "play", "turn": 2, "card": 0}),
        "rank_clue": (
            "Turn 3: tell seat 0 which of its cards are 1s",
            {"type": "clue", "turn": 3, "target": 0, "rank": 1},
        ),
    },
    "createStreamTicket": {
        "shadow": (
            "A spectator's ticket that watches the table as seat 1 sees it",
            {"shadow": 1},
        ),
    },
    "chat": {"line": ("A line of chat", {"text": "Good luck, have fun!"})},
    "writeNote": {
        "note": (
            "A note on the card with order 1 (private to you until the game ends)",
            {"text": "chop? maybe r5"},
        ),
    },
    "votePause": {
        "pause": ("Vote to pause the game", {"paused": True}),
        "go_on": ("Take that vote back (the table is not paused)", {"paused": False}),
    },
    "openRematch": {"same": ("The next game, the seats in the same order", {"shuffle": False})},
    "answerRematch": {"join": ("Take my seat at the next game", {"join": True})},
    "vote": {
        "end": ("Vote to end the game", {"end": True}),
        "take_back": ("Take your vote back", {"end": False}),
    },
    "register": {
        "person": ("An account", {"username": "alice", "password": PASSWORD}),
    },
    "login": {
        "person": ("Log in", {"username": "alice", "password": PASSWORD}),
    },
    "createApiKey": {"bot": ("A key for a program", {"name": "my bot"})},
    "setWebhook": {
        "hook": (
            "Call this URL when it becomes my move (it must reach a public address)",
            {"url": "https://93.184.215.14/hanabi/turns"},
        ),
    },
    "changePassword": {
        "change": (
            "A new password, given the old one",
            {"old_password": PASSWORD, "password": NEW_PASSWORD},
        ),
    },
    # A shared replay of a finished game of two (the actions' game above, ended).
    "createReplayRoom": {
        "share": ("Share a finished game's replay (name the game)", {"game_id": "aBcDeFgH1234"}),
    },
    "joinReplayRoom": {"follower": ("Join as a follower named fred", {"name": "fred"})},
    "setReplayPosition": {
        "turn": ("Show turn 2 and point at cards 5 and 7", {"turn": 2, "highlight": [5, 7]}),
    },
    "branchReplay": {
        "hidden": (
            "Branch from turn 1, the cards drawn hidden from followers",
            {"turn": 1, "reveal_draws": False},
        ),
    },
    "moveInHypothetical": {
        "rank_clue": (
            "Turn 1 of the branch: tell seat 0 which of its cards are 1s",
            {"type": "clue", "turn": 1, "target": 0, "rank": 1},
        ),
    },
    "passReplayLead": {
        "follower": ("Pass the lead to a follower who joined", {"follower": "m0123456789"}),
    },
    "sayInLobbyChat": {
        "mention": ("A line to the lobby, mentioning bob", {"text": "@bob a 3p game at 8?"}),
    },
    "reportLobbyChatLine": {"line": ("Report the lobby's line 1", {"seq": 1})},
    "sayInRoomChat": {"line": ("A line to the room", {"text": "that discard on turn 3!"})},
    "reportRoomChatLine": {"line": ("Report the room's line 1", {"seq": 1})},
    # A hanab.live game (docs/history.md): No Variant, suits in hanab.live's order, ranks
    # 1 1 1 2 2 3 3 4 4 5 each; alice clues bob's reds, bob clues alice's 1s, alice plays
    # one, and bob ends the game (4: game over, value 4: terminated).
    "importGame": {
        "hanablive": (
            "A hanab.live export: four actions, score 1",
            {
                "players": ["alice", "bob"],
                "deck": [
                    {"suitIndex": suit, "rank": rank}
                    for suit in range(5)
                    for rank in (1, 1, 1, 2, 2, 3, 3, 4, 4, 5)
                ],
                "actions": [
                    {"type": 2, "target": 1, "value": 0},
                    {"type": 3, "target": 0, "value": 1},
                    {"type": 0, "target": 0},
                    {"type": 4, "target": 1, "value": 4},
                ],
                "options": {"variant": "No Variant"},
            },
        ),
    },
    "deleteMe": {
        "delete": (
            "Delete the account (after the change of password above)",
            {"password": NEW_PASSWORD},
        ),
    },
}


def media_examples(operation_id: str) -> dict[str, Any]:
    """The OpenAPI media type's ``examples`` of an operation's request body (none: {})."""
    return {
        name: {"summary": summary, "value": value}
        for name, (summary, value) in REQUEST_EXAMPLES.get(operation_id, {}).items()
    }


def problem_example() -> dict[str, Any]:
    """A refused body as the server answers it, made by the code that answers it."""
    refusal = body_refusal(CreateGameSchema().validate({"name": "alice", "max_players": 9}))
    status = status_of(refusal)
    return problem_body(status, refusal.code, refusal.detail, refusal.facts.get("errors"))
