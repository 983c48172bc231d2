"""The account routes: creating an account, the bearer's account (its password, its
deletion, its sessions and API keys), and logging in and out (see
:mod:`hanabi.server.table.accounts`)."""

from __future__ import annotations

from flask import Response, current_app, request
from flask_restx import Resource

from ..table.refusals import Invalid
from .context import address
from .credentials import accounts, current_session, require_account
from .http import json_response, load_body
from .operations import operation, schema
from .schemas.accounts import (
    AccountSchema,
    KeyListSchema,
    KeyRequestSchema,
    LoginSchema,
    MeSchema,
    NewKeySchema,
    PasswordChangeSchema,
    PasswordSchema,
    RegisterSchema,
    SessionSchema,
)
from .turns import webhooks


class AccountsResource(Resource):
    @operation(
        id="register",
        summary="Create an account",
        body=RegisterSchema,
        responses={201: (AccountSchema, "The account (log in to get a session)")},
        errors=(400, 409, 413, 429),
    )
    def post(self) -> Response:
        body = load_body(schema(RegisterSchema))
        current_app.extensions["hanabi_limits"].hit("register", address())
        registry = accounts()
        account = registry.register(body["username"], body["password"], body["bot"])
        return json_response(registry.me(account), 201)


class Me(Resource):
    @operation(
        id="getMe",
        summary="The account the credential belongs to",
        auth="required",
        responses={200: (MeSchema, "The account, with its webhook (or null)")},
        errors=(401,),
    )
    def get(self) -> Response:
        account = require_account()
        return json_response({**accounts().me(account), "webhook": webhooks().current(account.id)})

    @operation(
        id="changePassword",
        summary="Change the password (the old one required); every other session ends",
        description=(
            "Every session of the account but the one making the request ends at once, with "
            "its stream tickets and open event streams; so do the account's API keys unless "
            "`keep_api_keys` is true. The old password is checked like a login (counted "
            "against the failed-login limits)."
        ),
        body=PasswordChangeSchema,
        auth="required",
        responses={204: (None, "Changed")},
        errors=(400, 401, 413, 429),
    )
    def patch(self) -> Response:
        account = require_account()
        body = load_body(schema(PasswordChangeSchema))
        accounts().change_password(
            account,
            body["old_password"],
            body["password"],
            address(),
            current_session(),
            keep_keys=body["keep_api_keys"],
        )
        return Response(status=204)

    @operation(
        id="deleteMe",
        summary="Delete the account with its sessions, keys, profile and statistics",
        description=(
            "The password is required. Every session and API key ends at once, with their "
            "tickets and event streams. A rated game in progress where the account holds a "
            "seat ends at once (terminated by that seat, score 0) and is rated for every "
            "seat, the account's own as a loss. Finished games keep the seat's name as it "
            "was played; the username stays taken for 30 days (HANABI_NAME_HOLD_DAYS), then "
            "is free."
        ),
        body=PasswordSchema,
        auth="required",
        responses={204: (None, "Deleted")},
        errors=(400, 401, 413, 429),
    )
    def delete(self) -> Response:
        account = require_account()
        body = load_body(schema(PasswordSchema))
        # Its rated games in progress end as its loss, settled before the account goes.
        accounts().delete(account, body["password"], address())
        return Response(status=204)


class AllSessions(Resource):
    @operation(
        id="logoutEverywhere",
        summary="Log out everywhere: every session of the account ends",
        description=(
            "Every session of the account ends at once, the bearer's included, with their "
            "stream tickets and open event streams (which close within one keep-alive "
            "period). API keys stay (DELETE /accounts/me/keys/{key_id} revokes one). Send "
            "a session token: an API key gets 400 not_a_session."
        ),
        auth="required",
        responses={204: (None, "Ended")},
        errors=(400, 401),
    )
    def delete(self) -> Response:
        account = require_account()
        if current_session() is None:
            raise Invalid(
                "not_a_session",
                "Log out everywhere from a session you logged in with, not with an API key.",
            )
        accounts().logout_everywhere(account)
        return Response(status=204)


class Keys(Resource):
    @operation(
        id="createApiKey",
        summary="A new API key for a program (the secret is shown once)",
        body=KeyRequestSchema,
        auth="required",
        responses={201: (NewKeySchema, "The key")},
        errors=(400, 401, 409, 413),
    )
    def post(self) -> Response:
        account = require_account()
        body = load_body(schema(KeyRequestSchema))
        return json_response(accounts().create_key(account, body["name"]), 201)

    @operation(
        id="listApiKeys",
        summary="The account's API keys, without their secrets",
        auth="required",
        responses={200: (KeyListSchema, "The keys")},
        errors=(401,),
    )
    def get(self) -> Response:
        return json_response({"keys": accounts().list_keys(require_account())})


class KeyResource(Resource):
    @operation(
        id="deleteApiKey",
        summary="Revoke an API key",
        auth="required",
        responses={204: (None, "Revoked")},
        errors=(401, 404),
    )
    def delete(self, key_id: str) -> Response:
        accounts().delete_key(require_account(), key_id)
        return Response(status=204)


LOGIN_ERRORS = (400, 401, 413, 429)


class Sessions(Resource):
    @operation(
        id="login",
        summary="Log in: a session token",
        description=(
            "The username is matched in any case or compatibility form ('ALICE' is "
            "'alice'). A wrong password and an unknown username get the same 401. Every "
            "attempt is counted before the password is checked, per account and address (10 "
            "wrong in 15 minutes), per account (100 in 24 hours) and per address (20 in 5 "
            "minutes): past one, 429 too_many_failed_logins with Retry-After, even for the "
            "right password from there. Logins are also rate-limited per address (429 "
            "rate_limited, HANABI_LIMIT_LOGIN)."
        ),
        body=LoginSchema,
        responses={201: (SessionSchema, "The session")},
        errors=LOGIN_ERRORS,
    )
    def post(self) -> Response:
        body = load_body(schema(LoginSchema))
        current_app.extensions["hanabi_limits"].hit("login", address())
        return json_response(accounts().login(body["username"], body["password"], address()), 201)


class CurrentSession(Resource):
    @operation(
        id="logout",
        summary="Log out: the bearer's session ends",
        description=(
            "The session ends at once, with its stream tickets and open event streams. Other "
            "sessions stay: DELETE /accounts/me/sessions ends them all."
        ),
        auth="required",
        responses={204: (None, "Ended")},
        errors=(400, 401),
    )
    def delete(self) -> Response:
        require_account()
        if current_session() is None:
            raise Invalid("not_a_session", "This credential is an API key; delete it.")
        token = request.headers["Authorization"].split(None, 1)[1].strip()
        accounts().logout(token)
        return Response(status=204)
