"""Request parsing and response helpers shared by the resources."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
from flask import Response, request
from marshmallow import Schema, ValidationError
from werkzeug.routing import IntegerConverter

from ..table.refusals import Invalid, Refused, Unavailable
from .field_messages import FieldProblems

#: Methods whose body this API reads (PUT and PATCH too, should a route ever take them).
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class PathNumber(IntegerConverter):
    """A number in a path (``<int:seat>``, ``<int:card_order>``): ASCII digits, at most
    four. Werkzeug's own converter reads any script's digits ("/players/٣" is seat 3) and
    any length; a path that is not one of these names no resource (404)."""

    regex = r"[0-9]{1,4}"


def is_json(mimetype: str) -> bool:
    return mimetype == "application/json" or (
        mimetype.startswith("application/") and mimetype.endswith("+json")
    )


def refuse_non_json() -> None:
    """415 for a body that is not declared JSON.

    A browser sends text/plain, form and multipart bodies cross-site without a CORS
    preflight; refusing them keeps other sites' pages from acting through a visitor's
    browser. A POST with an empty body (``/start``, ``/terminate``) needs no type: there is
    nothing to misread, and what it asks needs a bearer token no other site can send.
    """
    if request.method not in BODY_METHODS:
        return
    if not request.content_length and not request.headers.get("Transfer-Encoding"):
        return
    declared = request.headers.get("Content-Type")
    if declared is None:
        raise Refused(
            "unsupported_media_type", "Send the body as 'Content-Type: application/json'."
        )
    if not is_json(request.mimetype):
        raise Refused(
            "unsupported_media_type",
            "This API reads JSON bodies, not {given}: send 'Content-Type: application/json'.",
            given=repr(request.mimetype or declared),
        )


def load_body(schema: Schema | Callable[[dict[str, Any]], Schema]) -> dict[str, Any]:
    """The JSON body validated by ``schema`` (or by the schema that ``schema(data)`` picks):
    400 for bad JSON or fields, 413 if too big."""
    raw = request.get_data(cache=True)  # raises 413 past MAX_CONTENT_LENGTH
    if request.content_length and len(raw) < request.content_length:
        # The connection ended inside the body (the client went away, or a server that
        # shuts down cut it): nothing was done, so the same request may come again.
        raise Unavailable(
            "body_cut",
            "The request's body did not all arrive (the connection was cut), so nothing "
            "was done: send it again.",
            retry_after=1,
        )
    if not raw.strip():
        raise Invalid("malformed_json", "This request needs a JSON body.")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        raise Invalid("malformed_json", "The request body is not valid JSON.") from None
    if not isinstance(data, dict):
        raise Invalid("validation_error", "The request body must be a JSON object.")
    try:
        if not isinstance(schema, Schema):
            schema = schema(data)
        return schema.load(data)
    except ValidationError as exc:
        raise body_refusal(exc.messages_dict) from None


def body_refusal(messages: dict[str, Any]) -> Invalid:
    """The 400 for a body its schema refused with ``messages`` (field -> sentences), said
    in the request's language when it is answered (:mod:`.field_messages`)."""
    return Invalid(
        "validation_error",
        "The request body is not valid: {problems}",
        problems=FieldProblems(messages),
        errors=messages,
    )


def load_optional_body(schema: Schema) -> dict[str, Any]:
    """Like :func:`load_body`, but no body (or an empty one) means the defaults."""
    if not request.get_data(cache=True).strip():
        return schema.load({})
    return load_body(schema)


def load_query(schema: Schema) -> dict[str, Any]:
    if not request.query_string:
        return schema.load({})  # the defaults (cheap: no fields to check)
    try:
        return schema.load(request.args.to_dict())
    except ValidationError as exc:
        raise Invalid(
            "invalid_query",
            "The query string is not valid: {problems}",
            problems=FieldProblems(exc.messages_dict),
            errors=exc.messages_dict,
        ) from None


def json_response(
    data: Any, status: int = 200, headers: dict[str, str] | None = None, *, raw: bool = False
) -> Response:
    body = data if raw else orjson.dumps(data)
    response = Response(body, status=status, mimetype="application/json")
    for name, value in (headers or {}).items():
        response.headers[name] = value
    return response


def if_none_match(etag: str) -> bool:
    """Whether the request's If-None-Match names ``etag`` (weak comparison)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    for tag in header.split(","):
        tag = tag.strip()
        if tag == "*" or tag.removeprefix("W/") == etag:
            return True
    return False
