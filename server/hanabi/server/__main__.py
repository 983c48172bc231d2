"""``python -m hanabi.server``: serve the API with gunicorn (threaded workers).

Without ``REDIS_URL`` in the environment, starts a private redis-server with its
append-only file under ``./var/redis`` (games survive a restart) and stops it on exit.
"""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

from .redis_process import RedisProcess

#: gunicorn's longest request line (its maximum; default 4094): far past every documented
#: input (ids of 64 characters, cursors of 100, even percent-encoded); longer ones get 414
#: problem+json (:mod:`hanabi.server.gunicorn_errors`).
LIMIT_REQUEST_LINE = 8190


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m hanabi.server", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HANABI_HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("HANABI_PORT", "8000")))
    parser.add_argument("--workers", type=int, default=int(os.environ.get("HANABI_WORKERS", "2")))
    parser.add_argument(
        "--threads", type=int, default=int(os.environ.get("HANABI_THREADS", "64")),
        help="threads per worker (long-polls each hold one)",
    )  # fmt: skip
    parser.add_argument("--data", default=os.environ.get("HANABI_DATA", "var/redis"))
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
    try:
        return gunicorn.wait()
    finally:
        if gunicorn.poll() is None:
            gunicorn.terminate()
            gunicorn.wait()
        if redis_proc is not None:
            redis_proc.stop()


if __name__ == "__main__":
    raise SystemExit(main())
