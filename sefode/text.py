"""The one text rule for every string that comes from outside (docs/security.md, "Text").

Names, chat, passwords, room names, team names and symbols, saved deck names, invites and ``ref``: a string is
accepted only when it is valid Unicode (no lone surrogate, which JSON's ``\\ud800`` escape can smuggle in), holds no
NUL nor other control character (chat may hold line breaks and tabs), is NFC-normalised, and its length (in code
points, after normalisation) is within the field's limits. A refusal is a ``TextError`` with a stable ``code``
(``message/invalid`` unless said otherwise) and a readable reason; the WebSocket and the HTTP routes answer with both.

Text that other people are shown (``shown``: names, room and team names, symbols, chat, every string a game keeps for
a player such as a deck's name) must also show what it is: no bidirectional override, embedding or isolate
(``text/bidi``: U+202A-U+202E, U+2066-U+2069 turn the rest of a line around), no invisible character other than the
joiners emoji and some scripts need (``text/invisible``: U+200B, U+2060, U+FEFF, U+00AD...), and at least one
visible character (``text/invisible``: a name of zero-width characters or Hangul fillers vanishes). A person's name
(``name``) must not carry the platform's bot marks either (``name/bot_mark``: ``[bot]``, ``(bot)``, ``Bot 2``), which
the pages add to bots' names, so that no human can pass for a bot.

It also decodes JSON from outside with a nesting limit (``loads``), so that no parser recursion is reachable.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

import orjson

MAX_DEPTH = 32
"""How deeply a JSON document from outside may nest (objects and arrays)."""

NAME_MAX = 24
ROOM_NAME_MAX = 24
CHAT_MAX = 500
PASSWORD_MAX = 128
SYMBOL_MAX = 2
TOKEN_MAX = 128
REF_MAX = 64
REF_INT_MAX = 2**53 - 1
"""A numeric ``ref`` is a JSON-safe integer (|ref| <= 2**53 - 1): it is echoed back, and every peer reads it."""

_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
_BIDI = re.compile(r"[\u202a-\u202e\u2066-\u2069]")
_JOINERS = frozenset("\u200c\u200d")
"""Format characters a visible text may hold: the zero-width (non-)joiners of emoji sequences and some scripts."""
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u034f")
"""Characters that are not format characters yet draw nothing (Hangul fillers, the blank Braille pattern...)."""
_BOT_MARK = re.compile(r"[\[({<]\s*(bot|rob[oô])\s*[\])}>]|^(bot|rob[oô])\s*(\d|\()", re.IGNORECASE)
"""The marks the pages give bots' names ("Robô [bot]", "Ana (bot)", "Bot 2 (difícil)"), in any case and width."""
_CONTROL_MULTILINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_TOKEN = re.compile(r"[A-Za-z0-9_-]+")


class TextError(ValueError):
    """A string from outside that breaks the text rule; ``message`` says why, readably."""

    def __init__(self, message: str, code: str = "message/invalid") -> None:
        super().__init__(message)
        self.message = message
        self.code = code


def has_lone_surrogate(value: str) -> bool:
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def printable(value: object, limit: int = 80) -> str:
    """``repr`` of an outside value, safe to print or to put in JSON: lone surrogates replaced, at most ``limit``
    characters (a huge string is never echoed whole)."""
    try:
        text = repr(value) if not isinstance(value, str) else repr(value[: limit + 1])
    except (RecursionError, ValueError):
        text = f"<{type(value).__name__}>"
    text = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def must_be_text(key: str, lo: int, hi: int) -> str:
    """The reason a field of text is refused for its type or length."""
    return f"'{key}' must be a string of {lo} to {hi} characters"


def clean(
    key: str,
    value: object,
    lo: int,
    hi: int,
    *,
    strip: bool = True,
    multiline: bool = False,
) -> str:
    """``value`` as an accepted string for field ``key`` (NFC, stripped when ``strip``), or TextError."""
    if not isinstance(value, str):
        raise TextError(must_be_text(key, lo, hi))
    if len(value) > 4 * hi + 16:  # decide on obviously long strings before normalising them
        raise TextError(must_be_text(key, lo, hi))
    if has_lone_surrogate(value):
        raise TextError(f"'{key}' is not valid Unicode (it holds a lone surrogate)")
    if "\x00" in value:
        raise TextError(f"'{key}' must not contain a NUL character")
    if (_CONTROL_MULTILINE if multiline else _CONTROL).search(value):
        raise TextError(f"'{key}' must not contain control characters")
    text = unicodedata.normalize("NFC", value)
    if strip:
        text = text.strip()
    if not lo <= len(text) <= hi:
        raise TextError(must_be_text(key, lo, hi))
    return text


def _is_hidden(ch: str) -> bool:
    return ch in _BLANK or (
        unicodedata.category(ch) == "Cf" and ch not in _JOINERS and not "\U000e0020" <= ch <= "\U000e007f"
    )


def _is_visible(ch: str) -> bool:
    category = unicodedata.category(ch)
    return not (category[0] in "CZ" or category in ("Mn", "Me") or ch in _BLANK)


def check_shown(key: str, text: str) -> str:
    """``text`` (already ``clean``) if other people may be shown it; TextError otherwise (module docstring)."""
    if _BIDI.search(text):
        raise TextError(f"'{key}' must not contain text-direction controls", "text/bidi")
    if any(_is_hidden(ch) for ch in text):
        raise TextError(f"'{key}' must not contain invisible characters", "text/invisible")
    if text and not any(_is_visible(ch) for ch in text):
        raise TextError(f"'{key}' must contain a visible character", "text/invisible")
    return text


def shown(key: str, value: object, lo: int, hi: int, *, multiline: bool = False) -> str:
    """A string other people are shown: ``clean`` and ``check_shown``."""
    return check_shown(key, clean(key, value, lo, hi, multiline=multiline))


def name(value: object, key: str = "name") -> str:
    """A person's nickname (a bot account's too) or a team name: 1 to 24 characters, shown, no bot mark."""
    text = shown(key, value, 1, NAME_MAX)
    if _BOT_MARK.search(unicodedata.normalize("NFKC", text)):
        raise TextError(f"'{key}' must not look like a bot's name ([bot], (bot), Bot 2)", "name/bot_mark")
    return text


def room_name(value: object) -> str:
    return shown("name", value, 1, ROOM_NAME_MAX)


def symbol(value: object) -> str:
    """A team's symbol: 1 or 2 characters, e.g. ``♠``."""
    return shown("symbol", value, 1, SYMBOL_MAX)


def chat(value: object) -> str:
    return shown("text", value, 1, CHAT_MAX, multiline=True)


def kept_strings(value: Any, where: str = "data", hi: int = CHAT_MAX) -> Any:
    """``value`` (JSON a game keeps for a player, e.g. a saved deck) with every string under the rule of ``shown``
    (at most ``hi`` characters, empty allowed); TextError otherwise."""
    if isinstance(value, str):
        return shown(where, value, 0, hi)
    if isinstance(value, list):
        return [kept_strings(item, where, hi) for item in value]
    if isinstance(value, dict):
        return {shown(where, k, 0, hi): kept_strings(v, where, hi) for k, v in value.items()}
    return value


def password(value: object, key: str = "password", lo: int = 1, hi: int = PASSWORD_MAX) -> str:
    """A password: kept as typed (not stripped), NFC-normalised so that the same text typed on any keyboard matches."""
    return clean(key, value, lo, hi, strip=False)


def token(value: object, key: str, hi: int = TOKEN_MAX) -> str:
    """An identifier the server issued (room id, invite token): ASCII letters, digits, ``_`` and ``-`` only."""
    if not isinstance(value, str) or not 1 <= len(value) <= hi or not _TOKEN.fullmatch(value):
        raise TextError(f"'{key}' must be a link token of 1 to {hi} letters, digits, '_' or '-'")
    return value


def ref(value: object) -> str | int | None:
    """A message's ``ref``: null, a string of at most 64 characters, or a whole number with |ref| <= 2**53 - 1."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        if -REF_INT_MAX <= value <= REF_INT_MAX:
            return value
        raise TextError("'ref' must be a whole number from -(2**53 - 1) to 2**53 - 1")
    if isinstance(value, str):
        return clean("ref", value, 0, REF_MAX, strip=False)
    raise TextError(f"'ref' must be a string of at most {REF_MAX} characters or a whole number")


def check_strings(value: Any, where: str = "message") -> None:
    """Every string in a decoded JSON value (keys included) is valid Unicode without NUL; TextError otherwise."""
    _walk(value, where)


def _walk(value: Any, where: str) -> bool:
    """``check_strings``, and whether the value holds a float of 2**63 or more: what orjson makes of an integer too
    large for 64 bits."""
    big = False
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if has_lone_surrogate(item):
                raise TextError(f"the {where} holds a string that is not valid Unicode (a lone surrogate)")
            if "\x00" in item:
                raise TextError(f"the {where} holds a string with a NUL character")
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, float) and abs(item) >= 2.0**63:
            big = True
    return big


def depth_exceeds(raw: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON text nests objects/arrays deeper than ``limit`` (a linear scan, no recursion)."""
    if isinstance(raw, bytes):
        if raw.count(b"[") + raw.count(b"{") <= limit:
            return False  # no deeper than its brackets: most messages end here, counted in C
    elif raw.count("[") + raw.count("{") <= limit:
        return False
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    depth = 0
    in_string = False
    escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limit:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _loads_slowly(raw: str | bytes, where: str) -> Any:
    try:
        return json.loads(raw, parse_constant=_no_constant)
    except (ValueError, RecursionError, UnicodeDecodeError):
        raise TextError(f"the {where} must be one JSON object") from None


def loads(raw: str | bytes, *, max_depth: int = MAX_DEPTH, where: str = "message") -> Any:
    """Decode JSON from outside: TextError (never RecursionError nor a huge-integer ValueError escaping) when it is
    not JSON, nests deeper than ``max_depth``, uses NaN/Infinity, or holds a string that breaks the text rule."""
    if depth_exceeds(raw, max_depth):
        raise TextError(f"the {where} nests deeper than {max_depth} levels")
    try:
        data = orjson.loads(raw)
    except orjson.JSONDecodeError:
        # orjson refuses some texts the standard decoder reads (a lone surrogate, 1e400): read them as before, so
        # that the error names the same cause.
        data = _loads_slowly(raw, where)
    else:
        if not _walk(data, where):
            return data
        data = _loads_slowly(raw, where)  # orjson reads an integer beyond 64 bits as a float: keep it exact
    check_strings(data, where)
    return data
