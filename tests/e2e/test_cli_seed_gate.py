"""A seed's finished game at the terminal (docs/seeds.md, "Who sees a seed's deal"):
``replay``, ``export``, ``watch`` and ``replay-room`` send the saved account session when
no seat of that game is saved, so an account that finished the seed sees the cards; the
others get the server's sentence on one line (exit 1, no traceback; ``--json``: the
error object)."""

from __future__ import annotations

import json
import secrets

from e2e_support import client_env
from test_cli_accounts import PASSWORD, name, run

from hanabi.client.accounts import SessionStore
from hanabi.client.api import Client


def finished_on(api: Client, seed: str, token: str | None = None) -> str:
    """A two-seat game on ``seed`` (its host: the account of ``token``, else a guest),
    played to its end by vote; its id."""
    if token is None:
        host = api.create_game("ann", max_players=2, seed=seed)
        game, token = host.game_id, host.token
    else:
        game = api._request("POST", "/games", json={"seed": seed}, token=token).json()["id"]
    mate = api.join(game, "mate")
    api.start(game, token=token)
    for seat in (token, mate.token):
        api.vote(game, token=seat)
    return game


def refused(result) -> None:
    assert result.returncode == 1, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hanabi-client: This game's deal is a seed's")


def test_a_seed_game_at_the_terminal(live_server, tmp_path):
    api = Client(live_server.url)
    seed = f"p2v0s{700_000_000 + secrets.randbelow(99_999_999)}"
    game = finished_on(api, seed)
    envs = {}
    for who in ("fin", "never", "mate"):
        envs[who] = client_env(live_server.url, tmp_path / who, HANABI_PASSWORD=PASSWORD)
        username = name(who)
        assert run(["register", username], envs[who]).returncode == 0
        assert run(["login", username], envs[who]).returncode == 0
    envs["anon"] = client_env(live_server.url, tmp_path / "anon")

    def session_of(who: str) -> str:
        store = SessionStore(tmp_path / who / "config" / "hanabi-client")
        return store.load(live_server.url).token

    finished_on(api, seed, session_of("fin"))
    finished_on(api, seed, session_of("mate"))

    # the finisher: the table at the end and at a turn, the export
    shown = run(["replay", game, "--json"], envs["fin"])
    assert shown.returncode == 0, shown.stderr
    assert all(c["suit"] is not None for hand in json.loads(shown.stdout)["hands"] for c in hand)
    assert run(["replay", game, "--turn", "2"], envs["fin"]).returncode == 0
    exported = run(["export", game], envs["fin"])
    assert exported.returncode == 0 and json.loads(exported.stdout)["players"]
    watched = run(["watch", game, "--json", "--pace", "0"], envs["fin"])
    assert watched.returncode == 0, watched.stderr
    assert '"cards_hidden"' not in watched.stdout

    # the others: one line, exit 1; --json: the error object
    for who, code in (("never", "seed_not_played"), ("anon", "account_required")):
        for command in (["replay", game], ["export", game]):
            refused(run(command, envs[who]))
            as_json = run([*command, "--json"], envs[who])
            assert as_json.returncode == 1
            assert json.loads(as_json.stdout)["error"]["code"] == code
        watched = run(["watch", game, "--json", "--pace", "0"], envs[who])
        assert watched.returncode == 0 and '"cards_hidden":"seed_not_played"' in watched.stdout

    # a shared room: made by the finisher, followed and joined by another, refused others
    made = run(["replay-room", "create", game, "--json"], envs["fin"])
    assert made.returncode == 0, made.stderr
    room = json.loads(made.stdout)["id"]
    followed = run(["replay-room", "follow", room, "--changes", "0", "--json"], envs["mate"])
    assert followed.returncode == 0, followed.stderr
    joined = run(["replay-room", "join", room], envs["mate"])
    assert joined.returncode == 0, joined.stderr
    # the member token saved at joining reads the room, even once logged out
    assert run(["logout"], envs["mate"]).returncode == 0
    followed = run(["replay-room", "follow", room, "--changes", "0"], envs["mate"])
    assert followed.returncode == 0, followed.stderr
    for who, code in (("never", "seed_not_played"), ("anon", "account_required")):
        for command in (["replay-room", "follow", room], ["replay-room", "join", room]):
            refused(run(command, envs[who]))
            as_json = run([*command, "--json"], envs[who])
            assert json.loads(as_json.stdout)["error"]["code"] == code
    refused(run(["replay-room", "create", game], envs["never"]))
