"""How a resource states its contract: :func:`operation` attaches an :class:`Operation`
(schemas, statuses, auth) to each method, and the OpenAPI document is generated from
exactly that (:mod:`.spec`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .schemas.plain import Schema

#: Where the API lives.
PREFIX = "/api/v1"


@dataclass
class Operation:
    """One documented operation: what it takes and every status it answers with."""

    id: str
    summary: str
    responses: dict[int, tuple[type[Schema] | None, str]]
    body: type[Schema] | tuple[type[Schema], ...] | None = None  # a tuple: oneOf
    body_required: bool = True
    query: type[Schema] | None = None
    auth: str = "none"  # none | optional | required
    errors: tuple[int, ...] = ()
    headers: dict[int, dict[str, str]] = field(default_factory=dict)  # response headers
    request_headers: dict[str, str] = field(default_factory=dict)  # optional request headers
    media: dict[int, str] = field(default_factory=dict)  # status -> type, if not JSON
    description: str = ""


def operation(**kwargs: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def attach(fn: Callable[..., Any]) -> Callable[..., Any]:
        fn.operation = Operation(**kwargs)  # type: ignore[attr-defined]
        return fn

    return attach


_SCHEMAS: dict[type[Schema], Schema] = {}


def schema(cls: type[Schema]) -> Schema:
    """The one instance of a schema (made on first use)."""
    if cls not in _SCHEMAS:
        _SCHEMAS[cls] = cls()
    return _SCHEMAS[cls]


def game_url(game_id: str) -> str:
    return f"{PREFIX}/games/{game_id}"
