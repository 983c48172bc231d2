"""A real Redis Cluster for the tests: 3 masters (redis-server in cluster mode on free
ports), slots assigned and nodes introduced with redis-py, torn down afterwards."""

from __future__ import annotations

import socket
import time

import redis

from hanabi.server.redis_process import RedisProcess, free_port

SLOTS = 16384


def _low_free_port() -> int:
    """A free port whose cluster bus port (port + 10000) exists too."""
    while True:
        port = free_port()
        if port + 10000 <= 65535 and free_port_is(port + 10000):
            return port


def free_port_is(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


class RedisClusterProcess:
    """``masters`` redis-servers joined into one cluster; ``url`` names the first node (any
    node will do: the server discovers the others)."""

    def __init__(self, masters: int = 3) -> None:
        self.masters = masters
        self.nodes: list[RedisProcess] = []

    @property
    def url(self) -> str:
        return self.nodes[0].url

    def start(self, timeout: float = 20.0) -> RedisClusterProcess:
        for _ in range(self.masters):
            node = RedisProcess(
                port=_low_free_port(),
                extra_args=[
                    "--cluster-enabled", "yes",
                    "--cluster-config-file", "nodes.conf",
                    "--cluster-node-timeout", "2000",
                ]
            )  # fmt: skip
            self.nodes.append(node.start())
        clients = [redis.Redis(host=n.host, port=n.port) for n in self.nodes]
        share = SLOTS // self.masters
        for i, client in enumerate(clients):
            first = i * share
            last = SLOTS - 1 if i == self.masters - 1 else first + share - 1
            client.execute_command("CLUSTER", "ADDSLOTS", *range(first, last + 1))
        for client in clients[1:]:
            client.execute_command("CLUSTER", "MEET", self.nodes[0].host, self.nodes[0].port)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            infos = [c.cluster("info") for c in clients]
            if all(
                i["cluster_state"] == "ok" and int(i["cluster_known_nodes"]) == self.masters
                for i in infos
            ):
                for client in clients:
                    client.close()
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError("the test cluster did not come up")

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()
        self.nodes = []

    def __enter__(self) -> RedisClusterProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
