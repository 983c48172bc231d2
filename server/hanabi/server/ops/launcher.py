"""python -m hanabi.server: serve the Hanabi API with gunicorn's gevent workers (a waiting
long-poll or stream holds a socket, not a thread; see hanabi.server.ops.serving).

Without REDIS_URL in the environment, it starts a private redis-server with its
append-only file under the --data directory (games survive a restart), restarts it if it
dies, and stops it on exit. That Redis listens on a unix socket only (redis.sock in the
data directory, mode 0600; the directory is made 0700), or with --redis-tcp on a
127.0.0.1 port that wants the password kept in the data directory's redis.password
(mode 0600). It runs with maxmemory --redis-maxmemory and maxmemory-policy noeviction:
when full, changes answer 503 and no game is ever evicted. With REDIS_URL set, that Redis
is used as it is and none is started.

It refuses to start (exit status 1, nothing started) when the port is already in use, or
when another launcher holds the data directory (its launcher.lock).

Every option can also be set in the environment (HANABI_HOST, HANABI_PORT,
HANABI_WORKERS, HANABI_WORKER_CONNECTIONS, HANABI_DATA, HANABI_REDIS_TCP,
HANABI_REDIS_MAXMEMORY, HANABI_ACCESS_LOG).
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
from importlib.metadata import version

from .config import SETTINGS, enabled
from .data_dir import DataDirBusy, DataDirLock, make_private
from .ports import busy_port_sentence
from .redis_process import Listen, RedisProcess, RedisSupervisor
from .serving import WORKER_CONNECTIONS, gunicorn_command, raise_open_files

#: How often (seconds) the launcher looks whether its embedded redis-server still runs.
SUPERVISE_EVERY = 0.2


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter, argparse.RawDescriptionHelpFormatter):
    """--help shows each option's default, and the description as written."""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m hanabi.server",
        description=__doc__,
        formatter_class=HelpFormatter,
    )
    parser.add_argument(
        "--version", action="version", version=f"hanabi-server {version('hanabi-server')}"
    )
    parser.add_argument(
        "--host", default=os.environ.get("HANABI_HOST", "127.0.0.1"),
        help="address to listen on (0.0.0.0: every interface; HANABI_HOST)",
    )  # fmt: skip
    parser.add_argument(
        "--port", type=int, default=int(os.environ.get("HANABI_PORT", "8000")),
        help="port to listen on (HANABI_PORT)",
    )  # fmt: skip
    parser.add_argument(
        "--workers", type=int, default=int(os.environ.get("HANABI_WORKERS", "2")),
        help="gunicorn worker processes (HANABI_WORKERS)",
    )  # fmt: skip
    parser.add_argument(
        "--connections", type=int,
        default=int(os.environ.get("HANABI_WORKER_CONNECTIONS", WORKER_CONNECTIONS)),
        help="connections each worker serves at once, held long-polls and streams "
        "included (HANABI_WORKER_CONNECTIONS)",
    )  # fmt: skip
    parser.add_argument(
        "--data", default=os.environ.get("HANABI_DATA", "var/redis"),
        help="directory of the embedded redis-server's append-only file, socket (or "
        "password file) and lock, used without REDIS_URL (HANABI_DATA)",
    )  # fmt: skip
    parser.add_argument(
        "--redis-tcp", action=argparse.BooleanOptionalAction,
        default=enabled(os.environ.get("HANABI_REDIS_TCP") or SETTINGS["HANABI_REDIS_TCP"][0]),
        help="the embedded Redis listens on a 127.0.0.1 port with a password (in the data "
        "directory's redis.password) instead of a unix socket (HANABI_REDIS_TCP)",
    )  # fmt: skip
    parser.add_argument(
        "--redis-maxmemory",
        default=os.environ.get("HANABI_REDIS_MAXMEMORY") or SETTINGS["HANABI_REDIS_MAXMEMORY"][0],
        help="the embedded Redis's maxmemory, e.g. 256mb or 2gb (its policy is noeviction: "
        "when full, changes answer 503 storage_unavailable; HANABI_REDIS_MAXMEMORY)",
    )  # fmt: skip
    parser.add_argument(
        "--access-log", action=argparse.BooleanOptionalAction,
        default=os.environ.get("HANABI_ACCESS_LOG", "1") not in ("0", "off", "false"),
        help="one JSON line per request on stdout (HANABI_ACCESS_LOG=off: none)",
    )  # fmt: skip
    args = parser.parse_args(argv)

    # Refuse before starting anything: a busy port would only fail later, in gunicorn.
    busy = busy_port_sentence(args.host, args.port)
    if busy:
        print(busy, file=sys.stderr, flush=True)
        return 1
    env = dict(os.environ)
    redis_proc = lock = None
    if not env.get("REDIS_URL"):
        try:
            data = make_private(args.data)
            lock = DataDirLock(data).acquire()
            assert lock.fd is not None
            listen = Listen.PASSWORD if args.redis_tcp else Listen.SOCKET
            redis_proc = RedisProcess(
                directory=data, persist=True, listen=listen, maxmemory=args.redis_maxmemory,
                pass_fds=(lock.fd,),  # the lock lasts as long as this Redis does
            ).start()  # fmt: skip
        except (DataDirBusy, OSError, RuntimeError) as exc:
            print(f"not started: {exc}", file=sys.stderr, flush=True)
            return 1
        env["REDIS_URL"] = redis_proc.url
        print(
            f"embedded redis-server on {redis_proc.shown_url} (AOF in {data}, "
            f"maxmemory {args.redis_maxmemory})",
            flush=True,
        )
    # Every held long-poll or stream is an open socket: raise the open-files limit as far
    # as the OS allows (the workers inherit it) and say so when it stays short.
    wanted = args.workers * args.connections + 1024
    soft, hard = raise_open_files(wanted)
    if soft != resource.RLIM_INFINITY and soft < wanted:
        print(
            f"open-files limit is {soft} (hard limit {hard}): fewer than the {wanted} that "
            f"{args.workers} workers x {args.connections} connections could use; raise it "
            "with `ulimit -n` (or LimitNOFILE= in a systemd unit)",
            flush=True,
        )
    bind = f"{args.host}:{args.port}"
    command = gunicorn_command(
        bind, args.workers, connections=args.connections, access_log=args.access_log
    )
    gunicorn = subprocess.Popen(command, env=env)
    shown = "127.0.0.1" if args.host in ("0.0.0.0", "::", "") else args.host
    print(f"play in a browser: http://{shown}:{args.port}/ (the API: /api/v1/docs)", flush=True)

    def forward(signum: int, _frame: object) -> None:
        gunicorn.send_signal(signum)

    signal.signal(signal.SIGTERM, forward)
    signal.signal(signal.SIGINT, forward)
    supervisor = None if redis_proc is None else RedisSupervisor(redis_proc)
    try:
        while True:
            try:
                return gunicorn.wait(timeout=SUPERVISE_EVERY)
            except subprocess.TimeoutExpired:
                if supervisor is not None:
                    supervisor.check()
    finally:
        if gunicorn.poll() is None:
            gunicorn.terminate()
            gunicorn.wait()
        if redis_proc is not None:
            redis_proc.stop()
        if lock is not None:
            lock.release()
