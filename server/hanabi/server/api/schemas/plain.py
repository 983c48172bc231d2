"""Marshmallow's refusals in plain words, once for every schema.

A refused request body reaches a person: its messages are the ``errors`` and ``detail`` of
the 400 problem (:func:`hanabi.server.api.http.load_body`), which clients print as they are.
Marshmallow's defaults speak to programmers ("Length must be between 8 and 256.", "Not a
valid integer.", "Missing data for required field."); this module's :class:`Schema`, the
base of every schema of the service, rewrites them as what to do ("Use 8 to 256
characters.", "Use a whole number.", "This field is required."). A field's own message
(``error=``/``error_messages=`` in its declaration) is kept: it is already written for
people.
"""

from __future__ import annotations

import copy
from typing import Any

import marshmallow
from marshmallow import fields, validate

from ...table.refusals import plural

REQUIRED = "This field is required."
UNKNOWN = "This field is not accepted here."
NOT_AN_OBJECT = "Use a JSON object."

#: Messages for a field by kind, whatever the field: key -> sentence.
COMMON = {
    "required": REQUIRED,
    "null": "This field cannot be null.",
    "validator_failed": "This value is not accepted.",
    "type": NOT_AN_OBJECT,  # Nested
}
#: "invalid" (and a few other keys) by field class; the first class the field is wins.
BY_KIND: tuple[tuple[type[fields.Field], dict[str, str]], ...] = (
    (fields.Integer, {"invalid": "Use a whole number.", "too_large": "Use a smaller number."}),
    (
        fields.Number,
        {
            "invalid": "Use a number.",
            "too_large": "Use a smaller number.",
            "special": "Use a finite number.",
        },
    ),
    (fields.Boolean, {"invalid": "Use true or false."}),
    (
        fields.DateTime,
        {
            "invalid": "Use a date and time (RFC 3339, e.g. 2026-12-06T20:00:00Z).",
            "invalid_awareness": "Use a date and time with its time zone (e.g. ending in Z).",
        },
    ),
    (
        fields.String,
        {"invalid": "Use text (a JSON string).", "invalid_utf8": "Use text in UTF-8."},
    ),
    (fields.List, {"invalid": "Use a list (a JSON array)."}),
    (fields.Tuple, {"invalid": "Use a list (a JSON array)."}),
    (fields.Dict, {"invalid": NOT_AN_OBJECT}),
)


def _defaults(cls: type[fields.Field]) -> dict[str, str]:
    """The messages a field class has unless a declaration overrides them (what
    :class:`marshmallow.fields.Field` merges in its constructor)."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        out.update(getattr(klass, "default_error_messages", {}))
    return out


def _length(v: validate.Length, field: fields.Field) -> str:
    unit = "item" if isinstance(field, (fields.List, fields.Tuple, fields.Dict)) else "character"
    if v.equal is not None:
        return f"Use exactly {plural(v.equal, unit)}."
    if v.min is not None and v.max is not None:
        return f"Use {v.min} to {plural(v.max, unit)}."
    if v.min is not None:
        return f"Use at least {plural(v.min, unit)}."
    return f"Use at most {plural(v.max, unit)}."


def _range(v: validate.Range, field: fields.Field) -> str:
    what = "a whole number" if isinstance(field, fields.Integer) else "a number"
    low, high = v.min is not None, v.max is not None
    if low and high and v.min_inclusive and v.max_inclusive:
        return f"Use {what} from {v.min} to {v.max}."
    if low and not high and v.min_inclusive:
        return f"Use {what} of {v.min} or more."
    if high and not low and v.max_inclusive:
        return f"Use {what} of {v.max} or less."
    bounds = []
    if low:
        bounds.append(f"{'at least' if v.min_inclusive else 'more than'} {v.min}")
    if high:
        bounds.append(f"{'at most' if v.max_inclusive else 'less than'} {v.max}")
    return f"Use {what} of {' and '.join(bounds)}."


def _plain_validator(v: Any, field: fields.Field) -> Any:
    """``v`` with a plain message, unless its declaration gave one of its own."""
    text = None
    if isinstance(v, validate.Length) and v.error is None:
        text = _length(v, field)
    elif isinstance(v, validate.Range) and v.error is None:
        text = _range(v, field)
    elif isinstance(v, validate.OneOf) and v.error == validate.OneOf.default_message:
        text = "Use one of: {choices}."
    elif isinstance(v, validate.Equal) and v.error == validate.Equal.default_message:
        text = "Use {other}."
    elif isinstance(v, validate.Regexp) and v.error == validate.Regexp.default_message:
        text = "This is not in the form expected here."
    if text is None:
        return v
    plain = copy.copy(v)
    plain.error = text
    return plain


def plain_field(field: fields.Field) -> None:
    """Give ``field`` (and the fields inside it: a list's items, a mapping's keys and
    values) plain messages wherever it still has marshmallow's."""
    defaults = _defaults(type(field))
    plain = dict(COMMON)
    for kind, messages in BY_KIND:
        if isinstance(field, kind):
            plain.update(messages)
            break
    for key, text in plain.items():
        if key in field.error_messages and field.error_messages[key] == defaults.get(key):
            field.error_messages[key] = text
    field.validators = [_plain_validator(v, field) for v in field.validators]
    inner: list[fields.Field | None] = []
    if isinstance(field, fields.List):
        inner.append(field.inner)
    if isinstance(field, fields.Tuple):
        inner.extend(field.tuple_fields)
    if isinstance(field, fields.Dict):
        inner += [field.key_field, field.value_field]
    for each in inner:
        if each is not None:
            plain_field(each)


class Schema(marshmallow.Schema):
    """The base of the service's schemas: marshmallow's refusals in plain words."""

    error_messages = {"unknown": UNKNOWN, "type": NOT_AN_OBJECT}  # noqa: RUF012 (marshmallow's)

    def on_bind_field(self, field_name: str, field_obj: fields.Field) -> None:
        plain_field(field_obj)
