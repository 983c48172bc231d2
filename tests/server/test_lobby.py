"""Creating, listing, joining, leaving and starting tables."""

from __future__ import annotations

import pytest
from api_helpers import API, assert_problem, assert_valid, bearer, make_table
from flask.testing import FlaskClient

from hanabi.game import VARIANTS, Game, Setup
from hanabi.server.api.schemas.requests import SeatGrantSchema
from hanabi.server.api.schemas.variants import VariantPageSchema
from hanabi.server.api.schemas.views import GamePageSchema, GameSummarySchema, GameViewSchema


def test_health_and_variants(client: FlaskClient) -> None:
    health = client.get(f"{API}/health")
    assert health.status_code == 200 and health.get_json() == {"status": "ok"}
    body = client.get(f"{API}/variants?limit=500").get_json()
    assert_valid(VariantPageSchema, body)
    ids = {v["id"] for v in body["variants"]} | {a for v in body["variants"] for a in v["aliases"]}
    assert set(VARIANTS) - {"wild_rainbow", "black_powder"} <= ids  # those two come last
    rainbow = client.get(f"{API}/variants/rainbow").get_json()
    assert rainbow["card_count"] == 60 and rainbow["max_score"] == 30
    assert "red" in rainbow["clue_colors"] and rainbow["suits"][5]["all_colors"]


def test_create_returns_seat_token_view_and_location(client: FlaskClient) -> None:
    response = client.post(
        f"{API}/games",
        json={
            "name": "alice",
            "variant": "rainbow",
            "max_players": 4,
            "options": {"empty_clues": True, "strikeout_keeps_score": False},
            "seed": "abc",
        },
    )
    assert response.status_code == 201
    body = response.get_json()
    assert_valid(SeatGrantSchema, body)
    assert response.headers["Location"] == f"{API}/games/{body['id']}"
    assert body["seat"] == 0 and len(body["token"]) >= 22
    game = body["game"]
    assert game["status"] == "lobby" and game["host"] == 0 and game["you"] == 0
    assert game["players"] == [
        {"seat": 0, "name": "alice", "bot": None, "plays": None, "playing": None}
    ]
    assert game["variant"] == "rainbow" and game["options"]["empty_clues"] is True
    assert game["max_players"] == 4 and game["deck_size"] == 60
    assert "seed" not in game  # the seed would tell everyone the deck


def test_create_refuses_bad_settings(client: FlaskClient) -> None:
    bad = client.post(f"{API}/games", json={"name": "a", "variant": "nope"})
    assert "variant" in assert_problem(bad, 400, "validation_error")["errors"]
    bad = client.post(f"{API}/games", json={"name": "a", "deck": [{"suit": "red", "rank": 1}]})
    assert_problem(bad, 400, "invalid_deck")
    bad = client.post(f"{API}/games", json={"name": "a", "max_players": 9})
    body = assert_problem(bad, 400, "validation_error")
    assert "max_players" in body["errors"]
    bad = client.post(f"{API}/games", json={"name": "   "})
    assert "name" in assert_problem(bad, 400, "validation_error")["errors"]


def test_create_with_exact_deck_deals_it(client: FlaskClient) -> None:
    deck = Game(Setup.create("no_variant", 2, seed="x")).deck
    variant = VARIANTS["no_variant"]
    cards = [variant.card_dict(c) for c in reversed(deck)]
    table = make_table(client, 2, deck=cards)
    view = table.view(1)
    first = view["hands"][0]  # seat 0's hand, newest first: orders 4..0
    assert [c["order"] for c in first] == [4, 3, 2, 1, 0]
    assert [(c["suit"], c["rank"]) for c in reversed(first)] == [
        (c["suit"], c["rank"]) for c in cards[:5]
    ]


def test_join_refusals(client: FlaskClient) -> None:
    response = client.post(f"{API}/games", json={"name": "host", "max_players": 2})
    gid = response.get_json()["id"]
    taken = client.post(f"{API}/games/{gid}/players", json={"name": "HOST"})
    assert_problem(taken, 409, "name_taken")
    ok = client.post(f"{API}/games/{gid}/players", json={"name": "bob"})
    assert ok.status_code == 201 and ok.get_json()["seat"] == 1
    assert ok.headers["Location"] == f"{API}/games/{gid}"
    assert_problem(client.post(f"{API}/games/{gid}/players", json={"name": "c"}), 409, "game_full")
    assert_problem(
        client.post(f"{API}/games/nope/players", json={"name": "c"}), 404, "game_not_found"
    )

    started = make_table(client, 2)
    late = client.post(f"{API}/games/{started.id}/players", json={"name": "late"})
    assert_problem(late, 409, "game_started")


def test_leave_and_remove_before_start(client: FlaskClient) -> None:
    table = make_table(client, 4, start=False)
    url = f"{API}/games/{table.id}/players"
    # a player leaves; later seats move up
    assert client.delete(f"{url}/1", headers=bearer(table.tokens[1])).status_code == 204
    view = table.view(0)
    assert [p["name"] for p in view["players"]] == ["p0", "p2", "p3"]
    assert table.view(2)["you"] == 1  # p2's token now holds seat 1
    # a non-host may not remove someone else
    assert_problem(client.delete(f"{url}/0", headers=bearer(table.tokens[2])), 403, "not_host")
    assert_problem(client.delete(f"{url}/0"), 401, "auth_required")
    assert_problem(client.delete(f"{url}/7", headers=bearer(table.tokens[0])), 404, "no_such_seat")
    # the host removes seat 2 (p3); that token is now worthless here
    assert client.delete(f"{url}/2", headers=bearer(table.tokens[0])).status_code == 204
    assert_problem(table.get(3), 403, "not_a_player")
    # the host leaves: the next seat becomes the host
    assert client.delete(f"{url}/0", headers=bearer(table.tokens[0])).status_code == 204
    view = table.view(2)
    assert view["players"] == [
        {"seat": 0, "name": "p2", "bot": None, "plays": None, "playing": None}
    ]
    assert view["host"] == 0
    # the last player leaves: the game is gone
    assert client.delete(f"{url}/0", headers=bearer(table.tokens[2])).status_code == 204
    assert_problem(table.get(), 404, "game_not_found")


def test_a_program_says_which_strategy_it_plays(client: FlaskClient) -> None:
    """A program in a person's seat declares its bot strategy, joining or later in the
    lobby; the table shows it in ``players[].plays`` (a server bot's too) and logs it."""
    table = make_table(client, 2, start=False, max_players=4)
    joined = client.post(f"{table.url}/players", json={"name": "robo", "plays": "hat"})
    assert joined.status_code == 201
    table.tokens.append(joined.get_json()["token"])
    assert client.post(f"{table.url}/bots", json={}, headers=bearer(table.tokens[0])).status_code
    url = f"{table.url}/players/1"
    declared = client.patch(url, json={"plays": "search"}, headers=bearer(table.tokens[1]))
    assert declared.status_code == 200
    view = declared.get_json()
    assert_valid(GameViewSchema, view)
    assert [(p["bot"], p["plays"]) for p in view["players"]] == [
        (None, None), (None, "search"), (None, "hat"), ("conventions", "conventions"),
    ]  # fmt: skip
    events = client.get(f"{table.url}/events", headers=bearer(table.tokens[0])).get_json()["events"]
    assert {"type": "join", "turn": 0, "seq": 3, "seat": 2, "name": "robo", "bot": None,
            "plays": "hat"} in events  # fmt: skip
    assert events[-1] == {
        "type": "plays", "turn": 0, "seq": len(events), "seat": 1, "name": "p1",
        "plays": "search",
    }  # fmt: skip
    # Saying it again changes nothing (no event); null takes it back.
    again = client.patch(url, json={"plays": "search"}, headers=bearer(table.tokens[1]))
    assert again.status_code == 200
    assert (
        client.get(f"{table.url}/events", headers=bearer(table.tokens[0])).get_json()["events"]
        == events
    )
    back = client.patch(url, json={"plays": None}, headers=bearer(table.tokens[1]))
    assert back.get_json()["players"][1]["plays"] is None
    # Refusals: someone else's seat, no token, an unknown strategy or seat, after the deal.
    mine = bearer(table.tokens[1])
    other = client.patch(f"{table.url}/players/0", json={"plays": "hat"}, headers=mine)
    assert_problem(other, 403, "not_your_seat")
    assert_problem(client.patch(url, json={"plays": "hat"}), 401, "auth_required")
    unknown = client.patch(url, json={"plays": "chess"}, headers=mine)
    assert "plays" in assert_problem(unknown, 400, "validation_error")["errors"]
    assert_problem(client.patch(url, json={}, headers=mine), 400, "validation_error")
    far = client.patch(f"{table.url}/players/9", json={"plays": "hat"}, headers=mine)
    assert_problem(far, 404, "no_such_seat")
    table.start()
    late = client.patch(url, json={"plays": "hat"}, headers=mine)
    assert_problem(late, 409, "game_started")


def test_the_table_shows_what_each_bot_really_plays(client: FlaskClient) -> None:
    """``players[].playing``: hat plays hat only where every seat does, so a host sees
    before the deal that a hat bot seated next to people plays conventions; it follows
    who sits down and who leaves, in the view and in the listing."""
    table = make_table(client, 1, start=False, max_players=3)
    host = bearer(table.tokens[0])
    added = client.post(f"{table.url}/bots", json={"strategy": "hat"}, headers=host)
    assert added.status_code == 201, added.get_json()

    def seats() -> list[tuple[str | None, str | None]]:
        view = table.get().get_json()
        assert_valid(GameViewSchema, view)
        return [(p["plays"], p["playing"]) for p in view["players"]]

    assert seats() == [(None, None), ("hat", "conventions")]
    # The host's program says it plays hat too: now every seat does.
    declared = client.patch(f"{table.url}/players/0", json={"plays": "hat"}, headers=host)
    assert declared.status_code == 200
    assert seats() == [("hat", "hat"), ("hat", "hat")]
    # A person sits down: both play conventions with her, until she leaves.
    joined = client.post(f"{table.url}/players", json={"name": "carol"})
    assert seats() == [("hat", "conventions"), ("hat", "conventions"), (None, None)]
    listed = client.get(f"{API}/games", query_string={"status": "lobby"}).get_json()["games"]
    mine = next(g for g in listed if g["id"] == table.id)
    assert [p["playing"] for p in mine["players"]] == ["conventions", "conventions", None]
    gone = client.delete(f"{table.url}/players/2", headers=bearer(joined.get_json()["token"]))
    assert gone.status_code == 204
    assert seats() == [("hat", "hat"), ("hat", "hat")]


def test_in_a_variant_hat_cannot_carry_the_table_shows_its_fallback(client: FlaskClient) -> None:
    """White has a suit no colour clue touches: hat's code cannot be carried there, so
    its bots play conventions even when every seat says hat, and the table says so (the
    view and the listing, as the bots themselves decide)."""
    table = make_table(client, 1, start=False, max_players=3, variant="White (5 Suits)")
    host = bearer(table.tokens[0])
    added = client.post(f"{table.url}/bots", json={"strategy": "hat"}, headers=host)
    assert added.status_code == 201, added.get_json()
    declared = client.patch(f"{table.url}/players/0", json={"plays": "hat"}, headers=host)
    assert declared.status_code == 200
    view = table.get().get_json()
    assert [(p["plays"], p["playing"]) for p in view["players"]] == [
        ("hat", "conventions"),
        ("hat", "conventions"),
    ]
    listed = client.get(f"{API}/games", query_string={"status": "lobby"}).get_json()["games"]
    mine = next(g for g in listed if g["id"] == table.id)
    assert [p["playing"] for p in mine["players"]] == ["conventions", "conventions"]


def test_declarations_cannot_grow_a_lobby_without_end(client: FlaskClient) -> None:
    table = make_table(client, 2, start=False)
    url = f"{table.url}/players/1"
    mine = bearer(table.tokens[1])
    codes = set()
    for i in range(600):  # HANABI_MAX_LOBBY_EVENTS is 500
        plays = "hat" if i % 2 == 0 else None
        response = client.patch(url, json={"plays": plays}, headers=mine)
        codes.add(response.status_code)
        if response.status_code == 409:
            assert_problem(response, 409, "lobby_full")
            break
    assert codes == {200, 409}
    table.start()  # every seat could still leave, and the game start


def test_leave_refused_after_start(client: FlaskClient) -> None:
    table = make_table(client, 2)
    response = client.delete(f"{API}/games/{table.id}/players/1", headers=bearer(table.tokens[1]))
    assert_problem(response, 409, "game_started")


def test_start_rules(client: FlaskClient) -> None:
    table = make_table(client, 1, start=False)
    assert_problem(table.post("/start", None), 401, "auth_required")
    assert_problem(table.post("/start", 0), 409, "not_enough_players")
    joined = client.post(f"{table.url}/players", json={"name": "bob"}).get_json()
    table.tokens.append(joined["token"])
    assert_problem(table.post("/start", 1), 403, "not_host")
    other = make_table(client, 2, start=False)
    response = client.post(f"{table.url}/start", headers=bearer(other.tokens[0]))
    assert_problem(response, 403, "not_a_player")
    view = table.start()
    assert_valid(GameViewSchema, view)
    assert view["status"] == "playing" and view["current_seat"] == 0 and view["you"] == 0
    assert view["legal_actions"] and all(c["suit"] is None for c in view["hands"][0])
    assert all(c["suit"] is not None for c in view["hands"][1])
    assert_problem(table.post("/start", 0), 409, "game_started")


def test_list_games_by_status_with_cursor(client: FlaskClient) -> None:
    made = [make_table(client, 2, start=False).id for _ in range(3)]
    playing = make_table(client, 2).id
    seen: list[str] = []
    changed: list[str] = []
    cursor = None
    for _ in range(50):
        query = "?status=lobby&limit=2" + (f"&cursor={cursor}" if cursor else "")
        page = client.get(f"{API}/games{query}").get_json()
        assert_valid(GamePageSchema, page)
        assert len(page["games"]) <= 2
        assert all(g["status"] == "lobby" for g in page["games"])
        seen += [g["id"] for g in page["games"]]
        changed += [g["updated"] for g in page["games"]]
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert set(made) <= set(seen) and playing not in seen
    assert len(seen) == len(set(seen))
    assert changed == sorted(changed, reverse=True)  # lobbies: last changed first
    everything = client.get(f"{API}/games?limit=100").get_json()
    assert playing in [g["id"] for g in everything["games"]]
    assert_problem(client.get(f"{API}/games?status=nope"), 400, "invalid_query")
    assert_problem(client.get(f"{API}/games?limit=0"), 400, "invalid_query")


@pytest.mark.parametrize(
    ("name", "code"),
    [
        # the contract's pattern lists the format characters of the BMP ...
        ("al\u200bice", "validation_error"),
        ("\u202egnp.exe", "validation_error"),
        ("bo\u2066b", "validation_error"),
        ("x\u00ady", "validation_error"),
        ("a\u2028b", "validation_error"),
        ("\ufeffeve", "validation_error"),
        ("a\u200db", "validation_error"),
        # ... the service refuses the others too (a language tag character here)
        ("eve\U000e0001", "invalid_name"),
    ],
)
def test_names_with_control_or_format_characters_are_refused(
    client: FlaskClient, name: str, code: str
) -> None:
    assert_problem(client.post(f"{API}/games", json={"name": name}), 400, code)
    table = make_table(client, 1, start=False)
    assert_problem(client.post(f"{table.url}/players", json={"name": name}), 400, code)
    bot = client.post(f"{table.url}/bots", json={"name": name}, headers=bearer(table.tokens[0]))
    assert_problem(bot, 400, code)


def test_names_are_normalised_and_compared_case_folded(client: FlaskClient) -> None:
    table = make_table(client, 1, start=False, max_players=5)
    joined = client.post(f"{table.url}/players", json={"name": "alice"})
    assert joined.status_code == 201
    for same in ("Ａｌｉｃｅ", "ALICE", " Alice "):
        assert_problem(client.post(f"{table.url}/players", json={"name": same}), 409, "name_taken")
    bot = client.post(
        f"{table.url}/bots", json={"name": "ＡＬＩＣＥ"}, headers=bearer(table.tokens[0])
    )
    assert_problem(bot, 409, "name_taken")
    wide = client.post(f"{table.url}/players", json={"name": "Ｂｏｂ"})
    assert wide.status_code == 201
    assert wide.get_json()["game"]["players"][2]["name"] == "Bob"
    # a name too long once normalised: one character, eighteen after NFKC
    assert_problem(
        client.post(f"{table.url}/players", json={"name": "\ufdfa" * 2}), 400, "invalid_name"
    )


def test_bot_seats_are_named_as_the_table_numbers_them(client: FlaskClient) -> None:
    table = make_table(client, 1, start=False)
    added = client.post(f"{table.url}/bots", json={}, headers=bearer(table.tokens[0]))
    assert added.get_json()["seat"] == 1
    assert added.get_json()["game"]["players"][1]["name"] == "conventions-bot-2"


def test_a_deal_the_creator_chose_is_marked_everywhere(client: FlaskClient) -> None:
    game = Game(Setup.create("no_variant", 2, None, "any"))
    deck = [{"suit": s_, "rank": r} for s_, r in map(game.variant.card, game.deck)]
    fair = make_table(client, 2)
    seeded = make_table(client, 2, seed="chosen")
    dealt = make_table(client, 2, deck=deck)
    listed = {g["id"]: g for g in client.get(f"{API}/games?limit=100").get_json()["games"]}
    for table, custom in ((fair, False), (seeded, True), (dealt, True)):
        assert listed[table.id]["custom_deal"] is custom
        for seat in (0, 1, None):
            view = table.view(seat)
            assert view["custom_deal"] is custom
            assert_valid(GameViewSchema, view)
        assert table.end()["game"]["status"] == "finished"
        # a seat's (the fair deal is a seed's: not for anyone, docs/seeds.md)
        replay = client.get(f"{table.url}/replay", headers=bearer(table.tokens[0])).get_json()
        assert replay["custom_deal"] is custom
    created = client.post(f"{API}/games", json={"name": "x", "seed": "s"}).get_json()
    assert created["game"]["custom_deal"] is True
    assert_valid(GameSummarySchema, listed[fair.id])


def test_a_late_join_names_the_seat_it_matches_as_the_table_matches_names(
    client: FlaskClient,
) -> None:
    """At a started table, a join under a seat's name in another case or width (the way
    the table tells names apart: NFKC, any case) is told that seat is to be taken back
    with its token (seat_held); a name no seat has: no seat named so (game_started)."""
    table = make_table(client, 2)
    seated = table.view(0)["players"][1]["name"]
    url = f"{API}/games/{table.id}/players"
    wide = "".join(chr(ord(c) + 0xFEE0) if "!" <= c <= "~" else c for c in seated.upper())
    for typed in (seated.upper(), wide):
        body = assert_problem(client.post(url, json={"name": typed}), 409, "seat_held")
        assert body["detail"].startswith(f"'{seated}' holds a seat at this game"), body
    late = assert_problem(client.post(url, json={"name": "nobody"}), 409, "game_started")
    assert "no seat named 'nobody'" in late["detail"]
    ru = client.post(url, json={"name": "nobody"}, headers={"Accept-Language": "ru"})
    assert "nobody" in assert_problem(ru, 409, "game_started")["detail"]
    assert "already started" not in ru.get_json()["detail"]
