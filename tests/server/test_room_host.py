"""A room and its parts reach the rest of the server only through their host (``sefode.server.host.RoomHost``), and
its seats are typed records stored in the format rooms always had (issue "The house").

The room here runs against ``room_host.FakeHost``, seen through ``OnlyTheProtocol``: a host that is not the hub and
answers only what the protocol names. The contract that the room's modules import neither the hub nor the cluster is
in ``pyproject.toml`` (checked by ``tests/test_layering.py``).
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from room_host import MEMBERS, FakeHost, OnlyTheProtocol
from server_helpers import WAIT_S, run_async

from sefode.engine import get_game
from sefode.server import logs
from sefode.server.host import RoomHost
from sefode.server.record import BotLevel, MatchSeat, RoomSeat, load_record, match_seats, record_json, seats_json
from sefode.server.room import Room
from sefode.store.seats import StoredSeat, stored_seats


class Peer:
    """A connection in the room (``placement.Peer``): what it is sent, in order, as messages."""

    _next = 0

    def __init__(self, player_id: str) -> None:
        Peer._next += 1
        self.id = Peer._next
        self.player_id = player_id
        self.room: Room | None = None
        self.client = "test"
        self.closed = False
        self.close_code: int | None = None
        self.last_join: dict[str, Any] | None = None
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def send(self, message: dict[str, Any]) -> None:
        self.send_text(json.dumps(message))

    def send_text(self, text: str) -> None:
        self.inbox.put_nowait(json.loads(text))

    def error(self, code: str, message: str, ref: Any = None) -> None:
        self.send({"type": "error", "code": code, "message": message})

    def end(self, close_code: int) -> None:
        self.closed = True
        self.close_code = close_code


def _room_data(game_name: str, options: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    game = get_game(game_name)
    return {
        "name": "Mesa",
        "game": game.name,
        "options": game.validate_options(options),
        "owner": "p-ana",
        "visibility": "invite",
        "clock_s": 300,
        "seats": seats,
    }


def test_the_host_protocol_names_what_a_room_needs_and_the_hub_is_one(tmp_path: Path) -> None:
    from sefode.server.hub import Hub
    from sefode.store import Store

    def as_host(hub: Hub) -> RoomHost:
        return hub  # the type checker's proof that the hub is a RoomHost

    assert {"save_room", "store_action", "names", "decide", "match_ended", "is_blocked", "bot_delay_s"} <= MEMBERS
    hub = Hub(Store(f"sqlite:///{tmp_path / 'db.sqlite3'}"))
    host = as_host(hub)
    assert [name for name in sorted(MEMBERS) if not hasattr(host, name)] == []
    run_async(hub.close())


def test_a_room_plays_a_whole_match_against_a_host_that_is_not_the_hub(monkeypatch: pytest.MonkeyPatch) -> None:
    """A person and the table's bot play a Fodinha match to its end in a room whose host is no hub: the person's
    actions and the bot's go through the room, the host stores each one in order, is told the match ended, and
    stores the room with its last match; the room asks the host for nothing the protocol does not name and logs no
    error. The stored match rebuilds the same match in a new room."""
    errors: list[str] = []
    monkeypatch.setattr(logs, "error", lambda name, exc=None, **fields: errors.append(f"{name}: {exc!r} {fields}"))
    fake = FakeHost({"p-ana": "Ana"})
    view = OnlyTheProtocol(fake)
    seats = [{"player_id": "p-ana", "bot": None}, {"player_id": None, "bot": "easy"}]
    data = _room_data("fodinha", {"players": 2, "lives": 2}, seats)

    async def play() -> tuple[Room, Room, dict[str, Any], dict[str, Any]]:
        room = Room(view.host(), "r1", data, "invite-r1")
        ana = Peer("p-ana")
        ana.room = room
        await room.enter(ana)
        await room.chat("p-ana", "boa sorte")
        await room.start("p-ana")
        chat: dict[str, Any] = {}
        while True:
            msg = await asyncio.wait_for(ana.inbox.get(), WAIT_S)
            if msg["type"] == "chat":
                chat = msg
            if msg["type"] == "match_end":
                end = msg
                break
            if msg["type"] == "state" and msg["legal"]:
                await room.act("p-ana", msg["legal"][0]["action"], msg["version"])
        room.close()
        assert room.match is not None
        back = Room(view.host(), "r1", fake.rooms["r1"]["data"], fake.rooms["r1"]["invite"])
        back.restore_match(await fake.load_match(room.match.id))
        back.close()
        return room, back, end, chat

    room, back, end, chat = run_async(play())
    assert view.beyond == [] and errors == []
    run = room.match
    assert run is not None and run.over
    stored = fake.matches[run.id]
    assert fake.ended == [run.id] and end["match_id"] == run.id and end["placements"] == stored.placements
    assert len(stored.actions) == run.stored and {"human", "bot"} <= {source for _s, _a, source in stored.actions}
    assert fake.decisions > 0
    # the match's seats, stored as they always were
    assert stored.seats == [StoredSeat("p-ana"), StoredSeat(None, "easy")]
    # the room, stored with its last match; the chat named its sender through the host
    assert fake.rooms["r1"]["data"] == room.data() and room.data()["seats"] == seats
    assert room.last_match is not None and room.last_match["id"] == run.id and room.current_match is None
    assert chat["from"] == {"player_id": "p-ana", "name": "Ana", "bot": False}
    # the stored match rebuilds the same match
    assert back.match is not None and back.match.version == run.version and back.match.seats == run.seats
    assert back.data() == room.data()


def test_seats_are_typed_and_stored_as_before() -> None:
    """Room seats and match seats are dataclasses whose stored form is derived from their fields: the same keys in
    the same order as the hand-written records had, and an older row's missing key reads as its default."""
    room_seats: list[dict[str, Any]] = [
        {"player_id": "p1", "bot": None},
        {"player_id": None, "bot": "hard"},
        {"player_id": None, "bot": None},
    ]
    typed = [RoomSeat.from_json(s) for s in room_seats]
    assert typed == [RoomSeat("p1"), RoomSeat(None, BotLevel.HARD), RoomSeat()]
    assert [s.taken for s in typed] == [True, True, False]
    assert json.dumps(seats_json(typed)) == json.dumps(room_seats)
    played = [
        {"player_id": "p1", "bot": None, "left": True},
        {"player_id": None, "bot": "normal", "left": False},
        {"player_id": "p2", "bot": None, "left": False},
    ]
    typed_match = match_seats(stored_seats(played))
    assert typed_match[0] == MatchSeat("p1", None, True) and typed_match[1].bot is BotLevel.NORMAL
    assert [s.playing for s in typed_match] == [None, None, "p2"]
    assert json.dumps(seats_json(typed_match)) == json.dumps(played)
    # a row stored without "left"
    assert match_seats(stored_seats([{"player_id": "p1", "bot": None}])) == [MatchSeat("p1")]
    record = load_record(_room_data("fodinha", {"players": 3}, room_seats))
    assert record.seats == typed and record_json(record)["seats"] == room_seats


def test_a_seat_with_a_level_that_is_not_a_bot_level_does_not_load() -> None:
    from msgspec import ValidationError

    with pytest.raises(ValidationError):
        RoomSeat.from_json({"player_id": None, "bot": "god"})
    with pytest.raises(ValidationError):
        load_record(_room_data("fodinha", {"players": 2}, [{"player_id": None, "bot": "god"}] * 2))
