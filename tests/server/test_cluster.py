"""N API nodes on one Redis Cluster: two real gunicorn processes (as `make run` serves)
on a real 3-master cluster that the test run starts itself.

A long-poll and a stream held by node 1 wake on a change committed through node 2; 20
identical submissions spread over both nodes act exactly once; bots play on it; changes go
out on sharded pub/sub to the node that owns the game only.
"""

from __future__ import annotations

import http.client
import secrets
import threading
import time
from collections.abc import Iterator

import pytest
import redis
from process_helpers import Http, _stop, gunicorn
from redis.cluster import RedisCluster

from hanabi.server.ops.redis_process import free_port
from hanabi.server.storage.keys import channel
from hanabi.server.storage.slots import bucket_slots, slot_of

API = "/api/v1"


@pytest.fixture(scope="module")
def nodes(redis_cluster_url: str) -> Iterator[tuple[int, int]]:
    ports = (free_port(), free_port())
    procs = [gunicorn(p, {"REDIS_URL": redis_cluster_url}) for p in ports]
    try:
        yield ports
    finally:
        for proc in procs:
            _stop(proc)


def _started(http: Http, players: int = 2, seed: str = "cl") -> tuple[str, list[str]]:
    status, _, created = http("POST", "/games", {"name": "p0", "seed": seed})
    assert status == 201, created
    gid, tokens = created["id"], [created["token"]]
    for i in range(1, players):
        tokens.append(http("POST", f"/games/{gid}/players", {"name": f"p{i}"})[2]["token"])
    assert http("POST", f"/games/{gid}/start", token=tokens[0])[0] == 200
    return gid, tokens


def _clue(http: Http, gid: str, tokens: list[str]) -> dict:
    view = http("GET", f"/games/{gid}", token=tokens[0])[2]
    return {"turn": 0, "type": "clue", "target": 1, "rank": view["hands"][1][0]["rank"]}


def test_the_cluster_has_three_masters_and_games_spread_over_them(
    redis_cluster_url: str, nodes: tuple[int, int]
) -> None:
    cluster = RedisCluster.from_url(redis_cluster_url)
    assert len(cluster.get_primaries()) == 3
    http = Http(nodes[0])
    ids = [_started(http, seed=f"spread{i}")[0] for i in range(12)]
    assert all(slot_of(gid) in bucket_slots() for gid in ids)
    owners = {cluster.get_node_from_key(f"{{game:{gid}}}:g").name for gid in ids}
    assert len(owners) >= 2  # 12 games over 64 bucket slots on 3 masters
    listed = {g["id"] for g in http("GET", "/games?status=playing&limit=100")[2]["games"]}
    assert set(ids) <= listed  # the index (global keys) works across nodes


def test_a_long_poll_and_a_stream_on_node_1_wake_on_a_change_through_node_2(
    redis_cluster_url: str, nodes: tuple[int, int]
) -> None:
    one, two = Http(nodes[0]), Http(nodes[1])
    gid, tokens = _started(one, seed="wake")
    _, headers, _ = one("GET", f"/games/{gid}", token=tokens[1])
    polled: list[tuple[int, float]] = []
    streamed: list[tuple[bytes, float]] = []
    ready = threading.Event()

    def poll() -> None:
        status, _, _ = Http(nodes[0])(
            "GET", f"/games/{gid}?wait=10", token=tokens[1], **{"If-None-Match": headers["ETag"]}
        )
        polled.append((status, time.monotonic()))

    def stream() -> None:
        conn = http.client.HTTPConnection("127.0.0.1", nodes[0], timeout=10)
        conn.request("GET", f"{API}/games/{gid}/stream", headers={"Accept": "text/event-stream"})
        response = conn.getresponse()
        buffer = b""
        while buffer.count(b"event: view") < 2:
            chunk = response.read1(65536)
            if not chunk:
                break
            buffer += chunk
            if b"event: view" in buffer:
                ready.set()
        streamed.append((buffer, time.monotonic()))
        conn.close()

    threads = [threading.Thread(target=poll), threading.Thread(target=stream)]
    for thread in threads:
        thread.start()
    assert ready.wait(5)
    time.sleep(0.3)  # the long-poll is held too
    # While they wait, node 1 listens on the game's sharded channel, on the game's node.
    cluster = RedisCluster.from_url(redis_cluster_url)
    owner = cluster.get_node_from_key(channel(gid))
    direct = redis.Redis(host=owner.host, port=owner.port)
    assert direct.execute_command("PUBSUB", "SHARDNUMSUB", channel(gid))[1] >= 1
    assert direct.execute_command("PUBSUB", "NUMSUB", channel(gid))[1] == 0
    acted = time.monotonic()
    assert two("POST", f"/games/{gid}/actions", _clue(two, gid, tokens), token=tokens[0])[0] == 201
    for thread in threads:
        thread.join(10)
    assert polled and polled[0][0] == 200 and polled[0][1] - acted < 1.0
    assert streamed and b"event: clue" in streamed[0][0] and streamed[0][1] - acted < 1.0


def test_twenty_identical_submissions_over_both_nodes_act_once(nodes: tuple[int, int]) -> None:
    gid, tokens = _started(Http(nodes[0]), seed="once")
    clue = _clue(Http(nodes[0]), gid, tokens)
    clients = [Http(nodes[i % 2]) for i in range(20)]
    for client in clients:
        client("GET", "/health")
    barrier = threading.Barrier(20)
    statuses: list[int] = [0] * 20

    def submit(i: int) -> None:
        barrier.wait()
        statuses[i] = clients[i]("POST", f"/games/{gid}/actions", clue, token=tokens[0])[0]

    threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert sorted(statuses) == [200] * 19 + [201]
    events = Http(nodes[1])("GET", f"/games/{gid}/events", token=tokens[1])[2]["events"]
    assert [e["type"] for e in events].count("clue") == 1


def test_bots_play_on_the_cluster(nodes: tuple[int, int]) -> None:
    http = Http(nodes[1])
    _, _, created = http("POST", "/games", {"name": "host", "max_players": 4})
    gid, token = created["id"], created["token"]
    for _ in range(3):
        assert (
            http("POST", f"/games/{gid}/bots", {"strategy": "conventions"}, token=token)[0] == 201
        )
    assert http("POST", f"/games/{gid}/start", {"watch": True}, token=token)[0] == 200
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        view = Http(nodes[0])("GET", f"/games/{gid}")[2]
        if view["status"] == "finished":
            break
        time.sleep(0.2)
    assert view["status"] == "finished" and view["turn"] > 20


def test_a_lobby_chat_read_on_node_1_wakes_on_a_line_said_through_node_2(
    redis_cluster_url: str, nodes: tuple[int, int]
) -> None:
    """The lobby's chat lives in one slot ({game:chat-lobby}) and wakes its held reads by
    sharded pub/sub like a game (docs/chat.md)."""
    one, two = Http(nodes[0]), Http(nodes[1])
    tokens = []
    for name in (f"cl{time.monotonic_ns() % 10**9}", f"cm{time.monotonic_ns() % 10**9}"):
        assert one("POST", "/accounts", {"username": name, "password": "cluster pass"})[0] == 201
        tokens.append(
            one("POST", "/sessions", {"username": name, "password": "cluster pass"})[2]["token"]
        )
    last = one("GET", "/chat/lobby", token=tokens[0])[2]["last"]
    read: list[tuple[int, dict, float]] = []

    def wait() -> None:
        status, _, body = Http(nodes[0])(
            "GET", f"/chat/lobby?after={last}&wait=10", token=tokens[0]
        )
        read.append((status, body, time.monotonic()))

    waiter = threading.Thread(target=wait)
    waiter.start()
    time.sleep(0.5)
    said = time.monotonic()
    status, _, body = two("POST", "/chat/lobby", {"text": "over the cluster"}, token=tokens[1])
    assert status == 201, body
    waiter.join(10)
    assert read and read[0][0] == 200 and read[0][2] - said < 1.0
    assert [line["text"] for line in read[0][1]["lines"]] == ["over the cluster"]


def test_history_tags_and_imports_on_the_cluster(nodes: tuple[int, int]) -> None:
    """docs/history.md's keys are cluster-safe: a game ended through node 1 is tagged,
    searched and imported through node 2."""
    one, two = Http(nodes[0]), Http(nodes[1])
    tokens, names = [], []
    for _ in range(2):
        name = f"h{secrets.token_hex(5)}"
        assert one("POST", "/accounts", {"username": name, "password": "a long password"})[0] == 201
        tokens.append(
            one("POST", "/sessions", {"username": name, "password": "a long password"})[2]["token"]
        )
        names.append(name)
    status, _, created = one("POST", "/games", {"seed": "cluster history"}, token=tokens[0])
    assert status == 201, created
    gid = created["id"]
    assert one("POST", f"/games/{gid}/players", {}, token=tokens[1])[0] == 201
    assert one("POST", f"/games/{gid}/start", token=tokens[0])[0] == 200
    for token in tokens:
        one("POST", f"/games/{gid}/votes", {"end": True}, token=token)
    status, _, tagged = two("PUT", f"/games/{gid}/tags/cluster", token=tokens[1])
    assert status == 200, tagged
    status, _, found = two("GET", f"/history?player={names[0]}&tag=cluster")
    assert [g["game_id"] for g in found["games"]] == [gid]
    assert two("GET", "/history/variants/0")[0] == 200
    export = one("GET", f"/games/{gid}/export", token=tokens[0])[2]
    status, _, imported = two("POST", "/imports", export, token=tokens[0])
    assert status == 201, imported
    status, _, found = one("GET", f"/history?player={names[1]}&imported=true")
    assert [g["game_id"] for g in found["games"]] == [imported["game_id"]]
