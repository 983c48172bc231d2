"""No English in what the terminal client prints against a live server (docs/i18n.md,
"The no-English audit"): with ``--lang ru`` and ``--lang zh``, ``variants`` (a page, and
variants with special rules in full), ``leaderboard``, ``seeds NAME`` after a finished
game on it, ``stats USER``, ``turns``, ``webhook show`` and ``deliveries`` (without a
webhook, then with one whose receiver failed once), ``replay`` and ``export -o`` of a
finished game, the board that ``watch`` paces through a short game, a refused command and
a refused move at the table. Allowed besides the help audit's words
(``tests/no_english.py``): the names in the data (players, variants of
``hanabi.game.catalogue`` and ``VARIANTS``, strategies, suits), ids, seeds and codes."""

from __future__ import annotations

import json
import secrets
import subprocess
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from e2e_support import SUITS, LiveServer, Terminal, client_command, client_env, full_deck
from test_cli_turns import logged_in

from hanabi.bots import STRATEGIES
from hanabi.client.api import Client
from hanabi.client.cli.entry import build_parser
from hanabi.client.commands import ALIASES
from hanabi.client.tokens import SavedSeat, TokenStore
from hanabi.client.variants import VariantInfo
from hanabi.game import VARIANTS, catalogue
from no_english import english, in_short_form, parsers
from webhook_receiver import Receiver

FIRSTS = [(s, r) for r in range(1, 6) for s in SUITS]
SPECIAL = ("Up or Down & Rainbow (5 Suits)", "Rainbow-Ones (5 Suits)")


@dataclass
class World:
    """A server whose webhooks may call loopback, and what the commands look at."""

    server: LiveServer
    envs: dict[str, dict[str, str]]  # ann (no webhook), bob (a webhook), a stranger
    seed: str  # finished by ann and bob
    finished: str  # a custom deal, played a little and ended by vote (bob's seat saved)
    turn_based: str  # bob's move; ann's seat is not to move
    names: set[str]


@pytest.fixture(scope="module")
def world(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HANABI_WEBHOOK_PRIVATE", "on")  # the receiver listens on loopback
        patch.setenv("HANABI_WEBHOOK_BACKOFF", "0.2")
        server = LiveServer(redis_url, workers=2).start()
    try:
        yield make_world(server, tmp_path_factory.mktemp("live"))
    finally:
        server.crash()


def make_world(server: LiveServer, home: Path) -> World:
    url = server.url
    ann, bob = f"ann{secrets.token_hex(3)}", f"bob{secrets.token_hex(3)}"
    apis = {who: logged_in(url, home / who, who) for who in (ann, bob)}
    envs = {who: client_env(url, home / who) for who in (ann, bob)}
    envs["nobody"] = client_env(url, home / "nobody")

    # a seed finished by both: the seeds page, the leaderboard and the stats have a game
    made = run(["create", "--seed", "unplayed", "--detach", "--json"], envs[ann])
    assert made.returncode == 0, made.stderr
    seeded = json.loads(made.stdout)["id"]
    apis[bob].join(seeded, bob)
    apis[ann].start(seeded)
    apis[bob].terminate(seeded)
    apis[ann].terminate(seeded)
    seed = apis[ann].game(seeded)["seed"]

    # a short game of a chosen deal, a play, a clue and a discard, ended by vote
    api = Client(url)
    host = api.create_game("alice", max_players=2, deck=full_deck(FIRSTS))
    carol = api.join(host.game_id, "carol")
    api.start(host.game_id, token=host.token)
    api.play(host.game_id, 0, 0, token=host.token)  # alice plays R1
    api.clue(host.game_id, 1, 0, color="yellow", token=carol.token)
    api.discard(host.game_id, 2, 4, token=host.token)
    api.vote(host.game_id, token=host.token)
    api.vote(host.game_id, token=carol.token)
    TokenStore(home / bob / "config" / "hanabi-client").save(
        SavedSeat(url, host.game_id, 0, "alice", host.token)
    )

    # bob's webhook (its receiver fails once), then a turn-based game on bob's move
    receiver = Receiver()
    receiver.answers = [500]
    apis[bob].set_webhook(receiver.url)
    made = run(["create", "--move-clock", "36h", "--detach", "--json"], envs[ann])
    assert made.returncode == 0, made.stderr
    turn_based = json.loads(made.stdout)["id"]
    apis[bob].join(turn_based, bob)
    apis[ann].start(turn_based)
    view = apis[ann].game(turn_based)
    apis[ann].act(turn_based, 0, next(a for a in view["legal_actions"] if a["type"] == "clue"))
    try:  # the failed try and the one after (a busy machine: slow)
        receiver.wait(2, within=60)
    except AssertionError as exc:  # what the server says it did, for the report
        raise AssertionError(f"{exc}; bob's delivery log: {apis[bob].webhook_deliveries()}; "
                             f"the game: {apis[ann].game(turn_based)}") from None  # fmt: skip
    names = {ann, bob, "alice", "carol", seeded, host.game_id, turn_based}  # ids: names too
    return World(server, envs | {"ann": envs[ann], "bob": envs[bob]}, seed, host.game_id,
                 turn_based, names)  # fmt: skip


def run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*client_command(), *args], env=env, capture_output=True, text=True, timeout=30
    )


def allowed_names(world: World) -> tuple[set[str], set[str]]:
    """Single words and whole names that stay as they are (docs/i18n.md): what a person
    types (the commands, the table's commands), and the names in the data."""
    typed = set(STRATEGIES) | set(ALIASES) | {"GAME"}
    typed |= {w for prog, _ in parsers(build_parser()) for w in prog.split()}
    # the suits' letters: a clue's colour is typed by its letter, "red (r)" (hanab.live's,
    # or the one the client gives a suit whose letter another took or reads as a digit)
    typed |= {s.abbreviation.lower() for v in catalogue.variants() for s in v.suits}
    typed |= {
        s.letter.lower()
        for v in catalogue.variants()
        for s in VariantInfo.from_api(v.describe()).suits
    }
    typed.add("set")  # "webhook set", the command a refusal says to type
    variants = {v.name for v in catalogue.variants()} | {v.name for v in VARIANTS.values()}
    suits = {s.name for v in catalogue.variants() for s in v.suits}
    return typed, world.names | variants | set(VARIANTS) | suits


@pytest.mark.parametrize("lang", ["ru", "zh"])
def test_no_english_in_the_live_output(
    world: World, lang: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    in_short_form(request, lang, "ru")
    ann, bob, nobody = world.envs["ann"], world.envs["bob"], world.envs["nobody"]
    commands = {
        "variants": (["variants", "--q", "rainbow", "--limit", "4"], nobody),
        **{f"variants {v}": (["variants", v], nobody) for v in SPECIAL},
        "variants (refused)": (["variants", "Pink & Purple (9 Suits)"], nobody),
        "leaderboard": (["leaderboard", "--players", "2"], ann),
        "leaderboard --kind turns": (["leaderboard", "--kind", "turns"], ann),
        "seeds": (["seeds", world.seed], bob),
        "seeds (refused)": (["seeds", "p2v0s999"], nobody),
        "stats": (["stats", "--", next(n for n in world.names if n.startswith("bob"))], ann),
        "turns": (["turns"], bob),
        "turns (none)": (["turns"], ann),
        "webhook show (none)": (["webhook", "show"], ann),
        "webhook deliveries (none)": (["webhook", "deliveries"], ann),
        "webhook show": (["webhook"], bob),
        "webhook deliveries": (["webhook", "deliveries"], bob),
        "replay": (["replay", world.finished], bob),
        "replay --turn 2": (["replay", world.finished, "--turn", "2"], bob),
        "replay (refused)": (["replay", world.turn_based], nobody),
        "export -o": (["export", world.finished, "-o", str(tmp_path / "game.json")], bob),
        # chat and friends (docs/chat.md): never the lobby's lines, which are people's words
        "friends (none)": (["friends"], ann),
        "mutes (none)": (["mutes"], ann),
        "follow (refused)": (["follow", next(n for n in world.names if n.startswith("ann"))], ann),
        "chat (refused)": (["chat", "hi"], nobody),
    }
    with ThreadPoolExecutor(8) as pool:
        done = {
            what: pool.submit(run, ["--lang", lang, *args], env)
            for what, (args, env) in commands.items()
        }
        ran = {what: r.result() for what, r in done.items()}
        printed = {what: f"{r.stdout}\n{r.stderr}" for what, r in ran.items()}
        printed["watch"] = watched(world, lang)
        printed["a refused move"] = refused_move(world, lang)
    # each said what it is there to say: the refusals in a line, the rest in full
    failed = {what for what, r in ran.items() if r.returncode}
    assert failed == {w for w in commands if "(refused)" in w or w == "webhook show (none)"}, ran
    assert "hanab.live" in printed["variants Rainbow-Ones (5 Suits)"]
    assert printed["webhook deliveries"].count("  500  ") == 1
    assert "R1" in printed["watch"] and "R1" in printed["replay"]
    typed, names = allowed_names(world)
    # the boards list every team of the run's Redis, other tests' too: their names and ids
    api = Client(world.server.url, retries=1)
    for kind in ("score", "turns"):
        board = api.leaderboard(players=2, kind=kind, limit=100)["entries"]
        names |= {player for entry in board for player in entry["players"]}
        names |= {entry["game_id"] for entry in board}
    said = {what: names | {" ".join(args)} | set(args) for what, (args, _) in commands.items()}
    found = {what: english(text, typed, said.get(what, names)) for what, text in printed.items()}
    found = {what: words for what, words in found.items() if words}
    assert not found, "\n".join(
        f"{what}: {sorted(words)}\n{printed[what]}" for what, words in found.items()
    )


def watched(world: World, lang: str) -> str:
    """The paced watch of the short game, one frame a move, to its end."""
    env = {**world.envs["bob"], "LANGUAGE": ""}
    term = Terminal(["--lang", lang, "watch", world.finished, "--pace", "0.01"], env)
    try:
        term.end()
        return term.before
    finally:
        term.kill()


def refused_move(world: World, lang: str) -> str:
    """ann at the turn-based table, not her move, plays: the table's refusal."""
    term = Terminal(["--lang", lang, "join", world.turn_based], world.envs["ann"])
    try:
        term.expect(r"> ")
        term.send("p 1")
        term.expect(r"> ")
        said = term.before
        term.send("quit")
        return said
    finally:
        term.kill()
