"""python -m hanabi.server: serve the Hanabi API with gunicorn.

Without REDIS_URL in the environment, it starts a private redis-server with its
append-only file under the --data directory (games survive a restart), restarts it if it
dies, and stops it on exit. Every option can also be set in the environment (HANABI_HOST,
HANABI_PORT, HANABI_WORKERS, HANABI_THREADS, HANABI_DATA).
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from .redis_process import RedisProcess, RedisSupervisor

#: gunicorn's longest request line (its maximum; default 4094): far past every documented
#: input (ids of 64 characters, cursors of 100, even percent-encoded); longer ones get 414
#: problem+json (:mod:`hanabi.server.gunicorn_errors`).
LIMIT_REQUEST_LINE = 8190


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
        "--threads", type=int, default=int(os.environ.get("HANABI_THREADS", "64")),
        help="threads per worker; long-polls each hold one (HANABI_THREADS)",
    )  # fmt: skip
    parser.add_argument(
        "--data", default=os.environ.get("HANABI_DATA", "var/redis"),
        help="directory of the embedded redis-server's append-only file, used without "
        "REDIS_URL (HANABI_DATA)",
    )  # fmt: skip
    args = parser.parse_args(argv)

    env = dict(os.environ)
    redis_proc = None
    if not env.get("REDIS_URL"):
        redis_proc = RedisProcess(directory=args.data, persist=True).start()
        env["REDIS_URL"] = redis_proc.url
        print(f"embedded redis-server on {redis_proc.url} (AOF in {args.data})", flush=True)
    command = [
        sys.executable, "-m", "gunicorn",
        "--bind", f"{args.host}:{args.port}",
        "--worker-class", "gthread",
        "--workers", str(args.workers),
        "--threads", str(args.threads),
        "--timeout", "60",
        "--graceful-timeout", "5",
        "--access-logfile", "-",
        "--no-control-socket",
        "--limit-request-line", str(LIMIT_REQUEST_LINE),
        "hanabi.server:create_app()",
    ]  # fmt: skip
    gunicorn = subprocess.Popen(command, env=env)

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


if __name__ == "__main__":
    raise SystemExit(main())
