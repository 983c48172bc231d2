"""Signed webhooks: an account's URL is called when it becomes the account's move, and
when a game it plays in ends (docs/turns.md).

Each call is a POST of a JSON body with ``X-Hanabi-Signature: sha256=<hex HMAC-SHA256 of
the body, keyed by the hook's secret>``, ``X-Hanabi-Timestamp`` (Unix seconds, also the
body's ``sent_at``: the signature covers it) and ``X-Hanabi-Delivery`` (the delivery's
id: the same on every retry, so a receiver can ignore a repeat). The secret is made by
the server and shown once, when the hook is set.

Nothing is sent from a request: the commit that moved the turn only queues the delivery
(:mod:`hanabi.server.storage.webhooks`); the delivery threads of every process
(:class:`WebhookWorker`) claim and send them, so a slow or dead receiver stalls nobody.
A delivery answered 2xx is done; a 5xx, 429, timeout or network failure is retried after
``HANABI_WEBHOOK_BACKOFF`` seconds, doubled each time, at most ``HANABI_WEBHOOK_ATTEMPTS``
tries; any other answer ends it. Every try goes into the account's delivery log. URLs to
private or loopback addresses are refused, when set and at every delivery
(:mod:`hanabi.server.ops.outbound`), unless ``HANABI_WEBHOOK_PRIVATE`` is on.

The bodies hold what every seat of the game sees: names, the turn, the score, the
deadline; never a card.
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import threading
from enum import StrEnum
from typing import Any

import orjson

from ..ops import outbound
from ..ops.config import enabled
from ..ops.times import iso, now_ms
from ..storage import redis_errors
from ..storage.webhooks import WebhookStore
from .refusals import Invalid, NotFound

log = logging.getLogger("hanabi.server.webhooks")

#: Seconds a claimed delivery is held before another worker may take it (above the
#: delivery timeout).
LEASE_MARGIN = 10.0
#: Longest wait (seconds) of an idle delivery thread before it looks at the queue again
#: (shorter when the first retry comes sooner: half the backoff, at least 50 ms).
POLL = 1.0


class WebhookEvent(StrEnum):
    YOUR_TURN = "your_turn"  # it became the account's move
    GAME_OVER = "game_over"  # a game the account plays in ended


class DeliveryOutcome(StrEnum):
    """What became of one try, in the delivery log."""

    DELIVERED = "delivered"  # answered 2xx
    RETRYING = "retrying"  # failed; tried again later
    FAILED = "failed"  # failed for good (out of attempts, or a 4xx)
    REFUSED = "refused"  # the URL or its address is not allowed (no request was made)


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
        self.timeout = config["HANABI_WEBHOOK_TIMEOUT"]
        self.log_size = config["HANABI_WEBHOOK_LOG"]

    # -- the account's hook ------------------------------------------------------------

    def put(self, account_id: str, url: str) -> dict[str, Any]:
        """Set (or replace) the hook: a new secret, returned this once."""
        try:
            target = outbound.check_url(url, self.allow_private)
            outbound.resolve(target, self.allow_private)
        except (outbound.NotAllowed, outbound.Unresolved) as refusal:
            raise Invalid("webhook_url_refused", refusal.template, **refusal.params) from None
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

    def deliver_due(self) -> int:
        """Claim and deliver due calls until none is due; how many were tried."""
        tried = 0
        lease = int((self.timeout + LEASE_MARGIN) * 1000)
        while (claimed := self.store.claim(now_ms(), lease)) is not None:
            self.deliver(*claimed)
            tried += 1
        return tried

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
        error: str | None = None
        refused = False
        try:
            status = outbound.post(hook["url"], body, headers, self.timeout, self.allow_private)
        except outbound.NotAllowed as refusal:
            error, refused = str(refusal), True
        except OSError as exc:
            error = f"{type(exc).__name__}: {exc}"[:200]
        outcome = DeliveryOutcome.REFUSED if refused else self._outcome(status, attempt)
        entry = {"id": delivery_id, "event": job["event"], "game_id": job["data"].get("game_id"),
                 "attempt": attempt, "status": status, "error": error, "outcome": outcome.value,
                 "at": iso(sent), "ms": now_ms() - sent}  # fmt: skip
        if outcome is DeliveryOutcome.RETRYING:
            wait = self.backoff * 2 ** (attempt - 1)
            entry["next_try"] = iso(now_ms() + int(wait * 1000))
            self.store.enqueue(delivery_id, now_ms() + int(wait * 1000),
                               {**job, "attempt": attempt}, bounded=False)  # fmt: skip
        else:
            self.store.finish(delivery_id, account)
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
    """Daemon threads that deliver due webhook calls (``HANABI_WEBHOOK_WORKERS`` of them
    per process; 0: this process delivers none)."""

    def __init__(self, webhooks: Webhooks, threads: int) -> None:
        self.webhooks = webhooks
        self.threads = threads
        self.stop = threading.Event()
        self.running: list[threading.Thread] = []

    def start(self) -> WebhookWorker:
        self.running = [
            threading.Thread(target=self.run, name=f"hanabi-webhooks-{i}", daemon=True)
            for i in range(self.threads)
        ]
        for thread in self.running:
            thread.start()
        return self

    def run(self) -> None:
        poll = min(POLL, max(0.05, self.webhooks.backoff / 2))
        while not self.stop.wait(poll):
            try:
                self.webhooks.deliver_due()
            except redis_errors.ERRORS as exc:  # Redis away: the next look retries
                log.warning("webhooks: Redis unavailable (%s)", type(exc).__name__)
            except Exception:
                log.exception("webhook delivery failed")

    def close(self, timeout: float = 5.0) -> None:
        self.stop.set()
        for thread in self.running:
            thread.join(timeout)
