"""Marshmallow's per-field messages, kept as catalogue ids until the answer is written.

A refused body or query string answers 400 with its per-field messages (the problem's
``errors``, summed up in its ``detail``: :func:`hanabi.server.api.http.load_body`). Every
such message is a :class:`FieldMessage`: a ``str`` (marshmallow stores, merges and copies
it as one; ``str()`` is the English) that also remembers its message id and values. The
schemas' messages are FieldMessages (:mod:`.schemas.plain` gives every field and validator
one); marshmallow fills a validator's values (``{choices}``, ``{min}``) by calling
``format`` on it, which a FieldMessage answers with a FieldMessage. The problem is then
written in the request's language (:func:`say_errors`, :class:`FieldProblems`); a message
that is a plain ``str`` is looked up in the catalogue as it is.
"""

from __future__ import annotations

from typing import Any

from ..table.wording import Gettext, Ngettext, Words, fill


def _same(msgid: str) -> str:
    return msgid


def _english_plural(singular: str, plural: str, n: int) -> str:
    return singular if n == 1 else plural


class FieldMessage(str):
    """A field's message: ``FieldMessage("Use one of: {choices}.")``; marshmallow's
    ``format(choices=...)`` keeps the id and adds the values. Values may be words
    themselves (a ``Plural``)."""

    msgid: str
    params: dict[str, Any]

    def __new__(cls, msgid: str, /, **params: Any) -> FieldMessage:
        try:
            english = fill(msgid, params, _same, _english_plural) if params else msgid
        except (KeyError, IndexError):  # a template whose values marshmallow gives later
            english = msgid
        self = super().__new__(cls, english)
        self.msgid = msgid
        self.params = params
        return self

    def format(self, *args: Any, **kwargs: Any) -> FieldMessage:  # type: ignore[override]
        return FieldMessage(self.msgid, **{**kwargs, **self.params})

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        try:
            return Words(self.msgid, **self.params).render(gettext, ngettext)
        except (KeyError, IndexError):
            return gettext(self.msgid)


def say_message(message: Any, gettext: Gettext, ngettext: Ngettext) -> Any:
    """One message in the language of ``gettext`` (a plain string: as a message id)."""
    if isinstance(message, FieldMessage):
        return message.render(gettext, ngettext)
    if isinstance(message, str):
        return gettext(message) if message else message
    return message


def say_errors(errors: Any, gettext: Gettext, ngettext: Ngettext) -> Any:
    """Marshmallow's ``messages_dict`` (fields -> lists of messages, nested) with every
    message in the language of ``gettext``; the field names stay as they are."""
    if isinstance(errors, dict):
        return {k: say_errors(v, gettext, ngettext) for k, v in errors.items()}
    if isinstance(errors, list | tuple):
        return [say_errors(v, gettext, ngettext) for v in errors]
    return say_message(errors, gettext, ngettext)


class FieldProblems:
    """The per-field messages as one sentence a person can act on (``strategy: Use one of:
    conventions, hat.``), in the reader's language: the ``{problems}`` of a 400's detail.
    Marshmallow files a refusal of a whole object (a nested one that is not an object)
    under ``_schema``: that names the object itself."""

    def __init__(self, messages: dict[str, Any]) -> None:
        self.messages = messages

    def render(self, gettext: Gettext, ngettext: Ngettext) -> str:
        return _summarize(say_errors(self.messages, gettext, ngettext))

    def __str__(self) -> str:
        return self.render(_same, _english_plural)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _summarize(messages: dict[str, Any], prefix: str = "") -> str:
    parts = []
    for field, value in messages.items():
        name = prefix.rstrip(".") if field == "_schema" else f"{prefix}{field}"
        if isinstance(value, dict):
            parts.append(_summarize(value, f"{name}."))
        else:
            text = " ".join(map(str, value)) if isinstance(value, list) else str(value)
            parts.append(f"{name}: {text}")
    return " ".join(parts)
