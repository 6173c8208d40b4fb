"""Folding an ``update`` into the ``state`` it follows (docs/protocol.md, "Updates"): plain JSON in, plain JSON out.

The server makes updates (``sefode.server.patches``); the SDK client (``sefode.client``), the conformance suite and
the tests fold them with this module, and the page with its copy in ``sefode/web/static/js/patch.js``.

A path is a string: the object keys and array indexes from the value it is relative to (the ``view``, or the seat's
``legal`` list), joined by ``/`` (JSON Pointer, RFC 6901, without its leading ``/``: a key's ``~`` is written ``~0``
and its ``/`` ``~1``); ``""`` is that value itself. An op is a JSON array:

* ``["=", path, value]`` sets the value at ``path`` (an object key, or an index of an array that exists); a path
  that ends in ``-`` at an array appends the items ``value`` lists to it. An update's ``set`` object,
  ``{path: value}``, holds these ops of the view, applied before its ``ops``;
* ``["-", path]`` removes an object key;
* ``["+", path, items]`` appends ``items`` to the array at ``path``;
* ``["<", path, n]`` cuts the array at ``path`` to its first ``n`` items;
* ``["*", path, i, n, items]`` replaces the ``n`` items from index ``i`` of the array at ``path`` with ``items``.

The ``legal`` ops take the items of the list whole; an item the connection was given before (same action, same
label, since its full state) may be written as its action alone (any value that is not an object with a ``label``),
and its label is the one held.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

Op = list[Any]

STATE_FIELDS = ("version", "deadline", "deadlines", "awaiting", "over", "seat_status")
"""The keys of a ``state`` an update gives whole when they changed (``version`` only when it did not move by one)."""


def deadline_of(deadlines: dict[str, int], seat: int | None) -> int | None:
    """A state's ``deadline`` from its ``deadlines``: the seat's own, else the earliest, else null. An update leaves
    ``deadline`` out when it is this (docs/protocol.md, "Updates")."""
    own = deadlines.get(str(seat)) if seat is not None else None
    return own if own is not None else min(deadlines.values(), default=None)


def awaiting_of(deadlines: dict[str, int]) -> list[int]:
    """A state's ``awaiting`` from its ``deadlines``: their seats, in order. An update that carries ``deadlines``
    leaves ``awaiting`` out when it is this (docs/protocol.md, "Updates")."""
    return sorted(int(seat) for seat in deadlines)


def pointer(path: Iterable[str | int]) -> str:
    """The path string of a list of keys and indexes."""
    return "/".join(str(k).replace("~", "~0").replace("/", "~1") for k in path)


def _keys(path: str) -> list[str]:
    return [k.replace("~1", "/").replace("~0", "~") for k in path.split("/")] if path else []


def fold(box: dict[str, Any], key: str, ops: Iterable[Op]) -> None:
    """Apply ``ops``, whose paths are relative to ``box[key]``, in place. Nothing here copies a value."""
    for op in ops:
        kind = op[0]
        parent: Any = box
        last: Any = key
        for k in _keys(op[1]):
            parent = parent[last]
            last = int(k) if type(parent) is list and k != "-" else k
        if kind == "=" and last == "-" and type(parent) is list:
            parent.extend(op[2])  # "path/-": append the items
        elif kind == "=":
            parent[last] = op[2]
        elif kind == "-":
            del parent[last]
        elif kind == "+":
            parent[last].extend(op[2])
        elif kind == "<":
            del parent[last][op[2] :]
        elif kind == "*":
            parent[last][op[2] : op[2] + op[3]] = op[4]
        else:
            raise ValueError(f"unknown op {kind!r}")


def action_key(action: Any) -> str:
    """An action's JSON text, compact (the server's ``orjson.dumps``, the page's ``JSON.stringify``)."""
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False)


class Held:
    """What a connection that takes updates holds: its last ``state`` and the ``legal`` list of its seat's last turn
    (the list an update's ``legal`` ops change: it stays while the seat waits, when the state's own is ``[]``)."""

    def __init__(self, state: dict[str, Any]) -> None:
        self.state = state
        """The last state, folded in place: copy it before handing it on."""
        self.legal: list[Any] = state["legal"]
        self.labels: dict[str, Any] = {}
        """The label of each legal action given since the full state, by the action's JSON text (``action_key``):
        an update writes an item whose label it gave before as ``{"action": …}`` alone."""
        self._learn(self.legal)

    def _learn(self, legal: list[Any]) -> None:
        for i, item in enumerate(legal):
            if not (isinstance(item, dict) and "label" in item):  # an action alone: its label is the one held
                legal[i] = {"action": item, "label": self.labels[action_key(item)]}  # a KeyError: resync
        for item in legal:
            self.labels[action_key(item["action"])] = item["label"]

    def fold(self, update: dict[str, Any]) -> dict[str, Any]:
        """The ``state`` that ``update`` turns the held state into (in place). Raises ``ValueError`` when the update
        does not follow it (its ``base`` is not the state's ``seq``): the client asks for a ``resync`` then, and
        folds nothing more into this one (a part-folded state is lost)."""
        state = self.state
        seq = update["seq"]
        if update.get("base", seq - 1) != state.get("seq"):
            raise ValueError("this update is for another state: resync")
        version = state["version"]
        for key in STATE_FIELDS:
            if key in update:
                state[key] = update[key]
        if "version" not in update:
            state["version"] = version + 1
        if "deadlines" in update and "deadline" not in update:
            state["deadline"] = deadline_of(state["deadlines"], state["seat"])
        if "deadlines" in update and "awaiting" not in update:
            state["awaiting"] = awaiting_of(state["deadlines"])
        fold(state, "view", (["=", path, value] for path, value in update.get("set", {}).items()))
        fold(state, "view", update.get("ops", ()))
        if state["seat"] is not None and state["seat"] in state["awaiting"]:
            box = {"legal": self.legal}
            fold(box, "legal", update.get("legal", ()))
            self._learn(box["legal"])
            self.legal = state["legal"] = box["legal"]
        else:
            state["legal"] = []
        state["events"] = update["events"]
        state["seq"] = seq
        return state
