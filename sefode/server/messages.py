"""Validation of client messages (docs/protocol.md). A bad message raises ClientError and changes nothing."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson

from sefode import text
from sefode.server.record import BotLevel

MAX_MESSAGE_BYTES = 4096
LEVELS = tuple(level.value for level in BotLevel)
"""The levels a message may name for a table's bot (``BotLevel``)."""


def encode(message: Any) -> str:
    """A server message as JSON text (orjson: views are large and every seat gets its own)."""
    return orjson.dumps(message).decode()


class ClientError(Exception):
    """A refusal sent back to the client as ``{"type": "error", "code", "message"}``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _invalid(message: str) -> ClientError:
    return ClientError("message/invalid", message)


Check = Callable[[str, Any], Any]


def _text(rule: Callable[[object], str | None], *, optional: bool = False) -> Check:
    """A string field under the text rule (sefode.text)."""

    def check(key: str, value: Any) -> Any:
        if value is None and optional:
            return None
        try:
            return rule(value)
        except text.TextError as err:
            raise ClientError(err.code, err.message) from None

    return check


def _token(key: str, hi: int) -> Callable[[object], str]:
    return lambda value: text.token(value, key, hi)


def _room_password(value: object) -> str:
    return text.password(value, lo=0)


def _invite(value: object) -> str | None:
    if value == "":
        return None
    return text.token(value, "invite")


def _int(lo: int, hi: int) -> Check:
    def check(key: str, value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
            raise _invalid(f"'{key}' must be a whole number from {lo} to {hi}")
        return value

    return check


def _bool(key: str, value: Any) -> Any:
    if not isinstance(value, bool):
        raise _invalid(f"'{key}' must be true or false")
    return value


def _level(key: str, value: Any) -> Any:
    if value is not None and value not in LEVELS:
        raise _invalid(f"'{key}' must be one of {', '.join(LEVELS)} or null")
    return value


def _object(key: str, value: Any) -> Any:
    if not isinstance(value, dict) or len(value) > 8:
        raise _invalid(f"'{key}' must be a JSON object such as {{\"bid\": 1}}")
    return value


def _pairs(key: str, value: Any) -> Any:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise _invalid(f"'{key}' must be a list of 1 to 4 pairs of seats")
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise _invalid(f"every entry of '{key}' must be a pair of seats [a, b]")
        for seat in pair:
            _int(0, 7)(key, seat)
    return value


def _teams(key: str, value: Any) -> Any:
    if not isinstance(value, list) or not 1 <= len(value) <= 4:
        raise _invalid(f"'{key}' must be a list of 1 to 4 objects with name, colour, symbol")
    for team in value:
        if not isinstance(team, dict) or set(team) - {"name", "colour", "symbol"}:
            raise _invalid(f"every entry of '{key}' is an object with only name, colour, symbol")
        if "name" in team:
            team["name"] = _text(text.name)("name", team["name"])
        if "colour" in team:
            colour = team["colour"]
            if not (
                isinstance(colour, str)
                and len(colour) == 7
                and colour[0] == "#"
                and all(c in "0123456789abcdefABCDEF" for c in colour[1:])
            ):
                raise _invalid("'colour' must look like #rrggbb")
        if "symbol" in team:
            team["symbol"] = _text(text.symbol)("symbol", team["symbol"])
    return value


# type -> {field: (check, required)}
SCHEMAS: dict[str, dict[str, tuple[Check, bool]]] = {
    "join": {
        "room": (_text(_token("room", 64)), True),
        "password": (_text(_room_password, optional=True), False),
        "invite": (_text(_invite, optional=True), False),
        "updates": (_bool, False),  # take ``update`` messages after the full state (sefode.server.patches)
    },
    "resync": {},
    "past": {},  # the match's past as the connection's seat may see it (Game.past)
    "sit": {"seat": (_int(0, 7), True)},
    "stand": {},
    "set_seat": {"seat": (_int(0, 7), True), "bot": (_level, True)},
    "set_teams": {"draw": (_bool, False), "pairs": (_pairs, False), "teams": (_teams, False)},
    # ``start``: a test hook, read by ``sefode.server.startpoint`` (refused unless the server's test hooks are on).
    "start": {"start": (lambda key, value: value, False)},
    "action": {"action": (_object, True), "version": (_int(0, 1 << 31), True)},
    "chat": {"text": (_text(text.chat), True)},
    "pause": {"vote": (_bool, True)},
    "rematch": {"accept": (_bool, True), "match": (_text(_token("match", 64)), False)},
    "react": {"reaction": (_text(_token("reaction", 32)), True)},
    "seat_setup": {"value": (lambda key, value: value, True)},  # the game checks it (Game.check_seat_setup)
    "ping": {},
    "auth": {"token": (_text(_token("token", 128)), True)},
}


def size_in_bytes(raw: str | bytes) -> int:
    """The size of a message as it travelled: UTF-8 bytes, not characters (a lone surrogate counts 3 bytes)."""
    if isinstance(raw, bytes) or len(raw) > MAX_MESSAGE_BYTES:  # more characters than the limit: more bytes too
        return len(raw)
    return len(raw.encode("utf-8", "surrogatepass"))


def _utf8_bytes(raw: str | bytes) -> int:
    return len(raw) if isinstance(raw, bytes) else len(raw.encode("utf-8", "surrogatepass"))


def too_large(raw: str | bytes) -> bool:
    return size_in_bytes(raw) > MAX_MESSAGE_BYTES


def parse_message(raw: str | bytes, start_bytes: int | None = None) -> dict[str, Any]:
    """Decode and validate one client message; ClientError with a stable code otherwise. ``start_bytes`` (a server
    with test hooks on): a ``start`` message, and only one, may be that large (it may carry a start point)."""
    large = too_large(raw)
    if large and (start_bytes is None or len(raw) > start_bytes or _utf8_bytes(raw) > start_bytes):
        raise ClientError("message/too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    try:
        data = text.loads(raw)
    except text.TextError as err:
        raise _invalid(err.message) from None
    if not isinstance(data, dict):
        raise _invalid("a message must be one JSON object with a 'type'")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in SCHEMAS:
        raise _invalid(f"unknown message type {kind!r}; known: {', '.join(sorted(SCHEMAS))}")
    if large and kind != "start":
        raise ClientError("message/too_large", f"a message is at most {MAX_MESSAGE_BYTES} bytes")
    schema = SCHEMAS[kind]
    try:
        ref = text.ref(data.get("ref"))
    except text.TextError as err:
        raise _invalid(err.message) from None
    unknown = sorted(k for k in data if k not in schema and k not in ("type", "ref"))
    if unknown:
        raise _invalid(f"unknown key(s) {', '.join(unknown)} in a {kind!r} message")
    out: dict[str, Any] = {"type": kind, "ref": ref}
    for key, (check, required) in schema.items():
        if key in data:
            out[key] = check(key, data[key])
        elif required:
            raise _invalid(f"a {kind!r} message needs '{key}'")
    return out


def ref_of(raw: str | bytes) -> Any:
    """The ``ref`` of a message that failed validation, if it can be read safely."""
    if too_large(raw):
        return None
    try:
        data = text.loads(raw)
        return text.ref(data.get("ref")) if isinstance(data, dict) else None
    except text.TextError:
        return None
