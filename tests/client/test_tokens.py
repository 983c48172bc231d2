"""Seat tokens saved per game in the user's config directory."""

from __future__ import annotations

import stat
import sys

import pytest

from hanabi.client.tokens import SavedSeat, TokenStore, config_dir


def test_config_dir_follows_xdg(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    assert config_dir() == tmp_path / "hanabi-client"
    monkeypatch.delenv("XDG_CONFIG_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if sys.platform.startswith("linux"):
        assert config_dir() == tmp_path / "home" / ".config" / "hanabi-client"
    monkeypatch.setenv("XDG_CONFIG_HOME", "relative/ignored")  # the spec says: absolute only
    assert config_dir() != tmp_path / "relative/ignored" / "hanabi-client"


def test_save_find_forget(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    store = TokenStore()
    server = "http://127.0.0.1:8000"
    alice = SavedSeat(server, "g1", 0, "alice", "tok-a")
    bob = SavedSeat(server, "g1", 1, "bob", "tok-b")
    store.save(alice)
    assert store.find(server, "g1") == alice  # the only seat: no name needed
    store.save(bob)
    assert store.find(server, "g1") is None  # two seats (two terminals): a name is needed
    assert store.find(server, "g1", "bob") == bob
    assert store.find(server, "g1", "carol") is None
    assert store.find("http://other:8000", "g1", "bob") is None  # per server
    assert store.seats(server, "g1") == [alice, bob]
    path = next((tmp_path / "hanabi-client").rglob("*.json"))
    assert "tok-" not in path.name  # the file name does not give the token away
    if sys.platform != "win32":
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    store.forget(bob)
    assert store.seats(server, "g1") == [alice]


def test_a_damaged_file_counts_as_no_seat(monkeypatch, tmp_path):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    store = TokenStore()
    store.save(SavedSeat("http://s", "g2", 0, "alice", "t"))
    path = next((tmp_path / "hanabi-client").rglob("*.json"))
    path.write_text("{not json")
    assert store.seats("http://s", "g2") == []


@pytest.mark.parametrize("game_id", ["../../etc", "a/b", ""])
def test_odd_ids_stay_inside_the_config_dir(monkeypatch, tmp_path, game_id):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    path = TokenStore().save(SavedSeat("http://s", game_id, 0, "x", "t"))
    assert (tmp_path / "hanabi-client") in path.parents


def test_a_saved_seat_is_found_by_its_name_in_any_case_or_width(tmp_path):
    """``join ID --name Alice`` resumes the seat saved as ``alice`` (and ``Ａｌｉｃｅ``
    does), as the server matches a table's names; another name finds none."""
    store = TokenStore(tmp_path)
    store.save(SavedSeat("http://s", "g1", 1, "alice", "t" * 30))
    for typed in ("alice", "Alice", "ALICE", "Ａｌｉｃｅ", " alice "):
        found = store.find("http://s", "g1", typed)
        assert found is not None and found.name == "alice", typed
    assert store.find("http://s", "g1", "alicia") is None
