"""Watching and finished games at the terminal (issue #44; docs/seeds.md, README's
"Watching"): ``watch ID`` shows every hand of an unrated table, ``--shadow PLAYER`` the
table as that player sees it, ``create --hide-hands`` a table whose spectators see the
board only (and may shadow nobody); a finished game's ``replay``, ``export`` and shared
``replay-room`` work with no account and no seat, one line and exit 1 for what is
refused."""

from __future__ import annotations

import json
import re
import secrets

from e2e_support import Terminal, client_env
from test_cli_accounts import PASSWORD, name, run

from hanabi.client.api import Client


def two_seats(api: Client, **options: object) -> tuple[str, str, str]:
    """A started two-seat game, ann and bob (``options``: the table's); (id, ann, bob)."""
    ann = api.create_game("ann", max_players=2, options=options or None)
    bob = api.join(ann.game_id, "bob")
    api.start(ann.game_id, token=ann.token)
    return ann.game_id, ann.token, bob.token


def first_view(args: list[str], env: dict[str, str]) -> dict:
    """The first view ``watch ... --json`` prints, then the watcher is stopped."""
    term = Terminal(args, env, timeout=20)
    try:
        line = term.expect(r'\{"type":"view".*\}\r?\n').group(0)
        return json.loads(line)["game"]
    finally:
        term.kill()


def one_line(result, starts: str | None = None) -> str:
    """A refusal: exit 1, one line on stderr, no traceback."""
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, lines
    if starts is not None:
        assert lines[0].startswith(f"hanabi-client: {starts}"), lines[0]
    return lines[0]


def shown(hand: list[dict]) -> bool:
    return all(c.get("suit") is not None and c.get("rank") is not None for c in hand)


def test_watch_shows_the_hands_and_shadows_a_player(live_server, tmp_path):
    api = Client(live_server.url)
    game, _ann, _bob = two_seats(api)
    env = client_env(live_server.url, tmp_path)

    view = first_view(["watch", game, "--json", "--pace", "0"], env)
    assert view["you"] is None and view["spectating"] == "hands"
    assert all(shown(hand) for hand in view["hands"])
    # by name or by number from 1: bob's own cards as he knows them, ann's as they are
    for who in ("bob", "2", "BOB"):
        view = first_view(["watch", game, "--json", "--pace", "0", "--shadow", who], env)
        assert view["spectating"] == "shadow" and view["shadow_seat"] == 1
        assert not any(c.get("suit") for c in view["hands"][1])
        assert shown(view["hands"][0])

    # the table in words: bob's hand first, shadowed, and the line that says how
    term = Terminal(["watch", game, "--pace", "0", "--no-clear", "--shadow", "bob"], env)
    try:
        term.expect_exact("Watching as bob sees the table: their own cards as they know them.")
        drawn = term.before
    finally:
        term.kill()
    assert re.search(r"2 bob \(shadowed\)", drawn)
    assert drawn.index("2 bob") < drawn.index("1 ann")
    term = Terminal(["watch", game, "--pace", "0", "--no-clear"], env)
    try:
        term.expect_exact("Watching: every hand shows (never the deck).")
        assert "card " in term.before
    finally:
        term.kill()

    # nobody by that name or number: one line that lists who sits there
    said = one_line(run(["watch", game, "--shadow", "carol"], env), "Game")
    assert "1 ann, 2 bob" in said
    one_line(run(["watch", game, "--shadow", "3"], env))


def test_a_table_that_hides_the_hands_from_its_spectators(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path / "host")
    made = run(["create", "--name", "ann", "--players", "2", "--hide-hands", "--detach"], env)
    assert made.returncode == 0, made.stderr
    created = re.search(r"Created game (\S+) ", made.stdout).group(1)
    api = Client(live_server.url)
    assert api.game(created)["options"]["spectators_see_hands"] is False

    game, _ann, _bob = two_seats(api, spectators_see_hands=False)
    other = client_env(live_server.url, tmp_path / "other")
    view = first_view(["watch", game, "--json", "--pace", "0"], other)
    assert view["spectating"] == "public"
    assert not any(c.get("suit") for hand in view["hands"] for c in hand)
    said = one_line(run(["watch", game, "--shadow", "bob"], other))
    assert "token" not in said.lower() and "bearer" not in said.lower()


def test_a_finished_game_is_anyones_at_the_terminal(live_server, tmp_path):
    api = Client(live_server.url)
    seed = f"p2v0s{700_000_000 + secrets.randbelow(99_999_999)}"
    host = api.create_game("ann", max_players=2, seed=seed)
    mate = api.join(host.game_id, "mate")
    api.start(host.game_id, token=host.token)
    for token in (host.token, mate.token):
        api.vote(host.game_id, token=token)
    game = host.game_id
    anon = client_env(live_server.url, tmp_path / "anon")
    never = client_env(live_server.url, tmp_path / "never", HANABI_PASSWORD=PASSWORD)
    username = name("never")
    assert run(["register", username], never).returncode == 0
    assert run(["login", username], never).returncode == 0

    for env in (anon, never):
        replayed = run(["replay", game, "--json"], env)
        assert replayed.returncode == 0, replayed.stderr
        assert all(shown(hand) for hand in json.loads(replayed.stdout)["hands"])
        assert run(["replay", game, "--turn", "1"], env).returncode == 0
        exported = run(["export", game], env)
        assert exported.returncode == 0, exported.stderr
        assert json.loads(exported.stdout)["deck"]

    # a room: made by a logged-in account that never played it, followed and joined by
    # someone with no account; a visitor with neither seat nor account cannot lead one
    one_line(run(["replay-room", "create", game], anon), "Log in (hanabi-client login)")
    made = run(["replay-room", "create", game, "--json"], never)
    assert made.returncode == 0, made.stderr
    room = json.loads(made.stdout)["id"]
    friend = client_env(live_server.url, tmp_path / "friend")
    followed = run(["replay-room", "follow", room, "--changes", "0"], friend)
    assert followed.returncode == 0, followed.stderr
    assert "ann leads" in followed.stdout or "leads" in followed.stdout
    joined = run(["replay-room", "join", room, "--name", "fred"], friend)
    assert joined.returncode == 0, joined.stderr
    assert "as follower" in joined.stdout
    # leading is the leader's: the sentence says how to get the lead, never a token
    said = one_line(
        run(["replay-room", "lead", room, "turn", "2"], client_env(live_server.url, tmp_path / "x"))
    )
    assert "token" not in said.lower()
    assert run(["replay-room", "lead", room, "turn", "2"], never).returncode == 0
