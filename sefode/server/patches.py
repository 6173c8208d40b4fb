"""Updates: after a connection has its seat's full ``state``, each action sends it only what changed (docs/protocol.md).

A connection that joined with ``"updates": true`` gets, after the full ``state`` of its seat (on join, reconnection
or ``resync``), one ``update`` per state the room produces for that seat: the public events and the changed keys every
seat shares (computed and encoded once per action for every seat and spectator), then its own seat's changes: its
``version`` when it did not move by one, its ``deadline``, the view's changes (``set`` and ``ops``) and, when the seat
is awaited, its legal list as ops on the list of its last turn (an action whose label the connection holds written
alone). Folding an update into the last state gives exactly the ``state`` the seat would have been sent
(``sefode.fold``, which the SDK client uses too; the browser's copy is ``sefode/web/static/js/patch.js``).

Each state message a room produces is numbered (``seq``, increasing in the room); an update names the number of the
state it applies to (``base``) when it is not ``seq - 1``, so a client that finds its state is not the base asks for
the full state (``resync``). The server itself sends an update only to a connection whose last state it knows: every
other connection gets the full ``state``. The diff of a seat is made from that seat's own two states (and what it gave
that connection before) alone, so an update carries nothing its seat could not see in the full views.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import orjson

from sefode.fold import Held, Op, awaiting_of, deadline_of, fold, pointer

__all__ = ["Held", "Op", "Updates", "diff", "fold", "pack"]


class Joined(Protocol):
    """A connection as this module needs it (``placement.Peer`` is one): the ``join`` it sent last."""

    @property
    def last_join(self) -> dict[str, Any] | None: ...


C = TypeVar("C", bound=Joined)

COMMON_KEYS = ("awaiting", "deadlines", "over", "seat_status")
"""The keys of a ``state`` message that are the same for every seat (``present.Common``)."""


def _cost(op: Op) -> int:
    """The bytes ``op`` takes in an update (``pack``): a member of ``set``, or an item of ``ops``, and its comma."""
    path = pointer(op[1])
    if op[0] == "=":
        return len(path) + 4 + len(orjson.dumps(op[2]))
    if op[0] == "+":
        return len(path) + 6 + len(orjson.dumps(op[2]))
    return len(orjson.dumps([op[0], path, *op[2:]])) + 1


def _longer(ops: list[Op], whole: Any, where: list[Any]) -> bool:
    """Whether ``ops`` take as many bytes as setting ``whole`` at ``where`` would, or more."""
    return sum(_cost(op) for op in ops) >= _cost(["=", where, whole])


def _list_ops(a: list[Any], b: list[Any], where: list[Any]) -> list[Op]:
    """``diff`` of two lists: one splice, or the items' own ops and an append or a cut, or ``b`` whole when that is
    shorter (a trick emptied, a list whose items mostly changed)."""
    na, nb = len(a), len(b)
    common = min(na, nb)
    inner: list[Op] = []
    for i in range(common):
        diff(a[i], b[i], [*where, i], inner)
    mine: list[Op] = []
    if inner and na != nb:
        # One run of items taken out or put in away from the end (a card played from the middle of a hand): the
        # items before it are the same (up to the first op's index), and so are those after it.
        start = inner[0][1][len(where)]
        tail = 0
        while tail < common - start and not diff(a[na - 1 - tail], b[nb - 1 - tail], [], []):
            tail += 1
        if start + tail == common:
            mine = [["*", where, start, na - start - tail, b[start : nb - tail]]]
    if not mine and inner and len(inner) * 2 > common:
        return [["=", where, b]]  # most items changed (a card taken from the middle of a hand...): whole
    if not mine:
        mine = inner
        if nb > na:
            mine.append(["+", where, b[na:]])
        elif nb < na:
            mine.append(["<", where, nb])
    if mine and where and _longer(mine, b, where):
        return [["=", where, b]]
    return mine


def diff(a: Any, b: Any, path: list[Any] | None = None, out: list[Op] | None = None) -> list[Op]:
    """The ops that turn the JSON value ``a`` into ``b`` (both plain JSON: dicts, lists, str, int, float, bool,
    None). Types are compared strictly (``1`` is not ``true``). A list that lost or gained one run of items, the rest
    unchanged, is spliced; one whose items mostly changed is set whole, and so is an object with as many ops as keys."""
    ops: list[Op] = [] if out is None else out
    where: list[Any] = [] if path is None else path
    if a is b:
        return ops
    ta, tb = type(a), type(b)
    if ta is tb and (ta is dict or ta is list) and _same(a, b):
        return ops  # most of a view is as it was: one comparison in C instead of a walk in Python
    if ta is dict and tb is dict:
        mark = len(ops)
        for key, value in b.items():
            if key in a:
                diff(a[key], value, [*where, key], ops)
            else:
                ops.append(["=", [*where, key], value])
        for key in a:
            if key not in b:
                ops.append(["-", [*where, key]])
        if where and len(ops) - mark > 1 and _longer(ops[mark:], b, where):
            del ops[mark:]  # many keys came, went or changed (a map of this turn's cards emptied): whole
            ops.append(["=", where, b])
        return ops
    if ta is list and tb is list:
        ops.extend(_list_ops(a, b, where))
        return ops
    if ta is tb and a == b:
        return ops
    ops.append(["=", where, b])
    return ops


def _same(a: Any, b: Any) -> bool:
    """``a == b`` for two containers, with JSON's types: Python's ``==`` holds ``1``, ``1.0`` and ``True`` equal, so a
    container found equal is checked again by its JSON text (orjson writes them apart). Both run in C: on a Fodinha
    match this cuts a seat's diff from 29 to 17 µs (most of a view is unchanged from one action to the next)."""
    return a == b and orjson.dumps(a) == orjson.dumps(b)


def pack(ops: list[Op]) -> tuple[dict[str, Any], list[Op]]:
    """``diff``'s ops as an update writes them: the sets and appends (``"path/-": items``) as ``{path: value}`` and
    the other ops, paths as strings (``sefode.fold``). The sets may go first, in any order: ``diff`` touches a list's
    items, or appends to it, or cuts or splices it, never two of these, and never sets inside what another op moves."""
    sets: dict[str, Any] = {}
    rest: list[Op] = []
    for op in ops:
        if op[0] == "=":
            sets[pointer(op[1])] = op[2]
        elif op[0] == "+":
            sets[pointer([*op[1], "-"])] = op[2]
        else:
            rest.append([op[0], pointer(op[1]), *op[2:]])
    return sets, rest


def _plain(value: Any) -> Any:
    """``value`` as plain JSON that shares nothing with the game's state (a view may hold the state's own lists)."""
    return orjson.loads(orjson.dumps(value))


@dataclass(frozen=True, slots=True)
class Split:
    """A view as an update's diff keeps it: its keys whose values every seat's view of that action holds (the very
    same objects: ``Game.views`` builds what the seats share once), kept once for all of them, and the seat's own
    keys. Each key's value is kept encoded when it is a container (``bytes``), as it is when it is a string, number,
    boolean or null: a key whose bytes did not change needs no walk and no copy, and only the keys that changed are
    decoded to be diffed. The shared part of two actions is diffed once for every seat."""

    shared: dict[str, Any]
    own: dict[str, Any]


Encoded = Split | bytes
"""A view as ``Split`` keeps it, or the whole view encoded when it is not an object."""

_SCALARS = (str, int, float, bool, type(None))
_MISSING = object()


def _decoded(view: Encoded) -> Any:
    if isinstance(view, bytes):
        return orjson.loads(view)
    return {k: orjson.loads(v) if type(v) is bytes else v for k, v in (*view.shared.items(), *view.own.items())}


class _Encoder:
    """The encodings and diffs of one action's states, each made once: a container is encoded once however many
    views hold it, what every seat's view shares is compared with the last action's once, and a key's change, the
    same bytes before and after in several seats, is diffed and packed once."""

    def __init__(self) -> None:
        self._by_id: dict[int, tuple[Any, bytes]] = {}
        """Encodings of the containers met, by identity (the value is kept, so its id stays its own)."""
        self._ops: dict[tuple[str, bytes, bytes], tuple[dict[str, Any], list[Op]]] = {}
        self._shared_ops: dict[
            tuple[int, int], tuple[dict[str, Any], dict[str, Any], tuple[dict[str, Any], list[Op]] | None]
        ] = {}
        """The ops of what every seat shares, by the ids of the two shared parts (kept, so the ids stay theirs)."""

    def _encoded(self, view: dict[str, Any], keys: Any) -> dict[str, Any]:
        by_id = self._by_id
        out: dict[str, Any] = {}
        for key in keys:
            value = view[key]
            if type(value) in _SCALARS:
                out[key] = value
                continue
            made = by_id.get(id(value))
            if made is None or made[0] is not value:
                made = by_id[id(value)] = (value, orjson.dumps(value))
            out[key] = made[1]
        return out

    def views(self, views: dict[int | None, Any]) -> dict[int | None, Encoded]:
        """Every seat's view, split into the keys all of them hold the same object at and each one's own."""
        dicts = [v for v in views.values() if type(v) is dict]
        shared_keys: list[str] = []
        if dicts:
            first = dicts[0]
            shared_keys = list(first)
            for other in dicts[1:]:
                shared_keys = [k for k in shared_keys if other.get(k, _MISSING) is first[k]]
        shared = self._encoded(dicts[0], shared_keys) if dicts else {}
        out: dict[int | None, Encoded] = {}
        for seat, view in views.items():
            if type(view) is not dict:
                out[seat] = orjson.dumps(view)
                continue
            own_keys = [k for k in view if k not in shared] if len(view) != len(shared) else []
            out[seat] = Split(shared, self._encoded(view, own_keys))
        return out

    def _key_ops(self, key: str, before: bytes, after: bytes) -> tuple[dict[str, Any], list[Op]]:
        made = self._ops.get((key, before, after))
        if made is None:
            made = self._ops[(key, before, after)] = pack(diff(orjson.loads(before), orjson.loads(after), [key]))
        return made

    def _dict_ops(self, before: dict[str, Any], after: dict[str, Any], sets: dict[str, Any], rest: list[Op]) -> None:
        """Add the packed ops that turn the keys of ``before`` into those of ``after`` (both as ``Split`` keeps
        them) to ``sets`` and ``rest``."""
        for key, now in after.items():
            was = before.get(key, _MISSING)
            if was is not _MISSING:
                if was == now and type(was) is type(now):
                    continue
                if type(was) is bytes and type(now) is bytes:
                    key_sets, key_rest = self._key_ops(key, was, now)
                    sets.update(key_sets)
                    rest.extend(key_rest)
                    continue
            # a key came, or a string, number, boolean or null changed, or a container came or went in its place
            sets[pointer((key,))] = orjson.loads(now) if type(now) is bytes else now
        for key in before:
            if key not in after:
                rest.append(["-", pointer((key,))])

    def view_ops(self, before: Encoded, after: Encoded) -> tuple[dict[str, Any], list[Op]]:
        """``pack(diff(...))`` of two views as ``views`` keeps them: the same changes, walking only the keys whose
        bytes changed, and what every seat shares once for all of them (the ops may come in another order)."""
        if isinstance(before, bytes) or isinstance(after, bytes):
            return ({}, []) if before == after else pack(diff(_decoded(before), _decoded(after)))
        pair = (id(before.shared), id(after.shared))
        memo = self._shared_ops.get(pair)
        if memo is None or memo[0] is not before.shared or memo[1] is not after.shared:
            shared_ops: tuple[dict[str, Any], list[Op]] | None = None
            if before.shared.keys() == after.shared.keys():  # the same keys shared: the shared part's own ops
                shared_ops = ({}, [])
                self._dict_ops(before.shared, after.shared, *shared_ops)
            memo = self._shared_ops[pair] = (before.shared, after.shared, shared_ops)
        shared_ops = memo[2]
        sets: dict[str, Any] = {}
        rest: list[Op] = []
        if shared_ops is None:  # a key went from every seat's to the seat's own, or back: all the keys at once
            self._dict_ops({**before.shared, **before.own}, {**after.shared, **after.own}, sets, rest)
            return sets, rest
        sets.update(shared_ops[0])
        rest.extend(shared_ops[1])
        self._dict_ops(before.own, after.own, sets, rest)
        return sets, rest


@dataclass(frozen=True, slots=True)
class Sent:
    """The last state a connection was sent: numbered ``seq``, the part every seat shares (each key encoded), the
    seat's own (its ``version``, ``deadline`` encoded, and ``view`` as ``Encoded``), and the ``legal`` list of the
    seat's last turn (``sefode.fold.Held``) in plain JSON."""

    seq: int
    match_id: str
    seat: int | None
    common: dict[str, bytes]
    version: int
    deadline: bytes
    view: Encoded
    legal: list[Any]
    labels: dict[str, bytes]
    """The label of every legal item the connection was given since its full state, by its action's JSON text."""


def _common(message: dict[str, Any]) -> dict[str, bytes]:
    return {k: orjson.dumps(message[k]) for k in COMMON_KEYS}


def _labels(items: list[Any], known: dict[str, bytes] | None = None) -> dict[str, bytes]:
    """``known`` with the label of each legal item of ``items``, by its action's JSON text (``sefode.fold.action_key``
    is the client's; the encoded label, to compare)."""
    out = dict(known or {})
    for item in items:
        out[orjson.dumps(item["action"]).decode()] = orjson.dumps(item["label"])
    return out


def _legal_ops(sent: Sent, legal: list[Any]) -> list[Op]:
    """The ops that turn the legal list of the seat's last turn into ``legal``, items taken whole (a list of items
    compared as their JSON texts): an item whose label the connection was given before, for the same action, is
    written as its action alone."""
    texts = [orjson.dumps(item).decode() for item in legal]
    items = dict(zip(texts, legal, strict=True))

    def lean(text: str) -> Any:
        item = items[text]
        action = item["action"]
        if isinstance(action, dict) and "label" in action:
            return item  # an action alone is an item without a label: this one could not be told from an item
        known = sent.labels.get(orjson.dumps(action).decode())
        return action if known == orjson.dumps(item["label"]) else item

    out: list[Op] = []
    for op in diff([orjson.dumps(item).decode() for item in sent.legal], texts):
        kind, path = op[0], pointer(op[1])
        if kind == "=":
            out.append([kind, path, lean(op[2]) if path else [lean(t) for t in op[2]]])
        elif kind == "+":
            out.append([kind, path, [lean(t) for t in op[2]]])
        elif kind == "*":
            out.append([kind, path, op[2], op[3], [lean(t) for t in op[4]]])
        else:
            out.append([kind, path, *op[2:]])
    whole: list[Op] = [["=", "", [lean(t) for t in texts]]]
    return whole if out and len(orjson.dumps(out)) >= len(orjson.dumps(whole)) else out


def _own_text(
    sent: Sent,
    version: int,
    deadline: bytes,
    derived: bytes | None,
    view: Encoded,
    legal: list[Any] | None,
    encoder: _Encoder,
) -> str:
    """The seat's own part of an update (``version`` when it did not move by one, ``deadline`` when the client
    cannot tell it, the view's ``set`` and ``ops``, ``legal`` when the seat is awaited), as JSON object members:
    empty, or starting with a comma. ``derived``: when the update has ``deadlines``, the ``deadline`` the client takes
    from them (``sefode.fold.deadline_of``), encoded."""
    out: dict[str, Any] = {}
    if version != sent.version + 1:
        out["version"] = version
    if deadline != (sent.deadline if derived is None else derived):
        out["deadline"] = orjson.loads(deadline)
    sets, ops = encoder.view_ops(sent.view, view)
    if sets:
        out["set"] = sets
    if ops:
        out["ops"] = ops
    if legal is not None:
        legal_ops = _legal_ops(sent, legal)
        if legal_ops:
            out["legal"] = legal_ops
    return orjson.dumps(out).decode()[1:-1]


class Updates:
    """A room's record of what each connection that takes updates was last sent, and the numbering of states."""

    def __init__(self) -> None:
        self.seq = 0
        self.sent: dict[Joined, Sent] = {}

    @staticmethod
    def wanted(conn: Joined) -> bool:
        """Whether the connection joined with ``"updates": true``."""
        join = conn.last_join
        return bool(join and join.get("updates") is True)

    def forget(self, conn: Joined) -> None:
        self.sent.pop(conn, None)

    def full(self, conn: Joined, message: dict[str, Any]) -> dict[str, Any]:
        """The full ``state`` ``message`` for ``conn``, numbered; remembered when the connection takes updates."""
        self.seq += 1
        out = {**message, "seq": self.seq}
        if self.wanted(conn):
            legal = _plain(message["legal"])
            self.sent[conn] = Sent(
                self.seq,
                message["match_id"],
                message["seat"],
                _common(message),
                message["version"],
                orjson.dumps(message["deadline"]),
                _Encoder().views({message["seat"]: message["view"]})[message["seat"]],
                legal,
                _labels(legal),
            )
        else:
            self.sent.pop(conn, None)
        return out

    def texts(
        self,
        conns: Sequence[tuple[C, int | None]],
        messages: dict[int | None, dict[str, Any]],
        encode: Callable[[Any], str],
    ) -> list[tuple[C, str]]:
        """What to send each connection (``conns``: with its seat, or None) for the new ``state`` ``messages`` of
        the seats (built by ``present.state_message``, all from one action, sharing their common part): an
        ``update`` to each connection whose last state is known, the full ``state`` to the others. Each text is
        built once for every connection it goes to."""
        if not messages:
            return []
        self.seq += 1
        seq = self.seq
        first = next(iter(messages.values()))
        takers = any(self.wanted(conn) for conn, _seat in conns)
        common = _common(first) if takers else {}
        events = first["events"]
        match_id = first["match_id"]
        encoder = _Encoder()
        views: dict[int | None, Encoded] = {}
        """Every seat's view as ``Split`` keeps it, made for all the seats at the first one needed."""
        legals: dict[int | None, list[Any]] = {}

        def view_of(seat: int | None) -> Encoded:
            if not views:
                views.update(encoder.views({s: m["view"] for s, m in messages.items()}))
            return views[seat]

        def legal_of(seat: int | None) -> list[Any]:
            made = legals.get(seat)
            if made is None:
                made = legals[seat] = _plain(messages[seat]["legal"])
            return made

        shared: dict[int, str] = {}
        """Per common part of a base (by id): the part of the update's text every seat shares, encoded once."""
        texts: dict[tuple[int | None, int, int, int], tuple[str, list[Any], dict[str, bytes]]] = {}
        out: list[tuple[C, str]] = []
        bases: list[Sent] = []
        """The records replaced here, alive until the end: the texts above are found by their parts' ids."""
        for conn, seat in conns:
            sent = self.sent.get(conn)
            if sent is not None:
                bases.append(sent)
            takes = self.wanted(conn)
            message = messages[seat]
            deadline = orjson.dumps(message["deadline"])
            if not takes or sent is None or sent.match_id != match_id or sent.seat != seat:
                key: tuple[int | None, int, int, int] = (seat, -1, 0, 0)
                made = texts.get(key)
                if made is None:
                    made = texts[key] = (encode({**message, "seq": seq}), [], {})
                text = made[0]
                if takes:
                    legal = legal_of(seat)
                    self.sent[conn] = Sent(
                        seq, match_id, seat, common, message["version"], deadline, view_of(seat), legal, _labels(legal)
                    )
                else:
                    self.sent.pop(conn, None)
                out.append((conn, text))
                continue
            awaited = seat is not None and seat in first["awaiting"]
            key = (seat, sent.seq, id(sent.legal), id(sent.labels))
            made = texts.get(key)
            if made is None:
                # Running clocks go as the time left on each now: told in every update, as are clocks that stopped.
                clocks_told = bool(first["deadlines"]) or sent.common["deadlines"] != common["deadlines"]
                head = shared.get(id(sent.common))
                if head is None:
                    fields = {
                        k: first[k]
                        for k in COMMON_KEYS
                        if (clocks_told if k == "deadlines" else sent.common[k] != common[k])
                    }
                    if clocks_told:  # the client takes the awaited seats from them, unless told apart
                        if first["awaiting"] == awaiting_of(first["deadlines"]):
                            fields.pop("awaiting", None)
                        else:
                            fields["awaiting"] = first["awaiting"]
                    head = shared[id(sent.common)] = orjson.dumps(
                        {"type": "update", "seq": seq, "events": events, **fields}
                    ).decode()[:-1]
                base = f',"base":{sent.seq}' if sent.seq != seq - 1 else ""
                legal, labels = sent.legal, sent.labels
                if awaited:
                    legal = legal_of(seat)
                    labels = _labels(legal, sent.labels)
                derived = None
                if clocks_told:  # the seat's deadline follows them unless told apart
                    derived = orjson.dumps(deadline_of(first["deadlines"], seat))
                tail = _own_text(
                    sent, message["version"], deadline, derived, view_of(seat), legal if awaited else None, encoder
                )
                made = texts[key] = (f"{head}{base}{',' if tail else ''}{tail}}}", legal, labels)
            text, legal, labels = made
            self.sent[conn] = Sent(
                seq, match_id, seat, common, message["version"], deadline, view_of(seat), legal, labels
            )
            out.append((conn, text))
        return out
