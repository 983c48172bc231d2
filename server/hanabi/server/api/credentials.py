"""The request's credential: a seat token, or an account's session token or API key.

An account credential is resolved once per request (kept on ``flask.g``) and stands in the
game service for the account's *principal* (``acct:<id>``), which a seat bound to the
account answers to like its own token (:func:`hanabi.server.table.seats.seat_by_hash`).
"""

from __future__ import annotations

from flask import current_app, g, request

from ..table.accounts import Account, Accounts, Credential, CredentialKind, expired, revoked
from ..table.refusals import Unauthorized


def accounts() -> Accounts:
    return current_app.extensions["hanabi"].accounts


def bearer_token() -> str | None:
    """What the request's bearer token acts as (:func:`principal`), None without one; 401
    for a malformed header."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or len(token) > 200 or ":" in token:
        raise Unauthorized("invalid_auth", "Use 'Authorization: Bearer <token>'.")
    return principal(token)


def principal(token: str) -> str:
    """What the game service matches seats against for ``token`` (resolved once per
    request)."""
    if g.get("hanabi_token") == token:
        return g.hanabi_principal
    resolved = accounts().resolve(token)
    g.hanabi_principal = token if resolved is None else resolved[0].principal
    if resolved is not None:
        g.hanabi_account, g.hanabi_credential = resolved
    g.hanabi_token = token
    return g.hanabi_principal


def current_account() -> Account | None:
    """The account whose credential the request bears, None for none (or a seat token)."""
    bearer_token()
    return g.get("hanabi_account")


def viewer() -> tuple[str | None, str | None]:
    """The request's bearer (:func:`bearer_token`) and, for an account's credential, the
    account's id: a viewer who is no seat of a game may identify as an account to see the
    cards of a seed it finished (docs/seeds.md)."""
    token = bearer_token()
    account = g.get("hanabi_account")
    return token, None if account is None else account.id


def require_account() -> Account:
    account = current_account()
    if account is None:
        raise Unauthorized("account_required", "Log in first: this needs an account.")
    return account


def current_credential() -> Credential | None:
    """What the request's account credential stands on (None for none, or a seat token)."""
    current_account()
    return g.get("hanabi_credential")


def current_session() -> str | None:
    """The hash of the session token the request bears (None for an API key)."""
    credential = current_credential()
    if credential is None or credential.kind is not CredentialKind.SESSION:
        return None
    return credential.ref


def still_valid() -> None:
    """401 if the request's account credential ended since it was resolved (a long-poll
    that waited while its session was logged out answers nothing more)."""
    credential = g.get("hanabi_credential")
    if credential is not None and not accounts().alive(credential):
        raise expired() if credential.kind is CredentialKind.SESSION else revoked()
