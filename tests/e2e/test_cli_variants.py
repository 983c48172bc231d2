"""``hanabi-client variants`` (search, one in full), ``create --variant`` with any
catalogue variant and its table options, a hanab.live file imported by ``create --deck``,
and the table's line of clue options, against a live server."""

from __future__ import annotations

import json
import subprocess

from e2e_support import Terminal, client_command, client_env

from hanabi.client.api import Client
from hanabi.client.variants import VariantInfo
from hanabi.game import Game, Setup, catalogue, export_game


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=30
    )


def test_search_pages_and_one_in_full(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    found = run(["variants", "--q", "pink", "--suits", "6", "--limit", "3"], env)
    assert found.returncode == 0, found.stderr
    rows = [line for line in found.stdout.splitlines() if "max " in line]
    assert len(rows) == 3 and all("Pink" in r for r in rows)
    total = sum(1 for v in catalogue.variants(q="pink", suits=6))
    assert f"Variants 1-3 of {total}." in found.stdout
    assert "Next page: hanabi-client variants --q pink --suits 6 --limit 3 --offset 3" in (
        found.stdout
    )
    refused = run(["variants", "--rule", "sideways"], env)
    assert refused.returncode == 1 and "rule" in refused.stderr

    one = run(["variants", "pink & brown (6 suits)"], env)
    assert one.returncode == 0, one.stderr
    lines = one.stdout.splitlines()
    number = catalogue.variant("Pink & Brown (6 Suits)").hanablive_id
    assert lines[0] == f"Pink & Brown (6 Suits)  (hanab.live variant {number})"
    pink = VariantInfo.from_api(catalogue.variant("Pink & Brown (6 Suits)").describe())
    letter = pink.letter("pink")  # the client's own letter: none reads as a digit
    assert f"  {letter}  Pink (its own clue colour, pink, every rank clue touches it)" in lines
    assert "  N  Brown (its own clue colour, brown, no rank clue touches it)" in lines
    assert any(line.strip().startswith("colours: red (r)") for line in lines)
    old = run(["variants", "rainbow"], env).stdout  # this service's form of it
    assert "(hanab.live's Rainbow (6 Suits), this service's suit names)" in old
    assert "  W  White" in old
    # In Russian: the suit names and the special rules in words, not the API's keys.
    ru = run(["--lang", "ru", "variants", "Up or Down & Rainbow (5 Suits)"], env)
    assert ru.returncode == 0, ru.stderr
    assert "  R  красная" in ru.stdout and "up_or_down" not in ru.stdout
    assert "вверх или вниз: фейерверк начинается с 1, 5 или START" in ru.stdout
    assert "  M  радужная (" in ru.stdout  # the rainbow suit, as Russian players say it
    ones = run(["--lang", "ru", "variants", "Rainbow-Ones (5 Suits)"], env).stdout
    assert "особое число — 1" in ones
    assert "любая подсказка о цвете касается особого числа" in ones
    up = run(["variants", "Up or Down (5 Suits)"], env).stdout
    assert "  up or down: a firework starts at 1, 5 or START and goes up or down" in up
    missing = run(["variants", "Pink & Purple (9 Suits)"], env)
    assert missing.returncode == 1 and "There is no variant" in missing.stderr


def test_create_any_variant_with_options_and_import_a_hanablive_game(live_server, tmp_path):
    env = client_env(live_server.url, tmp_path)
    made = run(["create", "--name", "vi", "--detach", "--json", "--variant", "1344",
                "--deck-plays", "--end-at-max-possible"], env)  # fmt: skip
    assert made.returncode == 0, made.stderr
    game = json.loads(made.stdout)["game"]
    assert game["variant"] == catalogue.variant(1344).name
    assert game["options"]["deck_plays"] is game["options"]["end_at_max_possible"] is True

    # a hanab.live game of an Up or Down variant: START cards (rank 7) and all
    name = next(catalogue.variants(rule="up_or_down", suits=5)).name
    options = {"one_extra_card": True, "end_at_max_possible": True}  # hanab.live's own
    source = Game(Setup.create(name, ["a", "b", "c"], options, "hl"))
    file = tmp_path / "hanablive.json"
    doc = export_game(source)
    assert "endAtMaxPossible" not in doc["options"]  # as hanab.live writes it
    file.write_text(json.dumps(doc))
    imported = run(["create", "--name", "im", "--detach", "--json", "--deck", str(file)], env)
    assert imported.returncode == 0, imported.stderr
    game = json.loads(imported.stdout)["game"]
    assert game["variant"] == name and game["max_players"] == 3
    assert game["options"]["one_extra_card"] is game["options"]["end_at_max_possible"] is True
    assert game["custom_deal"] is True


def test_the_table_shows_the_suits_and_lists_the_clues_of_its_variant(live_server, tmp_path):
    variant = catalogue.variant(next(catalogue.variants(q="Prism", suits=6)).name)
    env = client_env(live_server.url, tmp_path, TERM="dumb")
    alice = Terminal(["create", "--name", "alice", "--players", "2", "--variant",
                      variant.name.lower(), "--no-color"], env)  # fmt: skip
    try:
        game_id = alice.expect(r"Created game (\S+) ").group(1)
        alice.expect_exact("lobby> ")
        Client(live_server.url).join(game_id, "bob")
        alice.expect_exact("2 bob")
        alice.send("start")
        table = alice.wait_turn(0, mine=True)
        info = VariantInfo.from_api(variant.describe())  # the client's letters: no digit-like
        letters = " ".join(f"{info.letter(s.id)}0" for s in variant.suits)
        assert f"Fireworks  {letters}" in table
        names = ", ".join(f"{variant.color_name(c).lower()} (" for c in variant.clue_colors)
        said = table.split("Clues: colours: ")[1]
        assert said.startswith(names.split(" (")[0])
        for c in variant.clue_colors:
            assert f"{variant.color_name(c).lower()} (" in said
        assert "ranks: 1 2 3 4 5." in said
    finally:
        alice.kill()
