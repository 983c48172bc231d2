"""The saved session, the credential each command uses, and rating changes at the end."""

from __future__ import annotations

import argparse
import stat

import pytest

from hanabi.client import cli
from hanabi.client.accounts import SavedSession, SessionStore
from hanabi.client.api import Client
from hanabi.client.cli.accounts import use_account
from hanabi.client.render import TableRenderer
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS

SERVER = "http://127.0.0.1:8000"


@pytest.fixture
def config(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    monkeypatch.delenv("HANABI_API_KEY", raising=False)
    return tmp_path


def test_the_session_is_saved_for_the_user_only(config):
    store = SessionStore()
    path = store.save(SavedSession(SERVER, "ann", "hs.secret", "2027-01-01T00:00:00Z"))
    assert path.parent == config / "hanabi-client" / "sessions"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert store.load(SERVER) == SavedSession(SERVER, "ann", "hs.secret", "2027-01-01T00:00:00Z")
    assert store.load("http://elsewhere:1") is None
    store.forget(SERVER)
    assert store.load(SERVER) is None


def args_for(argv: list[str]) -> argparse.Namespace:
    args = cli.build_parser().parse_args(argv)
    return args


@pytest.mark.parametrize(
    ("argv", "acts_as"),
    [
        (["create"], "ann"),
        (["create", "--guest"], None),
        (["join", "g1"], "ann"),
        (["join", "g1", "--guest"], None),
        (["whoami"], "ann"),
        (["password", "--keep-api-keys"], "ann"),
        (["logout", "--all"], "ann"),
        (["profile"], "ann"),
        (["history", "bob"], "ann"),
        (["watch", "g1"], "ann"),  # as the account: it sees what it may, spoilers noted
        (["list"], None),
        (["seeds", "p2v0s1"], "ann"),  # a seed's results are shown to an account
        (["stats"], "ann"),
        (["leaderboard", "--variant", "rainbow", "--players", "3"], None),
    ],
)
def test_which_commands_act_as_the_account(config, argv, acts_as):
    SessionStore().save(SavedSession(SERVER, "ann", "hs.secret", "2027-01-01T00:00:00Z"))
    client = Client(SERVER)
    assert use_account(args_for(argv), client) == acts_as
    assert client.token == ("hs.secret" if acts_as else None)


def test_not_logged_in_acts_as_a_guest(config):
    client = Client(SERVER)
    assert use_account(args_for(["create"]), client) is None and client.token is None


def test_a_rated_game_needs_a_login(config, capsys):
    assert cli.main(["--server", SERVER, "create", "--rated"]) == 1
    assert "A rated game needs an account" in capsys.readouterr().err


def test_profile_without_a_name_or_login(config, capsys):
    assert cli.main(["--server", SERVER, "profile"]) == 1
    assert "Give a NAME, or log in" in capsys.readouterr().err


def test_the_end_screen_shows_rating_changes():
    view = {
        "players": [{"seat": 0, "name": "ann"}, {"seat": 1, "name": "bob"}],
        "fireworks": {c: 0 for c in "rygbw"},
        "result": {
            "reason": "terminated",
            "score": 0,
            "rating_changes": {
                "1": {"before": 1500.0, "after": 1491.06},
                "0": {"before": 1512.5, "after": 1503.6},
            },
        },
    }
    info = VariantInfo.from_api(VARIANTS["no_variant"].to_dict())
    text = TableRenderer(info).result(view).plain
    assert "final score 0/25" in text
    lines = text.splitlines()
    assert lines[1].strip() == "ann: rating 1512.5 -> 1503.6 (-8.9)"
    assert lines[2].strip() == "bob: rating 1500.0 -> 1491.1 (-8.9)"
