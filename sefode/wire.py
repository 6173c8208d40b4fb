"""Typed request and response bodies of the HTTP API: the base of every body type, and decoding a body through one.

A body type is a ``msgspec.Struct`` (``Body``): its fields say the JSON shape (types, which keys are required, which
are known), and the OpenAPI document (``sefode.server.openapi``) is generated from the same types. Decoding checks
the shape only; what a value means (a name under the text rule, a reason a moderator must give, a game's options)
stays with the code that uses it, so its refusal codes do not change. Constraints that those rules check (a name's
length after NFC normalisation, say) are written for the document alone (``Meta(extra_json_schema=...)``).

A field whose JSON type is wrong is refused with ``message/invalid`` and msgspec's reason, unless the type names a
refusal of its own for that field (``Body.refusals``): the code and message the route gave before it was typed.
Unknown keys are refused with every one named, unless the type allows them (``forbid_unknown_fields=False``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar, NamedTuple, TypeVar

import msgspec


class Refusal(NamedTuple):
    code: str
    message: str
    status: int = 400


class Body(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A JSON object the API takes or gives."""

    refusals: ClassVar[Mapping[str, Refusal]] = {}
    """How a field whose JSON type is wrong (or that is missing) is refused, when not with ``message/invalid``."""


B = TypeVar("B", bound=Body)


class Answer(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A JSON object the API answers with. The route builds its answer as this type (or checks the data it has
    through it, ``answer_of``) and sends it encoded from it, so the OpenAPI document (generated from the same type)
    cannot drift from what is sent: a key the type lacks, a key it requires that is missing or a value of another
    type fails at once. A key absent from some answers is ``UNSET`` (left out), never a null."""


A = TypeVar("A")


def answer_of(data: object, kind: type[A]) -> A:
    """``data`` (built by the rules, plain JSON) as the answer type ``kind``; ``msgspec.ValidationError`` when it does
    not fit (a bug: the route's answer and its type differ)."""
    return msgspec.convert(data, kind)


def encoded(value: object) -> bytes:
    """An answer as the JSON bytes sent (``msgspec.json``: the same JSON the routes sent before)."""
    return msgspec.json.encode(value)


class Refused(Exception):
    """A refusal with a stable ``code`` and the HTTP status to answer with, raised by the rules under the routes
    (``sefode.accounts`` names it ``AccountError``; ``sefode.awards`` raises it for a tournament it refuses), so that
    neither needs the other for it."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status


class BadBody(Exception):
    """A body that does not fit its type."""

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal.message)
        self.refusal = refusal


_FIELD = re.compile(r"at `\$\.([A-Za-z_][A-Za-z0-9_]*)|required field `([A-Za-z_][A-Za-z0-9_]*)`")


def decode(data: Mapping[str, Any], kind: type[B]) -> B:
    """``data`` (a JSON object, already under the text rule) as a ``kind``; ``BadBody`` when it does not fit."""
    if kind.__struct_config__.forbid_unknown_fields:
        unknown = sorted(set(data) - set(kind.__struct_fields__))
        if unknown:
            raise BadBody(Refusal("message/invalid", f"unknown key(s) {', '.join(unknown)}"))
    try:
        return msgspec.convert(data, kind, strict=True)
    except msgspec.ValidationError as err:
        found = _FIELD.search(str(err))
        field = (found.group(1) or found.group(2)) if found else None
        refusal = kind.refusals.get(field) if field is not None else None
        raise BadBody(refusal or Refusal("message/invalid", f"the body: {err}")) from None
