"""The library against the contract: every operation in openapi.yaml has a call, and each
call uses a route, method and query parameters the contract declares."""

from __future__ import annotations

from pathlib import Path

import pytest

from hanabi.client.api import Client, Table
from hanabi.client.replays import Rooms

yaml = pytest.importorskip("yaml")
SPEC = Path(__file__).resolve().parents[2] / "openapi.yaml"

# operationId -> (library method, HTTP method, path, query parameters it may send)
CALLS = {
    "getHealth": ("health", "get", "/api/v1/health", set()),
    "getReady": ("ready", "get", "/api/v1/ready", set()),
    "listVariants": (
        "variants",
        "get",
        "/api/v1/variants",
        {"q", "suits", "rule", "limit", "offset"},
    ),
    "getVariant": ("variant", "get", "/api/v1/variants/{key}", set()),
    "listStrategies": ("strategies", "get", "/api/v1/strategies", set()),
    "listGames": ("list_games", "get", "/api/v1/games", {"status", "limit", "cursor", "wait"}),
    "createGame": ("create_game", "post", "/api/v1/games", set()),
    "getGame": ("poll", "get", "/api/v1/games/{game_id}", {"wait"}),
    "joinGame": ("join", "post", "/api/v1/games/{game_id}/players", set()),
    "leaveGame": ("leave", "delete", "/api/v1/games/{game_id}/players/{seat}", set()),
    "declareStrategy": ("declare", "patch", "/api/v1/games/{game_id}/players/{seat}", set()),
    "addBot": ("add_bot", "post", "/api/v1/games/{game_id}/bots", set()),
    "startGame": ("start", "post", "/api/v1/games/{game_id}/start", set()),
    "act": ("act", "post", "/api/v1/games/{game_id}/actions", set()),
    "streamGame": ("stream", "get", "/api/v1/games/{game_id}/stream", set()),
    "createStreamTicket": ("stream_ticket", "post", "/api/v1/games/{game_id}/tickets", set()),
    "listEvents": ("events", "get", "/api/v1/games/{game_id}/events", {"after"}),
    "chat": ("chat", "post", "/api/v1/games/{game_id}/chat", set()),
    "vote": ("vote", "post", "/api/v1/games/{game_id}/votes", set()),
    "terminateGame": ("terminate", "post", "/api/v1/games/{game_id}/terminate", set()),
    "exportGame": ("export", "get", "/api/v1/games/{game_id}/export", set()),
    "replayGame": ("replay", "get", "/api/v1/games/{game_id}/replay", {"turn"}),
    "seatPast": ("past", "get", "/api/v1/games/{game_id}/past", {"turn"}),
    "listNotes": ("notes", "get", "/api/v1/games/{game_id}/notes", set()),
    "writeNote": ("note", "put", "/api/v1/games/{game_id}/notes/{card_order}", set()),
    "createPass": ("use_pass", "post", "/api/v1/games/{game_id}/passes", set()),
    "votePause": ("vote_pause", "post", "/api/v1/games/{game_id}/pause", set()),
    "openRematch": ("rematch", "post", "/api/v1/games/{game_id}/rematch", set()),
    "answerRematch": ("answer_rematch", "post", "/api/v1/games/{game_id}/rematch/answer", set()),
    "openKeptSeat": (
        "open_kept_seat",
        "delete",
        "/api/v1/games/{game_id}/rematch/invited/{name}",
        set(),
    ),
    "register": ("register", "post", "/api/v1/accounts", set()),
    "getMe": ("me", "get", "/api/v1/accounts/me", set()),
    "changePassword": ("change_password", "patch", "/api/v1/accounts/me", set()),
    "deleteMe": ("delete_account", "delete", "/api/v1/accounts/me", set()),
    "createApiKey": ("create_api_key", "post", "/api/v1/accounts/me/keys", set()),
    "listApiKeys": ("api_keys", "get", "/api/v1/accounts/me/keys", set()),
    "deleteApiKey": ("delete_api_key", "delete", "/api/v1/accounts/me/keys/{key_id}", set()),
    "login": ("login", "post", "/api/v1/sessions", set()),
    "logout": ("logout", "delete", "/api/v1/sessions/current", set()),
    "logoutEverywhere": ("logout_everywhere", "delete", "/api/v1/accounts/me/sessions", set()),
    "getProfile": ("profile", "get", "/api/v1/players/{username}", set()),
    "getHistory": ("history", "get", "/api/v1/players/{username}/games", {"limit", "cursor"}),
    "getPlayerStats": ("player_stats", "get", "/api/v1/players/{username}/stats", set()),
    "getSeed": ("seed", "get", "/api/v1/seeds/{seed_name}", {"limit", "cursor"}),
    "getLeaderboard": (
        "leaderboard",
        "get",
        "/api/v1/leaderboards",
        {"variant", "players", "kind", "limit", "cursor"},
    ),
    "getRatingModel": ("rating_model", "get", "/api/v1/rating-model", set()),
    "listMyTurns": ("my_turns", "get", "/api/v1/accounts/me/turns", {"limit"}),
    "setWebhook": ("set_webhook", "put", "/api/v1/accounts/me/webhook", set()),
    "getWebhook": ("webhook", "get", "/api/v1/accounts/me/webhook", set()),
    "deleteWebhook": ("delete_webhook", "delete", "/api/v1/accounts/me/webhook", set()),
    "listWebhookDeliveries": (
        "webhook_deliveries",
        "get",
        "/api/v1/accounts/me/webhook/deliveries",
        {"limit"},
    ),
    # chat where people are and friends (docs/chat.md): a room's chat is the same calls
    # with room=
    "readLobbyChat": ("read_chat", "get", "/api/v1/chat/lobby", {"after", "wait"}),
    "sayInLobbyChat": ("say_in_chat", "post", "/api/v1/chat/lobby", set()),
    "reportLobbyChatLine": ("report_line", "post", "/api/v1/chat/lobby/reports", set()),
    "readRoomChat": ("read_chat", "get", "/api/v1/replays/{room_id}/chat", {"after", "wait"}),
    "sayInRoomChat": ("say_in_chat", "post", "/api/v1/replays/{room_id}/chat", set()),
    "reportRoomChatLine": (
        "report_line",
        "post",
        "/api/v1/replays/{room_id}/chat/reports",
        set(),
    ),
    "listMutes": ("mutes", "get", "/api/v1/accounts/me/mutes", set()),
    "mute": ("mute", "put", "/api/v1/accounts/me/mutes/{username}", set()),
    "unmute": ("unmute", "delete", "/api/v1/accounts/me/mutes/{username}", set()),
    "listFollows": ("follows", "get", "/api/v1/accounts/me/follows", set()),
    "follow": ("follow", "put", "/api/v1/accounts/me/follows/{username}", set()),
    "unfollow": ("unfollow", "delete", "/api/v1/accounts/me/follows/{username}", set()),
    "searchHistory": (
        "search_history",
        "get",
        "/api/v1/history",
        {
            "player",
            "variant",
            "tag",
            "min_score",
            "max_score",
            "since",
            "until",
            "imported",
            "limit",
            "cursor",
        },
    ),
    "getVariantPage": (
        "variant_page",
        "get",
        "/api/v1/history/variants/{variant}",
        {"limit", "cursor"},
    ),
    "listGameTags": ("game_tags", "get", "/api/v1/games/{game_id}/tags", set()),
    "tagGame": ("tag_game", "put", "/api/v1/games/{game_id}/tags/{tag}", set()),
    "untagGame": ("tag_game", "delete", "/api/v1/games/{game_id}/tags/{tag}", set()),
    "importGame": ("import_game", "post", "/api/v1/imports", set()),
}
#: The shared replay rooms' calls, on :class:`hanabi.client.replays.Rooms`.
ROOM = "/api/v1/replays/{room_id}"
ROOM_CALLS = {
    "createReplayRoom": ("create", "post", "/api/v1/replays", set()),
    "getReplayRoom": ("room", "get", ROOM, set()),
    "joinReplayRoom": ("join", "post", ROOM + "/followers", set()),
    "streamReplayRoom": ("follow", "get", ROOM + "/stream", set()),
    "createRoomStreamTicket": ("stream_ticket", "post", ROOM + "/tickets", set()),
    "setReplayPosition": ("position", "put", ROOM + "/position", set()),
    "passReplayLead": ("pass_lead", "put", ROOM + "/leader", set()),
    "branchReplay": ("branch", "post", ROOM + "/hypothetical", set()),
    "leaveHypothetical": ("back", "delete", ROOM + "/hypothetical", set()),
    "moveInHypothetical": ("move", "post", ROOM + "/hypothetical/actions", set()),
}
NOT_FOR_PLAYERS = {"getOpenApi"}


@pytest.fixture(scope="module")
def spec() -> dict:
    if not SPEC.exists():
        pytest.skip("no openapi.yaml")
    return yaml.safe_load(SPEC.read_text())


def operations(spec: dict):
    for path, item in spec["paths"].items():
        for method, op in item.items():
            if isinstance(op, dict) and "operationId" in op:
                yield op["operationId"], method, path, op


def test_every_operation_has_a_library_call(spec):
    ids = {op_id for op_id, *_ in operations(spec)}
    assert ids - NOT_FOR_PLAYERS == set(CALLS) | set(ROOM_CALLS)
    for name, *_ in CALLS.values():
        assert callable(getattr(Client, name))
    for name, *_ in ROOM_CALLS.values():
        assert callable(getattr(Rooms, name))


def test_each_call_matches_the_contract(spec):
    found = {op_id: (method, path, op) for op_id, method, path, op in operations(spec)}
    for op_id, (_, method, path, params) in {**CALLS, **ROOM_CALLS}.items():
        spec_method, spec_path, op = found[op_id]
        assert (spec_method, spec_path) == (method, path), op_id
        declared = {p["name"] for p in op.get("parameters", []) if p.get("in") == "query"}
        assert params <= declared, op_id


def test_a_table_offers_every_seat_call():
    for name in ("game", "poll", "watch", "add_bot", "start", "leave", "act", "play", "discard",
                 "clue", "events", "chat", "vote", "terminate"):  # fmt: skip
        assert callable(getattr(Table, name))
