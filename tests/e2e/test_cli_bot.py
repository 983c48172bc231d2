"""``hanabi-client bot`` processes against a live server: they play through the public API
exactly like a third-party bot, and make the very decisions the same strategy makes in
engine self-play on the same deal."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from typing import Any

from e2e_support import FaultProxy, client_command, client_env

from hanabi.bots import DEFAULT_STRATEGY, STRATEGIES, choose_action, play_game
from hanabi.client.api import Client
from hanabi.game import Action, Game, Setup
from hanabi.game.hanablive import export_game, import_game

SEED = "bot-e2e-1"


def bot(game_id: str, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [*client_command(), "bot", game_id, *args],
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def finish(proc: subprocess.Popen[str], timeout: float = 30) -> tuple[int, str, str]:
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        raise AssertionError(f"the bot did not finish:\n{out}\n{err}") from None
    return proc.returncode, out, err


def test_two_bot_processes_play_the_game_engine_self_play_plays(live_server, tmp_path):
    """A table of two bot processes (one the host, resuming the seat `create` saved) ends
    with exactly the moves and score of self-play on the same seeded deal."""
    env = client_env(live_server.url, tmp_path)
    create = ["create", "--detach", "--json", "--name", "ann", "--players", "2", "--seed", SEED]
    made = subprocess.run(
        [*client_command(), *create],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert made.returncode == 0, made.stdout + made.stderr
    game_id = json.loads(made.stdout)["id"]
    ann = bot(game_id, env, "--name", "ann")  # resumes the host's saved seat
    bob = None
    try:
        assert ann.stdout is not None
        head = [ann.stdout.readline(), ann.stdout.readline()]
        bob = bot(game_id, env, "--json", "--strategy", DEFAULT_STRATEGY)
        code_ann, out_ann, err_ann = finish(ann)
        code_bob, out_bob, err_bob = finish(bob)
    finally:
        for proc in (ann, bob):
            if proc is not None:
                proc.kill()
    assert (code_ann, code_bob) == (0, 0), err_ann + err_bob
    out_ann = "".join(head) + out_ann

    names = ["ann", f"{DEFAULT_STRATEGY}-bot"]
    selfplay = play_game(Setup.create("no_variant", names, seed=SEED), DEFAULT_STRATEGY)
    score = selfplay.result["score"]
    exported = Client(live_server.url).export(game_id)
    assert exported["actions"] == export_game(selfplay)["actions"]  # move for move
    assert exported["players"] == names

    # ann: plain text, one line per move, then the result.
    assert f"ann (conventions bot) is back at its seat at game {game_id}, seat 1." in out_ann
    assert "Waiting for every seat to be taken; the bot starts the game then." in out_ann
    moves = [line for line in out_ann.splitlines() if line.startswith("turn ")]
    assert len(moves) == len([a for i, a in enumerate(selfplay.actions) if i % 2 == 0])
    assert moves[0].startswith("turn 1: ann ")
    assert moves[0].endswith(", strikes 0)")
    reason = {"perfect": "a perfect game", "deck_out": "the deck ran out"}[
        selfplay.result["reason"]
    ]
    # Out of the variant's perfect score, not the view's max_score (the best still
    # reachable, which at the end is the score itself).
    assert f"Game over ({reason}): final score {score}/25" in out_ann

    # bob: JSON lines.
    lines = [json.loads(line) for line in out_bob.splitlines()]
    assert lines[0] == {
        "type": "seat",
        "game_id": game_id,
        "seat": 1,
        "name": f"{DEFAULT_STRATEGY}-bot",
        "strategy": DEFAULT_STRATEGY,
        "resumed": False,
    }
    sent = [m for m in lines if m["type"] == "move"]
    assert [m["turn"] for m in sent] == list(range(1, len(selfplay.actions), 2))
    assert [Action.from_dict(m["action"]) for m in sent] == selfplay.actions[1::2]
    assert all(m["seat"] == 1 and m["text"].startswith(names[1]) for m in sent)
    assert lines[-1] == {
        "type": "result",
        "game_id": game_id,
        "result": selfplay.result,
        "perfect_score": 25,
        "turns": len(selfplay.actions),
    }


def test_two_hat_bot_processes_know_each_other_and_play_hat(live_server, tmp_path):
    """Each bot process says which strategy it plays (the joiner with its join, the host's
    once back at its seat), so two API hat bots play hat together, move for move hat's
    self-play; before they said it, each took the other for a person and played the
    conventions."""
    env = client_env(live_server.url, tmp_path)
    create = ["create", "--detach", "--json", "--name", "ann", "--players", "2", "--seed", SEED]
    made = subprocess.run(
        [*client_command(), *create], env=env, capture_output=True, text=True, timeout=30
    )
    assert made.returncode == 0, made.stdout + made.stderr
    game_id = json.loads(made.stdout)["id"]
    procs = [bot(game_id, env, "--name", "ann", "--strategy", "hat")]
    try:
        assert procs[0].stdout is not None
        procs[0].stdout.readline()  # back at its seat
        procs.append(bot(game_id, env, "--name", "hal", "--strategy", "hat"))
        results = [finish(proc) for proc in procs]
    finally:
        for proc in procs:
            proc.kill()
    assert [code for code, _, _ in results] == [0, 0], [err for _, _, err in results]
    assert all("only when every seat does" not in out for _, out, _ in results)
    assert "The game is on: ann, hal.\n" in results[1][1]
    selfplay = play_game(Setup.create("no_variant", ["ann", "hal"], seed=SEED), "hat")
    exported = Client(live_server.url).export(game_id)
    assert exported["actions"] == export_game(selfplay)["actions"]
    assert exported["actions"] != export_game(play_game(selfplay.setup, "conventions"))["actions"]
    events = Client(live_server.url).all_events(game_id, 0)
    said = [(e["type"], e["name"], e.get("plays")) for e in events if e.get("plays")]
    assert sorted(said) == [("join", "hal", "hat"), ("plays", "ann", "hat")]


def human_move(view: dict[str, Any]) -> dict[str, Any]:
    """A simple human: clue the bot's newest card by rank while clues last, then discard
    the oldest card."""
    me = view["you"]
    if view["clue_tokens"] > 0:
        other = (me + 1) % len(view["players"])
        return {"type": "clue", "target": other, "rank": view["hands"][other][0]["rank"]}
    return {"type": "discard", "card": view["hands"][me][-1]["order"]}


def play_as_human(api: Client, gid: str, token: str, stop_at: int | None = None) -> dict[str, Any]:
    """Play ``human_move`` on every turn of ours until the game ends (or its turn
    ``stop_at`` comes up); the last view."""
    etag = None
    while True:
        polled = api.poll(gid, etag, wait=5, token=token)
        etag, view = polled.etag, polled.game
        if view is None:
            continue
        if view["result"] or view["turn"] == stop_at:
            return view
        if view["current_seat"] == view["you"]:
            api.act(gid, view["turn"], human_move(view), token=token)


def assert_bot_decided(
    api: Client, gid: str, strategy: str, seat: int, table: list[str | None] | None = None
) -> int:
    """Every move of ``seat`` is what ``strategy`` chooses (at ``table``) from the engine's
    game at that point; how many moves it made."""
    played = import_game(api.export(gid))
    game = Game(played.setup)
    moves = 0
    for action in played.actions:
        if game.current == seat:
            assert choose_action(strategy, game, seat, table) == action, game.turn
            moves += 1
        game.apply(action)
    return moves


def test_a_person_and_a_bot_process(live_server, tmp_path):
    """A library client hosts and plays; the bot joins, waits for the start and answers
    every turn with the move its strategy makes from that seat's view of the game."""
    api = Client(live_server.url, retries=1, backoff=0.05)
    host = api.create_game("hana", max_players=2, seed=SEED)
    gid = host.game_id
    env = client_env(live_server.url, tmp_path)
    proc = bot(gid, env, "--strategy", "hat", "--name", "robo")
    try:
        assert proc.stdout is not None
        head = proc.stdout.readline() + proc.stdout.readline()  # seated, then waiting
        api.start(gid, token=host.token)
        view = play_as_human(api, gid, host.token)
        code, out, err = finish(proc)
    finally:
        proc.kill()
    assert code == 0, err
    out = head + out
    assert f"robo (hat bot) joined at game {gid}, seat 2." in out
    assert "Waiting for the host to start the game." in out
    assert (
        "The game is on: hana, robo. hat plays hat only when every seat does: at this table "
        "it plays conventions." in out
    )
    assert f"final score {view['result']['score']}/25" in out

    # A hat bot next to a person plays the conventions, which a person can read.
    moves = assert_bot_decided(api, gid, "hat", 1, [None, "hat"])
    assert assert_bot_decided(api, gid, "conventions", 1) == moves
    assert moves == len([line for line in out.splitlines() if line.startswith("turn ")])


def test_a_bot_waits_out_a_server_that_goes_away(own_server, tmp_path):
    """Through a proxy that loses the answer to the bot's first move (the library sends it
    again and the server answers with the original result), then the server goes away
    and comes back mid-game."""
    api = Client(own_server.url, retries=1, backoff=0.05)
    host = api.create_game("hana", max_players=2, seed=SEED)
    gid = host.game_id
    env = client_env(own_server.url, tmp_path)
    proxy = FaultProxy(own_server.port)
    dropped: list[str] = []

    def drop_first_answer(phase: str, method: str, target: str) -> str:
        if phase == "request":
            return "forward"
        if method == "POST" and target.endswith("/actions") and not dropped:
            dropped.append(target)
            return "drop"
        return "deliver"

    proxy.set(drop_first_answer)
    proc = bot(gid, env, "--json", "--name", "robo", "--server", proxy.url)
    try:
        assert proc.stdout is not None
        assert json.loads(proc.stdout.readline())["type"] == "seat"
        assert json.loads(proc.stdout.readline())["code"] == "lobby"
        api.start(gid, token=host.token)
        play_as_human(api, gid, host.token, stop_at=4)  # the bot waits for us at turn 4
        own_server.crash()
        time.sleep(2.5)  # two failed polls: the bot says the server is away
        own_server.start()  # same port, same Redis
        view = play_as_human(api, gid, host.token)
        code, out, err = finish(proc)
    finally:
        proc.kill()
        proxy.close()
    assert code == 0, err
    assert dropped
    lines = [json.loads(line) for line in out.splitlines()]
    codes = [m.get("code") for m in lines if m["type"] == "message"]
    assert codes.index("server_down") < codes.index("server_up")
    assert lines[-1]["result"] == view["result"]
    moves = [m for m in lines if m["type"] == "move"]
    assert [m["turn"] for m in moves] == list(range(1, view["turn"], 2))
    assert [m["repeated"] for m in moves[:2]] == [True, False]
    assert assert_bot_decided(api, gid, DEFAULT_STRATEGY, 1) == len(moves)


def test_ctrl_c_in_the_lobby_gives_the_seat_back_and_bad_strategies_are_named(
    live_server, tmp_path
):
    api = Client(live_server.url)
    host = api.create_game("hana", max_players=3)
    env = client_env(live_server.url, tmp_path)
    proc = bot(host.game_id, env, "--json")
    try:
        first = json.loads(proc.stdout.readline())
        assert first["type"] == "seat" and first["name"] == f"{DEFAULT_STRATEGY}-bot"
        assert json.loads(proc.stdout.readline())["code"] == "lobby"
        proc.send_signal(signal.SIGINT)
        code, out, _ = finish(proc, 10)
    finally:
        proc.kill()
    assert code == 130
    assert json.loads(out.splitlines()[-1])["code"] == "left"
    assert [p["name"] for p in api.game(host.game_id)["players"]] == ["hana"]

    wrong = subprocess.run(
        [*client_command(), "bot", host.game_id, "--strategy", "psychic"],
        env=env,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert wrong.returncode == 1
    choices = ", ".join(sorted(STRATEGIES))
    assert wrong.stderr == f'hanabi-client: No strategy "psychic": choose from {choices}.\n'
