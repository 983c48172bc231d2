"""Marshmallow's refusals in plain words, once for every schema.

A refused request body reaches a person: its messages are the ``errors`` and ``detail`` of
the 400 problem (:func:`hanabi.server.api.http.load_body`), which clients print as they are.
Marshmallow's defaults speak to programmers ("Length must be between 8 and 256.", "Not a
valid integer.", "Missing data for required field."); this module's :class:`Schema`, the
base of every schema of the service, rewrites them as what to do ("Use 8 to 256
characters.", "Use a whole number.", "This field is required."). A field's own message
(``error=``/``error_messages=`` in its declaration) is kept: it is already written for
people.

Every message is a :class:`~hanabi.server.api.field_messages.FieldMessage`: English here,
and its catalogue id and values kept, so that the answer says it in the reader's language
(docs/i18n.md). A field's own message should be one too (a plain ``str`` is looked up as
a message id as it is).
"""

from __future__ import annotations

import copy
from typing import Any

import marshmallow
from marshmallow import fields, validate

from ...table.wording import Plural
from ..field_messages import FieldMessage

REQUIRED = FieldMessage("This field is required.")
UNKNOWN = FieldMessage("This field is not accepted here.")
NOT_AN_OBJECT = FieldMessage("Use a JSON object.")
WHOLE_NUMBER = FieldMessage("Use a whole number.")
SMALLER = FieldMessage("Use a smaller number.")
LIST = FieldMessage("Use a list (a JSON array).")

#: Messages for a field by kind, whatever the field: key -> sentence.
COMMON = {
    "required": REQUIRED,
    "null": FieldMessage("This field cannot be null."),
    "validator_failed": FieldMessage("This value is not accepted."),
    "type": NOT_AN_OBJECT,  # Nested
}
#: "invalid" (and a few other keys) by field class; the first class the field is wins.
BY_KIND: tuple[tuple[type[fields.Field], dict[str, FieldMessage]], ...] = (
    (fields.Integer, {"invalid": WHOLE_NUMBER, "too_large": SMALLER}),
    (
        fields.Number,
        {
            "invalid": FieldMessage("Use a number."),
            "too_large": SMALLER,
            "special": FieldMessage("Use a finite number."),
        },
    ),
    (fields.Boolean, {"invalid": FieldMessage("Use true or false.")}),
    (
        fields.DateTime,
        {
            "invalid": FieldMessage("Use a date and time (RFC 3339, e.g. 2026-12-06T20:00:00Z)."),
            "invalid_awareness": FieldMessage(
                "Use a date and time with its time zone (e.g. ending in Z)."
            ),
        },
    ),
    (
        fields.String,
        {
            "invalid": FieldMessage("Use text (a JSON string)."),
            "invalid_utf8": FieldMessage("Use text in UTF-8."),
        },
    ),
    (fields.List, {"invalid": LIST}),
    (fields.Tuple, {"invalid": LIST}),
    (fields.Dict, {"invalid": NOT_AN_OBJECT}),
)


def _defaults(cls: type[fields.Field]) -> dict[str, str]:
    """The messages a field class has unless a declaration overrides them (what
    :class:`marshmallow.fields.Field` merges in its constructor)."""
    out: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        out.update(getattr(klass, "default_error_messages", {}))
    return out


#: A length's bound, as many characters (or items) as it says: (exactly, at least, at
#: most, up to), each (singular, plural) with the count {n}. Whole phrases, so that a
#: language says each count the way its words around it want it.
CHARACTERS = (
    Plural(0, "exactly {n} character", "exactly {n} characters"),
    Plural(0, "at least {n} character", "at least {n} characters"),
    Plural(0, "at most {n} character", "at most {n} characters"),
    Plural(0, "to {n} character", "to {n} characters"),
)
ITEMS = (
    Plural(0, "exactly {n} item", "exactly {n} items"),
    Plural(0, "at least {n} item", "at least {n} items"),
    Plural(0, "at most {n} item", "at most {n} items"),
    Plural(0, "to {n} item", "to {n} items"),
)


def _count(which: Plural, n: int) -> Plural:
    return Plural(n, which.singular, which.plural)


def _length(v: validate.Length, field: fields.Field) -> FieldMessage:
    kind = ITEMS if isinstance(field, (fields.List, fields.Tuple, fields.Dict)) else CHARACTERS
    exactly, at_least, at_most, up_to = kind
    if v.equal is not None:
        return FieldMessage("Use {count}.", count=_count(exactly, v.equal))
    if v.min is not None and v.max is not None:
        return FieldMessage("Use {low} {up_to}.", low=v.min, up_to=_count(up_to, v.max))
    if v.min is not None:
        return FieldMessage("Use {count}.", count=_count(at_least, v.min))
    return FieldMessage("Use {count}.", count=_count(at_most, v.max))


def _range(v: validate.Range, field: fields.Field) -> FieldMessage:
    whole = isinstance(field, fields.Integer)
    low, high = v.min is not None, v.max is not None
    values = {"low": v.min, "high": v.max}
    if low and high and v.min_inclusive and v.max_inclusive:
        if whole:
            return FieldMessage("Use a whole number from {low} to {high}.", **values)
        return FieldMessage("Use a number from {low} to {high}.", **values)
    if low and not high and v.min_inclusive:
        if whole:
            return FieldMessage("Use a whole number of {low} or more.", **values)
        return FieldMessage("Use a number of {low} or more.", **values)
    if high and not low and v.max_inclusive:
        if whole:
            return FieldMessage("Use a whole number of {high} or less.", **values)
        return FieldMessage("Use a number of {high} or less.", **values)
    bounds = []
    if low:
        if v.min_inclusive:
            bounds.append(FieldMessage("at least {low}", **values))
        else:
            bounds.append(FieldMessage("more than {low}", **values))
    if high:
        if v.max_inclusive:
            bounds.append(FieldMessage("at most {high}", **values))
        else:
            bounds.append(FieldMessage("less than {high}", **values))
    if len(bounds) == 2:
        if whole:
            return FieldMessage(
                "Use a whole number of {low} and {high}.", low=bounds[0], high=bounds[1]
            )
        return FieldMessage("Use a number of {low} and {high}.", low=bounds[0], high=bounds[1])
    if whole:
        return FieldMessage("Use a whole number of {bound}.", bound=bounds[0])
    return FieldMessage("Use a number of {bound}.", bound=bounds[0])


def _plain_validator(v: Any, field: fields.Field) -> Any:
    """``v`` with a plain message, unless its declaration gave one of its own."""
    text = None
    if isinstance(v, validate.Length) and v.error is None:
        text = _length(v, field)
    elif isinstance(v, validate.Range) and v.error is None:
        text = _range(v, field)
    elif isinstance(v, validate.OneOf) and v.error == validate.OneOf.default_message:
        text = FieldMessage("Use one of: {choices}.")
    elif isinstance(v, validate.Equal) and v.error == validate.Equal.default_message:
        text = FieldMessage("Use {other}.")
    elif isinstance(v, validate.Regexp) and v.error == validate.Regexp.default_message:
        text = FieldMessage("This is not in the form expected here.")
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
