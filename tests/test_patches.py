"""The ops of updates (``sefode.server.patches``, docs/protocol.md "Updates"): what ``diff`` makes, ``fold`` undoes,
types and all; a list that lost or gained one run of items away from its end is spliced, not sent whole."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from sefode.engine import get_game
from sefode.fold import deadline_of
from sefode.server.matchrun import MatchRun
from sefode.server.patches import Held, Updates, diff, fold, pack
from sefode.server.present import state_common, state_message
from sefode.server.record import MatchSeat

ITEMS: list[Any] = [0, 1, True, False, "x", "y", None, [1], [1, 2], {"a": 1}]


def _same(a: Any, b: Any) -> bool:
    """Equal, with types compared strictly (``1`` is not ``true``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    return bool(a == b)


def _fold_diff(a: Any, b: Any) -> Any:
    """``a`` (a copy: no value shared by two places) after folding what ``diff`` makes of it and ``b``, written as an
    update writes it (``pack``: the sets first, as an object)."""
    sets, rest = pack(diff(a, b))
    box = {"r": json.loads(json.dumps(a))}
    fold(box, "r", [*(["=", path, value] for path, value in copy.deepcopy(sets).items()), *copy.deepcopy(rest)])
    return box["r"]


def test_folding_the_diff_of_two_lists_gives_the_second_types_and_all() -> None:
    rng = random.Random(1)
    for _ in range(5000):
        a = [rng.choice(ITEMS) for _ in range(rng.randint(0, 7))]
        b = copy.deepcopy(a)
        roll = rng.random()
        if roll < 0.3 and b:
            start = rng.randrange(len(b))
            del b[start : start + rng.randint(1, 3)]
        elif roll < 0.6:
            at = rng.randint(0, len(b))
            b[at:at] = [rng.choice(ITEMS) for _ in range(rng.randint(1, 3))]
        else:
            b = [rng.choice(ITEMS) for _ in range(rng.randint(0, 7))]
        assert _same(_fold_diff({"v": a}, {"v": b})["v"], b), (a, b, diff(a, b))


def test_a_card_played_from_the_middle_of_a_hand_is_one_splice() -> None:
    hand = ["4c", "Qh", "Ks", "2d", "3c"]
    assert diff({"hand": hand}, {"hand": ["4c", "Qh", "2d", "3c"]}) == [["*", ["hand"], 2, 1, []]]
    assert diff({"hand": hand}, {"hand": ["4c", "Qh", "Ks", "2d"]}) == [["<", ["hand"], 4]]
    assert diff({"hand": hand}, {"hand": ["Jc", *hand]}) == [["*", ["hand"], 0, 0, ["Jc"]]]
    # 1 is not true: an item equal in Python but of another JSON type is not kept by the splice.
    assert diff({"v": [1, 2, 3]}, {"v": [True, 3]}) != [["*", ["v"], 0, 1, []]]


def test_folding_the_diff_of_two_objects_gives_the_second() -> None:
    rng = random.Random(2)
    keys = "abcdef"
    for _ in range(3000):
        a = {k: rng.choice(ITEMS) for k in rng.sample(keys, rng.randint(0, 6))}
        b = {k: rng.choice(ITEMS) for k in rng.sample(keys, rng.randint(0, 6))}
        assert _same(_fold_diff({"v": a, "w": 1}, {"v": b, "w": 1}), {"v": b, "w": 1}), (a, b)


def test_an_object_that_mostly_changed_is_set_whole() -> None:
    reasons = {"Ks": "king.reason.follow_suit", "Qs": "king.reason.follow_suit", "2h": "king.reason.follow_suit"}
    assert diff({"reasons": reasons}, {"reasons": {}}) == [["=", ["reasons"], {}]]
    assert diff({"reasons": {}}, {"reasons": reasons}) == [["=", ["reasons"], reasons]]
    # One key of many changed: that key alone.
    assert diff({"o": {**reasons, "n": 1}}, {"o": {**reasons, "n": 2}}) == [["=", ["o", "n"], 2]]


def test_paths_are_strings_relative_to_their_value_with_keys_escaped() -> None:
    a = {"a/b": {"~": [1, 2]}, "hands": [["4c", "Qh", "Ks", "2d"], None], "trick": [[0, "Kc"]]}
    b = {"a/b": {"~": [1, 3]}, "hands": [["4c", "Qh", "Ks"], None], "trick": [[0, "Kc"], [1, "Qs"]]}
    assert pack(diff(a, b)) == ({"a~1b/~0/1": 3, "trick/-": [[1, "Qs"]]}, [["<", "hands/0", 3]])
    assert _same(_fold_diff(a, b), b)
    assert pack(diff([1], {"x": 1})) == ({"": {"x": 1}}, [])  # the value itself: set whole
    # Whole when that is shorter: a trick emptied is set to [], not cut.
    assert pack(diff({"trick": [[0, "Kc"], [1, "Qs"]]}, {"trick": []})) == ({"trick": []}, [])


def _state(**over: Any) -> dict[str, Any]:
    legal = [{"action": {"play": c}, "label": {"key": "action.play", "params": {"card": c}}} for c in ("4c", "Qh")]
    state = {
        "type": "state",
        "match_id": "m",
        "version": 3,
        "seat": 1,
        "view": {"turn": 1, "trick": []},
        "events": [],
        "deadline": None,
        "deadlines": {},
        "awaiting": [1],
        "legal": legal,
        "over": False,
        "seat_status": ["playing", "playing"],
        "seq": 7,
    }
    return {**state, **over}


def test_an_update_moves_the_version_by_one_unless_it_says_and_follows_the_last_seq_unless_it_names_a_base() -> None:
    held = Held(_state(awaiting=[0], legal=[]))
    state = held.fold({"type": "update", "seq": 8, "events": [{"type": "x"}], "set": {"turn": 0}})
    assert (state["version"], state["seq"], state["view"]["turn"], state["events"]) == (4, 8, 0, [{"type": "x"}])
    state = held.fold({"type": "update", "seq": 10, "base": 8, "events": [], "version": 4, "over": True})
    assert (state["version"], state["seq"], state["over"]) == (4, 10, True)
    with pytest.raises(ValueError):
        held.fold({"type": "update", "seq": 12, "events": []})  # 11 never came: a gap
    with pytest.raises(ValueError):
        Held(_state()).fold({"type": "update", "seq": 9, "base": 6, "events": []})


def test_the_legal_list_of_the_last_turn_stays_while_the_seat_waits_and_its_next_is_folded_into_it() -> None:
    first = _state()
    held = Held(copy.deepcopy(first))
    waiting = held.fold({"type": "update", "seq": 8, "events": [], "awaiting": [0], "ops": [["+", "trick", [1]]]})
    assert waiting["legal"] == [] and waiting["view"]["trick"] == [1]
    # Its turn again, one card fewer: the list of its last turn, less that card.
    turn = held.fold({"type": "update", "seq": 9, "events": [], "awaiting": [1], "legal": [["*", "", 0, 1, []]]})
    assert turn["legal"] == first["legal"][1:]
    # Its turn again with the same list: no legal op at all.
    held.fold({"type": "update", "seq": 10, "events": [], "awaiting": [0]})
    assert held.fold({"type": "update", "seq": 11, "events": [], "awaiting": [1]})["legal"] == first["legal"][1:]
    # A spectator (no seat) is never given legal actions.
    spectator = Held(_state(seat=None, awaiting=[0], legal=[]))
    assert spectator.fold({"type": "update", "seq": 8, "events": [], "awaiting": [1]})["legal"] == []


class _Conn:
    def __init__(self) -> None:
        self.last_join: dict[str, Any] | None = {"type": "join", "room": "r", "updates": True}


def test_updates_fold_to_the_full_states_when_a_views_keys_change_kind_come_go_or_the_view_is_no_object() -> None:
    """``Updates`` compares a view key by key, a container by its encoded bytes and a string, number, boolean or
    null as it is; a key turned from one kind into another (``1`` into ``true``, a number into a list), a key that
    came or went, and a view that is not an object (or stops being one) still fold into the full state."""
    shared = [1, 2]  # one object in both seats' views, as ``Game.views`` shares public parts
    views: list[Any] = [
        {"a": 1, "b": shared, "c": "x"},
        {"a": True, "b": shared, "c": "x"},  # 1 -> true: equal in Python, not in JSON
        {"a": [1], "b": [1, 2, 3], "d": None},  # a number -> a list, an append, a key gone, a key come
        {"a": 1.0, "b": {"k": [1]}, "d": {"n": 0}},  # a list -> a float, a list -> an object, null -> an object
        ["not", "an", "object"],
        {"a": 1, "b": shared},
        {"a": 1, "b": shared},  # nothing changed
    ]
    updates = Updates()
    conns = [_Conn(), _Conn()]
    helds: list[Held] = []
    for step, view in enumerate(views):
        messages: dict[int | None, dict[str, Any]] = {
            seat: {**_state(seat=seat, version=step, awaiting=[], legal=[]), "view": view} for seat in (0, 1)
        }
        for seat in (0, 1):
            del messages[seat]["seq"]
        texts = updates.texts([(conns[0], 0), (conns[1], 1)], messages, lambda m: json.dumps(m))
        for seat, (_conn, text) in enumerate(texts):
            message = json.loads(text)
            if step == 0:
                assert message["type"] == "state"
                helds.append(Held(message))
                continue
            assert message["type"] == "update"
            folded = helds[seat].fold(message)
            assert json.dumps(folded["view"]) == json.dumps(view), (step, message)
            assert folded["seat"] == seat and folded["version"] == step
    # The last update, nothing changed, says so: no set, no ops.
    assert "set" not in message and "ops" not in message


def test_updates_fold_to_the_full_states_when_a_key_stops_being_shared_by_every_seat_or_becomes_shared() -> None:
    """``Updates`` keeps what every seat's view shares (the same objects) once for all seats and diffs it once: a key
    that every seat's view held at one action and only some at the next (a hand shown to all, then hidden), or the
    other way, still folds into each seat's full state."""
    public = {"trick": [[0, "Kc"]], "shown": [False, False]}
    hands = [["4c", "Qh"], ["7d"]]
    steps: list[list[dict[str, Any]]] = [
        [{"seat": s, **public, "hands": hands} for s in (0, 1)],  # "hands" shared: the same object in both views
        [{"seat": s, **public, "hands": [hands[0] if s == 0 else None, hands[1] if s == 1 else None]} for s in (0, 1)],
        [{"seat": s, **public, "trick": [], "hands": hands} for s in (0, 1)],  # "trick" no longer the same object
        [{"seat": s, "hands": hands, "extra": s} for s in (0, 1)],  # keys gone, one come, each seat's own
        [{"seat": s, **public, "hands": hands} for s in (0, 1)],
    ]
    updates = Updates()
    conns = [_Conn(), _Conn()]
    helds: list[Held] = []
    for step, views in enumerate(steps):
        messages: dict[int | None, dict[str, Any]] = {}
        for seat in (0, 1):
            message = {**_state(seat=seat, version=step, awaiting=[], legal=[]), "view": views[seat]}
            del message["seq"]
            messages[seat] = message
        texts = updates.texts([(conns[0], 0), (conns[1], 1)], messages, lambda m: json.dumps(m))
        for seat, (_conn, text) in enumerate(texts):
            message = json.loads(text)
            if step == 0:
                helds.append(Held(message))
                continue
            folded = helds[seat].fold(message)
            assert folded["view"] == json.loads(json.dumps(views[seat])), (step, seat, message)


_CLOCK_SEATS: list[int | None] = [0, 1, None]
"""The connections of the clock tests: seats 0 and 1, and a spectator."""


def _clock_step(
    updates: Updates,
    conns: list[_Conn],
    step: int,
    awaiting: list[int],
    deadlines: dict[str, int],
    deadline: dict[int | None, int | None],
    legal: list[Any],
) -> tuple[dict[int | None, dict[str, Any]], list[dict[str, Any]]]:
    """One action's states for ``_CLOCK_SEATS`` (each with its ``deadline``, ``legal`` for the awaited seats) sent
    through ``updates``: the states, and what each connection got, decoded."""
    messages: dict[int | None, dict[str, Any]] = {}
    for seat in _CLOCK_SEATS:
        message = _state(
            seat=seat,
            version=step,
            awaiting=awaiting,
            legal=legal if seat in awaiting else [],
            deadlines=deadlines,
            deadline=deadline[seat],
            view={"step": step},
        )
        del message["seq"]
        messages[seat] = message
    texts = updates.texts(list(zip(conns, _CLOCK_SEATS, strict=True)), messages, lambda m: json.dumps(m))
    return messages, [json.loads(text) for _conn, text in texts]


def test_an_update_leaves_out_the_deadline_its_deadlines_tell_and_the_fold_takes_it_from_them() -> None:
    """A state's ``deadline`` is its seat's own, else the earliest of ``deadlines`` (``present.state_message``): an
    update that carries the new ``deadlines`` leaves ``deadline`` out when that is what they tell, and says it when
    it is something else; folding gives the full state, deadline and all, for the seats and the spectators."""
    steps: list[tuple[list[int], dict[str, int], dict[int | None, int | None]]] = [
        ([0], {"0": 1_000}, {0: 1_000, 1: 1_000, None: 1_000}),
        ([1], {"1": 2_000}, {0: 2_000, 1: 2_000, None: 2_000}),  # the turn moved: every deadline follows deadlines
        ([0, 1], {"0": 3_000, "1": 2_500}, {0: 3_000, 1: 2_500, None: 2_500}),  # both awaited: each its own
        ([0, 1], {"0": 3_000, "1": 2_500}, {0: None, 1: None, None: None}),  # paused: deadlines kept, deadline null
        ([], {}, {0: None, 1: None, None: None}),  # nobody awaited: no clock
        ([1], {"1": 4_000}, {0: 9_000, 1: 9_000, None: 9_000}),  # told apart from what deadlines say
    ]
    updates = Updates()
    conns = [_Conn(), _Conn(), _Conn()]
    seats = _CLOCK_SEATS
    helds: list[Held] = []
    for step, (awaiting, deadlines, deadline) in enumerate(steps):
        _messages, sent = _clock_step(updates, conns, step, awaiting, deadlines, deadline, [])
        for i, message in enumerate(sent):
            if step == 0:
                helds.append(Held(message))
                continue
            told = deadline[seats[i]]
            own = deadlines.get(str(seats[i])) if seats[i] is not None else None
            derived = own if own is not None else min(deadlines.values(), default=None)
            changed = "deadlines" in message
            assert ("deadline" in message) == (told != derived if changed else told != steps[step - 1][2][seats[i]])
            folded = helds[i].fold(message)
            assert folded["deadline"] == told and folded["deadlines"] == deadlines, (step, seats[i], message)


def test_an_update_leaves_out_the_awaiting_its_deadlines_tell_and_the_fold_takes_it_from_them() -> None:
    """With clocks every awaited seat has a deadline: an update that carries the new ``deadlines`` leaves
    ``awaiting`` out when it is their seats, in order, and says it when it is something else (a pause empties
    ``deadlines``, a seat awaited without a clock), even when ``awaiting`` did not change; folding gives the full
    state's ``awaiting``, and the legal list of the seat's turn, for the seats and the spectators."""
    steps: list[tuple[list[int], dict[str, int]]] = [
        ([0], {"0": 1_000}),
        ([1], {"1": 2_000}),  # the turn moved: deadlines tell it
        ([0, 1], {"0": 3_000, "1": 2_500}),  # both awaited, each with its clock
        ([1], {}),  # paused: the clocks stopped, seat 1 still awaited
        ([1], {"1": 5_000}),  # resumed: awaiting unchanged, deadlines tell it again
        ([0, 1], {"1": 6_000}),  # a seat awaited without a clock
        ([], {}),  # nobody awaited, no clock
    ]
    legal = [{"action": {"play": "4c"}, "label": {"key": "action.play", "params": {"card": "4c"}, "text": "play 4c"}}]
    updates = Updates()
    conns = [_Conn(), _Conn(), _Conn()]
    seats = _CLOCK_SEATS
    helds: list[Held] = []
    for step, (awaiting, deadlines) in enumerate(steps):
        deadline = {seat: deadline_of(deadlines, seat) for seat in seats}  # what present.state_message gives
        messages, sent = _clock_step(updates, conns, step, awaiting, deadlines, deadline, legal)
        for i, message in enumerate(sent):
            if step == 0:
                helds.append(Held(message))
                continue
            told = sorted(int(s) for s in deadlines)
            if "deadlines" in message:
                assert ("awaiting" in message) == (awaiting != told), (step, seats[i], message)
            else:
                assert ("awaiting" in message) == (awaiting != steps[step - 1][0]), (step, seats[i], message)
            folded = helds[i].fold(message)
            assert folded["awaiting"] == awaiting and folded["deadlines"] == deadlines, (step, seats[i], message)
            assert folded["legal"] == (legal if seats[i] in awaiting else []), (step, seats[i], message)
            assert folded == {**messages[seats[i]], "seq": message["seq"]}, (step, seats[i])


def test_an_update_tells_the_running_clocks_every_time_and_none_when_no_clock_runs() -> None:
    """The clocks go as the time left on each (protocol 5): an update carries ``deadlines`` whenever a clock runs,
    even with the same values as the last (the time left is measured anew; a client counts from when each message
    comes), and leaves them out only when no clock runs and none ran before; the fold gives the full state."""
    steps: list[tuple[list[int], dict[str, int]]] = [
        ([0], {"0": 30_000}),
        ([0], {"0": 30_000}),  # the same time left (a seat awaited again, its clock started again): told again
        ([0], {"0": 29_000}),  # one second later, nothing else changed: told
        ([0], {}),  # paused: the clocks stop, told (empty)
        ([0], {}),  # still paused: nothing to tell
    ]
    updates = Updates()
    conns = [_Conn(), _Conn(), _Conn()]
    helds: list[Held] = []
    for step, (awaiting, deadlines) in enumerate(steps):
        deadline = {seat: deadline_of(deadlines, seat) for seat in _CLOCK_SEATS}
        messages, sent = _clock_step(updates, conns, step, awaiting, deadlines, deadline, [])
        for i, message in enumerate(sent):
            if step == 0:
                helds.append(Held(message))
                continue
            assert ("deadlines" in message) == (step < 4), (step, message)
            assert helds[i].fold(message) == {**messages[_CLOCK_SEATS[i]], "seq": message["seq"]}, (step, message)


def test_the_state_tells_each_clock_as_the_time_left_on_it_when_the_message_is_made() -> None:
    """``present.state_common``: each awaited seat's clock as the ms left on it at the given time (a clock that ran
    out as 0, never less), the earliest of them, and each seat's own ``deadline`` in its ``state``."""
    game = get_game("fodinha")
    values = game.validate_options({"players": 4})
    state = game.new_match(values, 3)
    run = MatchRun("m", 1, game, state, 3, values, {}, [MatchSeat() for _ in range(4)])
    now = 1_796_400_000_000
    run.deadlines = {2: now + 12_345, 0: now - 50}
    common = state_common(run, now)
    assert common.deadlines == {"0": 0, "2": 12_345} and common.earliest == 0
    assert state_message(run, 2, [], common)["deadline"] == 12_345
    assert state_message(run, 1, [], common)["deadline"] == 0  # not awaited: the earliest
    assert state_message(run, None, [], common)["deadlines"] == {"0": 0, "2": 12_345}
    assert state_common(run, now + 1_000).deadlines == {"0": 0, "2": 11_345}
