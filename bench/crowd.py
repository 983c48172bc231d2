"""A crowd at one table (issue #49, target 2): how long after a move its spectators have it.

Starts the server as `make run` does (bench/scale.py's ``start_server``), opens one game,
then for each way of waiting (long-polls, then event streams) seats ``--spectators``
anonymous spectators on it and makes ``--rounds`` moves, 1.5 s apart. For each move it
notes, from the move's sending, when every spectator had the new view, and when the
mover had its own answer. The reference in the same run is the same game watched by
``--few`` spectators: the cost of the crowd is the ratio between the two.

Targets: 1,000 spectators get the move with p50 <= 50 ms and p99 <= 150 ms, long-polls
and streams alike.

    .venv/bin/python bench/crowd.py [--spectators 1000] [--few 10] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from api import API, Conn, new_game, send_move
from scale import Waiters, ms, report, start_server, stop_server
from timing import percentile

KINDS = {"hold": "long-poll", "stream": "event-stream"}


def watch(port: int, waiters: Waiters, how: str, count: int, rounds: int, rng: random.Random):
    """``count`` spectators of a new game waiting by ``how``; (delays of every spectator
    over the rounds, the mover's answers), in seconds from each move's sending."""
    waiters.ask("drop")
    conn = Conn(port)
    gid, tokens, game = new_game(conn, rng)
    _, _, headers = conn.request("GET", f"{API}/games/{gid}")
    share = count // len(waiters.procs)
    held = waiters.hold([(gid, headers["etag"], share)] * len(waiters.procs), how)
    delays, answers = [], []
    for _ in range(rounds):
        time.sleep(1.5)
        waiters.woken()
        sent = time.monotonic()
        answers.append(send_move(conn, gid, tokens, game, rng) - sent)
        time.sleep(1.5)
        woken = [at - sent for g, at in waiters.woken() if g == gid]
        if len(woken) != held:
            print(f"  {len(woken)} of {held} {KINDS[how]} spectators woken", flush=True)
        delays += woken
    return delays, answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--spectators", type=int, default=1000, help="the crowd")
    parser.add_argument("--few", type=int, default=10, help="the reference's spectators")
    parser.add_argument("--rounds", type=int, default=5, help="moves per measure")
    parser.add_argument("--procs", type=int, default=2, help="spectators' processes")
    parser.add_argument("--workers", type=int, default=None, help="server workers")
    args = parser.parse_args()
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    proc, port, data = start_server(args.workers)
    waiters = Waiters(port, args.procs)
    rng = random.Random(49)
    checks = []
    try:
        print(f"server: python -m hanabi.server (make run's defaults), port {port}", flush=True)
        for how, kind in KINDS.items():
            few, _ = watch(port, waiters, how, args.few, args.rounds, rng)
            crowd, answers = watch(port, waiters, how, args.spectators, args.rounds, rng)
            p50, p99 = percentile(crowd, 0.5), percentile(crowd, 0.99)
            print(f"{kind}: {args.spectators} spectators p50 {ms(p50)}, p99 {ms(p99)}, "
                  f"max {ms(max(crowd))}; {args.few} spectators p50 "
                  f"{ms(percentile(few, 0.5))} (x{p50 / percentile(few, 0.5):.1f}); "
                  f"the mover's answer p50 {ms(percentile(answers, 0.5))}",
                  flush=True)  # fmt: skip
            checks += [(f"{kind} spectators p50 <= 50 ms", p50 <= 0.050),
                       (f"{kind} spectators p99 <= 150 ms", p99 <= 0.150)]  # fmt: skip
        return report(checks)
    finally:
        waiters.stop()
        stop_server(proc, data)


if __name__ == "__main__":
    raise SystemExit(main())
