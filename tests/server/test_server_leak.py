"""No message to any seat or spectator carries a card it may not see.

Many random matches are played through the server. Every text the server queues for a connection is checked at
that moment against the engine state: which cards are hidden from that connection's seat (or from a spectator) is
derived here from the state itself (hands, one-card hand, shown hands, the 7 Letras vira), not from ``Game.view``.
"""

from __future__ import annotations

import copy
import json
import random
import re
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from server_helpers import Client, LiveServer, running_server
from table_helpers import start, table

from sefode.games.fodinha.cards import truco_name
from sefode.games.fodinha.state import OVER, FodinhaState
from sefode.server.hub import Connection
from sefode.server.patches import Held

CARD = re.compile(r'"([4567QJKA23][chsd])"')
CARD_NAME = re.compile(r"[4567QJKA23][chsd]")


def hidden_from(st: FodinhaState, seat: int | None) -> set[str]:
    """Cards ``seat`` (None: a spectator) may not see in this state (one deck)."""
    if st.phase == OVER:
        return set()
    hidden: set[str] = set()
    for owner in range(st.n):
        if st.size == 1:  # mão na testa: a seat in the hand sees every card but its own
            visible = seat is not None and seat != owner and seat in st.order and st.alive[seat]
        else:
            visible = seat == owner or st.shown[owner]
        if not visible:
            hidden.update(truco_name(c) for c in st.hands[owner])
    if st.opts.sete_letras and st.size == 1 and st.vira >= 0:
        hidden.add(truco_name(st.vira))  # the vira stays face down in one-card rounds
    return hidden


def cards_in(message: Any) -> tuple[set[str], list[Any]]:
    """Every card name in a message, and the values of its "manilhas" keys.

    Se Fode's manilhas are fixed by the rules (4c 7h As 7d), so that list names no card of the deal; it is
    checked apart: in 7 Letras it must be null while the vira is hidden.
    """
    cards: set[str] = set()
    manilhas: list[Any] = []

    def walk(value: Any) -> None:
        if isinstance(value, str):
            if CARD_NAME.fullmatch(value):
                cards.add(value)
        elif isinstance(value, list):
            for item in value:
                walk(item)
        elif isinstance(value, dict):
            for key, item in value.items():
                if key == "manilhas":
                    manilhas.append(item)
                else:
                    walk(item)

    walk(message)
    return cards, manilhas


class Audit:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.checked = 0
        self.forehead = 0
        self.hidden_vira = 0
        self.violations: list[str] = []
        self.held: dict[int, Held] = {}
        """Per connection that takes updates: its last state, which the next update folds into."""
        self.updates = 0
        self.pasts = 0
        """``past`` answers checked (the tricks of the whole match, asked for while it runs)."""

    def check(self, conn: Connection, text: str) -> None:
        room = conn.room
        run = room.match if room is not None else None
        if run is None:
            return
        st = run.state
        seat = run.seat_of(conn.player_id)
        hidden = hidden_from(st, seat)
        message = json.loads(text)
        if message["type"] == "state":
            self.held[conn.id] = Held(copy.deepcopy(message))
            self.held[conn.id].state.pop("recap", None)
        elif message["type"] == "update":  # checked as the state it folds into, and as no more than that state
            update = message
            if conn.id not in self.held:
                with self.lock:
                    self.violations.append(f"seat {seat} got an update before any state: {text[:300]}")
                return
            message = copy.deepcopy(self.held[conn.id].fold(update))
            beyond = set(CARD.findall(text)) - set(CARD.findall(json.dumps(message)))
            with self.lock:
                self.updates += 1
                if beyond:
                    self.violations.append(f"seat {seat} got {sorted(beyond)} in an update beyond its state: {text}")
        current, past = split_by_hand(message, st.hand_no)
        shown, manilhas = cards_in(current)
        earlier, _ = cards_in(past)
        with self.lock:
            self.checked += 1
            if message["type"] == "past":
                self.pasts += 1
                if message["seat"] != seat:
                    self.violations.append(f"seat {seat} got the past of seat {message['seat']}: {text[:300]}")
            if st.size == 1 and st.phase != OVER and seat is not None:
                self.forehead += 1
            if st.opts.sete_letras and st.size == 1 and st.phase != OVER:
                self.hidden_vira += 1
                if any(m is not None for m in manilhas):  # the manilhas would tell the hidden vira's rank
                    self.violations.append(f"seat {seat} got the manilhas of a hidden vira: {text[:300]}")
            leaked = hidden & shown
            if leaked:
                self.violations.append(f"seat {seat} got {sorted(leaked)}: {text}")
            unknown = earlier - public_before(st)
            if unknown:
                self.violations.append(f"seat {seat} got {sorted(unknown)} as earlier hands' cards: {text}")
            if st.phase != OVER and '"seed"' in text:
                self.violations.append(f"seat {seat} got the seed before the end: {text[:300]}")


def public_before(st: FodinhaState) -> set[str]:
    """Cards made public in the finished hands of the match (played, or turned as the vira)."""
    out: set[str] = set()
    for record in st.records:
        out.update(truco_name(c) for t in record.tricks for _, c in t.plays)
        if record.vira >= 0:
            out.add(truco_name(record.vira))
    return out


def split_by_hand(message: Any, number: int) -> tuple[Any, Any]:
    """(what is about the hand in progress, what is about finished hands) of a message, ``number`` the hand in
    progress.

    Every hand is dealt from the whole deck, so a card of an earlier hand may sit, hidden, in a hand now: the
    parts about finished hands are checked against the cards those hands made public instead. A ``past`` message (the
    tricks of the whole match, asked for while it runs) is split the same way, trick by trick.
    """
    if isinstance(message, dict) and message.get("type") == "past":
        current_tricks: list[Any] = []
        earlier: list[Any] = []
        for entries in ((message.get("past") or {}).get("match_tricks") or {}).values():
            for entry in entries:
                (earlier if entry["hand"] < number else current_tricks).append(entry)
        return {**message, "past": current_tricks}, earlier
    if not isinstance(message, dict) or message.get("type") != "state":
        return message, []
    current = dict(message)
    past: list[Any] = []
    view = dict(current["view"])
    past.append(view.pop("last_hand"))
    current["view"] = view
    for key in ("events", "recap"):
        events = current.get(key) or []
        deals = [i for i, e in enumerate(events) if e["type"] == "deal"]
        cut = deals[-1] if deals else 0
        past.extend(events[:cut])
        current[key] = events[cut:]
    return current, past


TABLES: list[tuple[dict[str, Any], dict[str, str]]] = [
    ({"variant": "sefode", "players": 3, "lives": 2}, {"2": "easy"}),
    ({"variant": "sefode", "players": 5, "lives": 1}, {"2": "easy", "3": "normal", "4": "easy"}),
    ({"variant": "sefode", "players": 4, "teams": True, "lives": 1}, {"1": "easy", "3": "easy"}),
    ({"variant": "sefode", "players": 2, "lives": 3}, {}),
    ({"variant": "7letras", "players": 3, "max_cards": 3}, {"1": "easy"}),
    ({"variant": "7letras", "players": 4, "max_cards": 2}, {"2": "easy", "3": "easy"}),
    ({"variant": "7letras", "players": 2, "max_cards": 4}, {}),
    ({"variant": "sefode", "players": 6, "teams": True, "lives": 1}, {str(s): "easy" for s in range(2, 6)}),
]


def play_batch(srv: LiveServer, audit: Audit, rng: random.Random) -> int:
    """Play every table of TABLES at once: two humans (random moves, shows and rare leaves) and a spectator each."""
    rooms: list[tuple[str, list[Client], Client, Client]] = []
    for options, bots in TABLES:
        names = ["Ana", "Bia"] if len(bots) <= options["players"] - 2 else ["Ana"]
        room_id, humans = table(srv, names, options, bots=bots)
        spectator = srv.player("Eve").connect()
        spectator.join(room_id, updates=True)  # the spectator, and a second connection of a seat, take updates
        second = humans[0].player.connect()
        second.join(room_id, updates=True)
        rooms.append((room_id, humans, spectator, second))
    for _, humans, spectator, second in rooms:
        start(humans[0], [*humans[1:], spectator, second])
    finished: set[str] = set()
    asked_history: set[str] = set()
    acted: dict[int, int] = {}
    deadline = time.monotonic() + 150
    while len(finished) < len(rooms):
        assert time.monotonic() < deadline, (
            f"matches did not finish: {[(r, h[0].state) for r, h, _, _ in rooms if r not in finished]}"
        )
        idle = True
        for room_id, humans, spectator, second in rooms:
            for client in [*humans, spectator, second]:
                for message in client.poll():
                    idle = False
                    if message["type"] == "match_end":
                        finished.add(room_id)
                    elif message["type"] == "error":
                        assert message["code"] in (
                            "action/no_show",
                            "action/already_shown",
                            "action/stale_state",
                            "action/seat_out",
                            "room/not_seated",
                            "room/no_match",
                            "rate/limited",  # this scripted client can outpace the per-connection rate limit
                        ), message
                        acted.pop(id(client), None)  # refused: act again on this version
            state = spectator.state
            if state is not None and room_id not in asked_history and state["version"] > 5:
                asked_history.add(room_id)
                early = srv.http.get(f"/api/matches/{state['match_id']}/history")
                if early.status_code != 409:  # only once the match is really over
                    assert early.status_code == 200 and srv.hub.rooms[room_id].match.over
                else:
                    assert not CARD.search(early.text) and "seed" not in early.text
            for client in [*humans, spectator]:
                if client.state is not None and rng.random() < 0.03:  # the tricks pane: the match's past
                    client.send("past")
            for client in humans:
                st = client.state
                if st is None or st["seat"] is None or acted.get(id(client)) == st["version"]:
                    continue
                if st["view"]["phase"] == "over":
                    continue
                view = st["view"]
                roll = rng.random()
                if view["variant"] == "7letras" and view["cards"] > 1 and roll < 0.05:
                    acted[id(client)] = st["version"]
                    client.send("action", action={"show": True}, version=st["version"])
                elif roll < 0.004:
                    acted[id(client)] = st["version"]
                    client.send("action", action={"leave": True}, version=st["version"])
                elif st["seat"] in st["awaiting"] and st["legal"]:
                    acted[id(client)] = st["version"]
                    client.send("action", action=rng.choice(st["legal"])["action"], version=st["version"])
                else:
                    continue
                idle = False
        if idle:
            time.sleep(0.005)
    for _, humans, spectator, second in rooms:
        for client in [*humans, spectator, second]:
            client.close()
    return len(rooms)


@pytest.mark.parametrize("batch", range(5))
def test_no_message_carries_a_card_its_receiver_may_not_see(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int
) -> None:
    """One batch of the tables below, on a server of its own (five batches, side by side on the test workers)."""
    audit = Audit()
    original = Connection.send_text

    def audited(self: Connection, text: str) -> None:
        audit.check(self, text)
        original(self, text)

    monkeypatch.setattr(Connection, "send_text", audited)
    rng = random.Random(2024 + batch)
    with running_server(f"sqlite:///{tmp_path / 'leak.sqlite3'}") as srv:
        played = play_batch(srv, audit, rng)
    assert audit.violations == []
    assert played == len(TABLES)
    assert audit.checked > 1000 and audit.forehead > 100 and audit.hidden_vira > 100 and audit.updates > 400, (
        audit.checked,
        audit.forehead,
        audit.hidden_vira,
        audit.updates,
    )
    assert audit.pasts > 20, audit.pasts
