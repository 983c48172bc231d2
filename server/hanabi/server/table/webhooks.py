"""Signed webhooks: an account's URL is called when it becomes the account's move, and
when a game it plays in ends (docs/turns.md).

Each call is a POST of a JSON body with ``X-Hanabi-Signature: sha256=<hex HMAC-SHA256 of
the body, keyed by the hook's secret>``, ``X-Hanabi-Timestamp`` (Unix seconds, also the
body's ``sent_at``: the signature covers it) and ``X-Hanabi-Delivery`` (the delivery's
id: the same on every retry, so a receiver can ignore a repeat). The secret is made by
the server and shown once, when the hook is set.

Nothing is sent from a request: the commit that moved the turn only queues the delivery
(:mod:`hanabi.server.storage.webhooks`); a bounded pool of delivery threads in every
process (:class:`WebhookWorker`, ``HANABI_WEBHOOK_WORKERS``) claims and sends them, so a
slow or dead receiver stalls no move. Each call must be over, connecting, TLS and the
answer's headers together, within ``HANABI_WEBHOOK_TIMEOUT`` seconds (connecting within
``HANABI_WEBHOOK_CONNECT_TIMEOUT``): a receiver that answers a byte at a time is cut off
there (:mod:`hanabi.server.ops.exchange`). At most ``HANABI_WEBHOOK_SHARE`` calls of one
account are under way at once, across the service; its other due calls wait in their
place in line while everyone else's are claimed past them, so one account's receivers
that never answer hold that many threads, never the pool.

A delivery answered 2xx is done; a 5xx, 429, timeout or network failure is retried after
``HANABI_WEBHOOK_BACKOFF`` seconds, doubled each time, at most ``HANABI_WEBHOOK_ATTEMPTS``
tries; any other answer ends it. Every try goes into the account's delivery log, a
failure with its ``error_code`` (:class:`DeliveryError`) and its sentence, said in the
reader's language by the API. URLs to addresses that are not public are refused, when set
and at every delivery (:mod:`hanabi.server.ops.outbound`), unless
``HANABI_WEBHOOK_PRIVATE`` is on.

The bodies hold what every seat of the game sees: names, the turn, the score, the
deadline; never a card.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import queue
import secrets
import ssl
import threading
from enum import StrEnum
from typing import Any

import orjson

from ..ops import outbound
from ..ops.config import enabled
from ..ops.exchange import BadAnswer
from ..ops.times import iso, now_ms
from ..storage import redis_errors
from ..storage.webhooks import WebhookStore
from .refusals import Invalid, NotFound
from .wording import N_

log = logging.getLogger("hanabi.server.webhooks")

#: Seconds a claimed delivery is held past its deadline before another worker may take it.
LEASE_MARGIN = 10.0
#: Longest wait (seconds) of an idle claimer before it looks at the queue again (shorter
#: when the first retry comes sooner: half the backoff, at least 50 ms).
POLL = 1.0


class WebhookEvent(StrEnum):
    YOUR_TURN = "your_turn"  # it became the account's move
    GAME_OVER = "game_over"  # a game the account plays in ended
    MENTION = "mention"  # a chat line @named the account (table/chat.py)
    FRIEND_TABLE = "friend_table"  # an account it follows opened a table (table/friends.py)


class DeliveryOutcome(StrEnum):
    """What became of one try, in the delivery log."""

    DELIVERED = "delivered"  # answered 2xx
    RETRYING = "retrying"  # failed; tried again later
    FAILED = "failed"  # failed for good (out of attempts, or a 4xx)
    REFUSED = "refused"  # the URL or its address is not allowed (no request was made)


class DeliveryError(StrEnum):
    """Why a try got no status, in the delivery log's ``error_code``."""

    TIMEOUT = "timeout"  # not over within its deadline (or not connected within its own)
    CONNECTION = "connection_failed"  # refused, reset, unreachable
    TLS = "tls_failed"  # the handshake failed (a certificate not for the host...)
    BAD_ANSWER = "bad_answer"  # not HTTP, or closed before its headers ended
    UNRESOLVED = "unresolved"  # the host has no address now
    REFUSED = "address_refused"  # the URL or an address of its host may not be called


#: Each error's sentence (the API says it in the reader's language).
ERROR_WORDS = {
    DeliveryError.TIMEOUT: N_(
        "Timed out: the receiver did not connect and answer within the time one call may take."
    ),
    DeliveryError.CONNECTION: N_(
        "The connection to the receiver failed (refused, reset or unreachable)."
    ),
    DeliveryError.TLS: N_(
        "The TLS handshake with the receiver failed (is its certificate valid for its host?)."
    ),
    DeliveryError.BAD_ANSWER: N_(
        "The receiver's answer was not HTTP, or it closed the connection before answering."
    ),
    DeliveryError.UNRESOLVED: N_("The receiver's host could not be resolved."),
    DeliveryError.REFUSED: outbound.ADDRESS_REFUSED,
}


def error_of(exc: Exception) -> DeliveryError:
    """What a failed call's exception says, as the log's code."""
    if isinstance(exc, outbound.NotAllowed):
        return DeliveryError.REFUSED
    if isinstance(exc, outbound.Unresolved):
        return DeliveryError.UNRESOLVED
    if isinstance(exc, TimeoutError):  # DeadlineExceeded among them
        return DeliveryError.TIMEOUT
    if isinstance(exc, ssl.SSLError):
        return DeliveryError.TLS
    if isinstance(exc, BadAnswer):
        return DeliveryError.BAD_ANSWER
    return DeliveryError.CONNECTION


def sign(secret: str, body: bytes) -> str:
    """The signature header's value for ``body``."""
    return "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()


class Webhooks:
    """Setting an account's hook, queueing its calls, delivering them."""

    def __init__(self, store: WebhookStore, config: dict[str, Any]) -> None:
        self.store = store
        self.allow_private = enabled(config["HANABI_WEBHOOK_PRIVATE"])
        self.attempts = max(1, config["HANABI_WEBHOOK_ATTEMPTS"])
        self.backoff = config["HANABI_WEBHOOK_BACKOFF"]
        self.timeout = config["HANABI_WEBHOOK_TIMEOUT"]  # the whole call's deadline
        self.connect_timeout = min(config["HANABI_WEBHOOK_CONNECT_TIMEOUT"], self.timeout)
        self.log_size = config["HANABI_WEBHOOK_LOG"]

    # -- the account's hook ------------------------------------------------------------

    def put(self, account_id: str, url: str) -> dict[str, Any]:
        """Set (or replace) the hook: a new secret, returned this once."""
        try:
            target = outbound.check_url(url, self.allow_private)
            outbound.resolve(target, self.allow_private)
        except outbound.NotAllowed as refusal:
            raise Invalid("webhook_url_refused", refusal.template, **refusal.params) from None
        except outbound.Unresolved:  # said as a refused address is: no map of names
            raise Invalid("webhook_url_refused", outbound.ADDRESS_REFUSED) from None
        secret = secrets.token_urlsafe(32)
        created = now_ms()
        self.store.put(account_id, url, secret, created)
        return {"url": url, "secret": secret, "created": iso(created)}

    def current(self, account_id: str) -> dict[str, Any] | None:
        """The account's webhook without its secret, or None."""
        hook = self.store.get(account_id)
        return None if hook is None else {"url": hook["url"], "created": iso(int(hook["created"]))}

    def get(self, account_id: str) -> dict[str, Any]:
        hook = self.current(account_id)
        if hook is None:
            raise no_webhook()
        return hook

    def delete(self, account_id: str) -> None:
        if not self.store.delete(account_id):
            raise no_webhook()

    def deliveries(self, account_id: str, limit: int) -> dict[str, Any]:
        return {"deliveries": self.store.deliveries(account_id, min(limit, self.log_size))}

    # -- queueing ----------------------------------------------------------------------

    def notify(self, account_id: str, event: WebhookEvent, data: dict[str, Any]) -> None:
        """Queue a call of the account's hook (due now); the commit's caller waits for one
        Redis write, never for the receiver."""
        delivery_id = secrets.token_hex(8)
        job = {"account": account_id, "event": event.value, "data": data, "attempt": 0}
        if not self.store.enqueue(delivery_id, now_ms(), job):
            log.warning("webhook queue full: %s for account %s dropped", event, account_id)

    # -- delivering --------------------------------------------------------------------

    def claim(self) -> tuple[str, dict[str, Any]] | None:
        """A due delivery whose account is under its share, claimed for its deadline and a
        margin (past that, a worker that died is taken to have died); None if none is."""
        return self.store.claim(now_ms(), int((self.timeout + LEASE_MARGIN) * 1000))

    def deliver(self, delivery_id: str, job: dict[str, Any]) -> DeliveryOutcome:
        """One try of a claimed delivery: logged, then finished or rescheduled."""
        account = job["account"]
        hook = self.store.get(account)
        if hook is None:  # the hook was deleted since: nothing to call
            self.store.finish(delivery_id, account)
            return DeliveryOutcome.FAILED
        attempt = job["attempt"] + 1
        sent = now_ms()
        body = orjson.dumps({"event": job["event"], "delivery": delivery_id,
                             "sent_at": sent // 1000, **job["data"]})  # fmt: skip
        headers = {
            "X-Hanabi-Signature": sign(hook["secret"], body),
            "X-Hanabi-Timestamp": str(sent // 1000),
            "X-Hanabi-Delivery": delivery_id,
            "X-Hanabi-Event": job["event"],
        }
        status: int | None = None
        error: DeliveryError | None = None
        try:
            status = outbound.post(hook["url"], body, headers, self.allow_private,
                                   deadline=self.timeout,
                                   connect_timeout=self.connect_timeout)  # fmt: skip
        except (outbound.NotAllowed, OSError) as exc:
            error = error_of(exc)
            log.info("webhook %s of account %s: %s (%s)", delivery_id, account, error, exc)
        if error is DeliveryError.REFUSED:
            outcome = DeliveryOutcome.REFUSED
        else:
            outcome = self._outcome(status, attempt)
        done = now_ms()
        entry = {"id": delivery_id, "event": job["event"], "game_id": job["data"].get("game_id"),
                 "attempt": attempt, "status": status, "outcome": outcome.value,
                 "error": None if error is None else ERROR_WORDS[error],
                 "error_code": None if error is None else error.value,
                 "at": iso(sent), "ms": done - sent}  # fmt: skip
        if outcome is DeliveryOutcome.RETRYING:
            due = done + int(self.backoff * 2 ** (attempt - 1) * 1000)
            entry["next_try"] = iso(due)
            self.store.retry(delivery_id, due, {**job, "attempt": attempt}, done)
        else:
            self.store.finish(delivery_id, account, done)
        self.store.log(account, entry)
        return outcome

    def _outcome(self, status: int | None, attempt: int) -> DeliveryOutcome:
        """Done on a 2xx; retried on no answer, a 5xx or a 429 while attempts are left."""
        if status is not None and 200 <= status < 300:
            return DeliveryOutcome.DELIVERED
        retryable = status is None or status >= 500 or status == 429
        if retryable and attempt < self.attempts:
            return DeliveryOutcome.RETRYING
        return DeliveryOutcome.FAILED


def no_webhook() -> NotFound:
    return NotFound("no_webhook", "This account has no webhook; PUT one first.")


class WebhookWorker:
    """The process's pool of delivery threads (``HANABI_WEBHOOK_WORKERS``; 0: this process
    delivers none), fed by one claiming thread.

    The claimer takes a free place in the pool, then claims a delivery for it; with no
    place free it claims nothing, so a process never holds more claimed calls than it
    can send at once, and a call waits in Redis, where another process may take it. One
    claimer (not every thread polling) keeps an idle server's Redis quiet."""

    def __init__(self, webhooks: Webhooks, threads: int) -> None:
        self.webhooks = webhooks
        self.threads = threads
        self.stop = threading.Event()
        self.free = threading.Semaphore(threads)
        self.jobs: queue.SimpleQueue[tuple[str, dict[str, Any]] | None] = queue.SimpleQueue()
        self.running: list[threading.Thread] = []

    def start(self) -> WebhookWorker:
        self.running = [
            threading.Thread(target=self.send, name=f"hanabi-webhooks-{i}", daemon=True)
            for i in range(self.threads)
        ]
        self.running.append(
            threading.Thread(target=self.claim, name="hanabi-webhooks-claim", daemon=True)
        )
        for thread in self.running:
            thread.start()
        return self

    def claim(self) -> None:
        """Claim due deliveries for the pool's free threads (the idle look: every ``POLL``
        seconds, sooner when the first retry comes sooner: half the backoff)."""
        poll = min(POLL, max(0.05, self.webhooks.backoff / 2))
        while not self.stop.is_set():
            if not self.free.acquire(timeout=poll):  # every thread busy
                continue
            claimed = None
            try:
                claimed = self.webhooks.claim()
            except redis_errors.ERRORS as exc:  # Redis away: the next look retries
                log.warning("webhooks: Redis unavailable (%s)", type(exc).__name__)
            except Exception:
                log.exception("webhook claim failed")
            if claimed is None:
                self.free.release()
                self.stop.wait(poll)
            else:
                self.jobs.put(claimed)

    def send(self) -> None:
        """Deliver what the claimer hands over, one at a time."""
        while (claimed := self.jobs.get()) is not None:
            try:
                self.webhooks.deliver(*claimed)
            except redis_errors.ERRORS as exc:  # its lease runs out: it is tried again
                log.warning("webhooks: Redis unavailable (%s)", type(exc).__name__)
            except Exception:
                log.exception("webhook delivery failed")
            finally:
                self.free.release()

    def close(self, timeout: float = 5.0) -> None:
        self.stop.set()
        for _ in range(self.threads):
            self.jobs.put(None)
        for thread in self.running:
            thread.join(timeout)
