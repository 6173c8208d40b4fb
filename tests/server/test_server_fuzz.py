"""The fuzz suite (issue 10, "Keep it held"): hypothesis-generated WebSocket messages from every role, and
hypothesis-generated HTTP bodies for every endpoint.

- WebSocket: the owner (seated), a seated player, a spectator and an outsider of a room with a match on send
  generated messages; whenever the server refuses one (an ``error``), the room, its match and every seat's view are
  exactly as before. Nothing ever answers ``server/error``.
- HTTP: every POST endpoint gets generated bodies (JSON objects with its own keys and hostile values, other JSON,
  raw bytes); every answer is a 2xx or a 4xx with the ``{"error": {"code", "message"}}`` shape, never a 5xx.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from server_helpers import LOOSE, Client, LiveServer, Player, running_server
from table_helpers import start, table

from sefode.server.limits import Limits

HOSTILE_TEXT = st.sampled_from(
    ["", " ", "x\ud800", "\udfff", "a\x00b", "\x1b[31m", "Jose\u0301", "ç" * 30, "x" * 600, "0", "-1", "null"]
)
SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
    | HOSTILE_TEXT
)
JSON = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10) | HOSTILE_TEXT, inner, max_size=4),
    max_leaves=12,
)
TYPES = ["join", "sit", "stand", "set_seat", "set_teams", "start", "action", "chat", "pause", "ping", "auth", "x"]
FIELDS = ["room", "password", "invite", "seat", "bot", "draw", "pairs", "teams", "action", "version", "text", "vote"]
FIELDS += ["ref", "token", "type"]


@st.composite
def ws_message(draw: st.DrawFn) -> str:
    """A WebSocket frame: mostly a message of a known type with generated fields, sometimes anything."""
    kind = draw(st.integers(0, 9))
    if kind == 0:
        return draw(st.text(max_size=60))
    if kind == 1:
        return json.dumps(draw(JSON))
    message: dict[str, Any] = {"type": draw(st.sampled_from(TYPES))}
    for key in draw(st.lists(st.sampled_from(FIELDS), max_size=4, unique=True)):
        message[key] = draw(JSON)
    if kind == 2:
        message["version"] = draw(st.integers(-2, 3))
        message["action"] = draw(st.dictionaries(st.sampled_from(["bid", "play", "leave", "join", "show"]), JSON))
    if kind == 3:
        message["ref"] = draw(st.integers(min_value=-(2**80), max_value=2**80) | st.text(max_size=80))
    return json.dumps(message)  # lone surrogates go out as \\udXXX escapes, as an attacker would send them


def snapshot(srv: LiveServer, room_id: str) -> str:
    room = srv.hub.rooms[room_id]
    run = room.match
    views = []
    if run is not None:
        views = [run.game.view(run.state, s) for s in range(run.game.seats(run.state))]
        views.append(run.game.view(run.state, None))
    return json.dumps(
        {
            "room": room.data(),
            "version": None if run is None else run.version,
            "views": views,
            "paused": room.paused_until is not None,
            "votes": sorted(room.pause_votes),
            "rooms": sorted(srv.hub.rooms),
        },
        sort_keys=True,
        default=str,
    )


class Table:
    def __init__(self, srv: LiveServer) -> None:
        self.srv = srv
        self.room_id, (self.owner, self.seated, self.third) = table(srv, ["Ana", "Bia", "Carl"], {"players": 3})
        start(self.owner, [self.seated, self.third])
        room = srv.hub.rooms[self.room_id]
        self.spectator = srv.player("Spec").connect()
        assert self.spectator.join(self.room_id, invite=room.invite_token)["type"] == "room"
        self.outsider = srv.player("Out").connect()
        self.roles = {
            "owner": self.owner,
            "seated": self.seated,
            "spectator": self.spectator,
            "outsider": self.outsider,
        }


@pytest.fixture(scope="module")
def fuzz_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Table]:
    path = tmp_path_factory.mktemp("fuzz") / "db.sqlite3"
    # The per-connection bucket is tested elsewhere (test_server_protocol); here every message must be handled.
    limits = dataclasses.replace(LOOSE, connection_messages_burst=1e6, connection_messages_per_s=1e6)
    with running_server(f"sqlite:///{path}", limits=limits) as srv:
        yield Table(srv)


def exchange(client: Client, raw: str) -> list[dict[str, Any]]:
    """Send ``raw`` then a ping; everything the server answered to ``raw`` arrives before the pong."""
    client.received.clear()
    client.send_raw(raw)
    client.send("ping")
    client.wait_type("pong")
    return client.received[:-1]


@pytest.mark.parametrize("role", ["owner", "seated", "spectator", "outsider"])
@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_a_refused_websocket_message_changes_nothing(fuzz_table: Table, role: str, data: st.DataObject) -> None:
    client = fuzz_table.roles[role]
    raw = data.draw(ws_message())
    before = snapshot(fuzz_table.srv, fuzz_table.room_id)
    answers = exchange(client, raw)
    for other in (*fuzz_table.roles.values(), fuzz_table.third):  # keep everyone's socket drained
        if other is not client:
            other.poll()
    errors = [m for m in answers if m["type"] == "error"]
    assert all(e["code"] != "server/error" for e in errors), (raw, errors)
    if errors:
        assert snapshot(fuzz_table.srv, fuzz_table.room_id) == before, (raw, errors)
        for error in errors:
            assert isinstance(error["message"], str) and error["message"]
            json.dumps(error, ensure_ascii=False).encode("utf-8")  # valid Unicode all the way back
    if role == "outsider" and client.room is not None:  # it joined (a valid message): leave for the next example
        fuzz_table.outsider.close()
        fuzz_table.outsider = fuzz_table.srv.player("Out").connect()
        fuzz_table.roles["outsider"] = fuzz_table.outsider


# ----------------------------------------------------------------------------------------------- HTTP
ENDPOINTS: dict[str, list[str]] = {
    "/api/session": ["name"],
    "/api/rooms": ["name", "game", "options", "bots", "clock_s", "visibility", "password", "sit", "tournament"],
    "/api/solo": ["variant", "bots", "level", "teams", "clock_s"],
    "/api/account/register": ["username", "password", "name"],
    "/api/account/login": ["username", "password"],
    "/api/account/nickname": ["name"],
    "/api/account/delete": ["password"],
    "/api/account/logout": [],
    "/api/account/logout-all": [],
    "/api/rooms/ROOM/tournament": ["matches"],
}


@st.composite
def http_body(draw: st.DrawFn, keys: list[str]) -> bytes:
    kind = draw(st.integers(0, 5))
    if kind == 0:
        return draw(st.binary(max_size=80))
    if kind == 1:
        return json.dumps(draw(JSON)).encode()
    body = {k: draw(JSON) for k in draw(st.lists(st.sampled_from(keys or ["x"]), max_size=len(keys) + 1))}
    if kind == 2 and keys:
        body[keys[0]] = draw(HOSTILE_TEXT)
    return json.dumps(body).encode()


ENDS_SESSION = {"/api/account/logout", "/api/account/logout-all", "/api/account/delete"}
_PLAYERS: dict[str, Player] = {}


@pytest.fixture(scope="module")
def http_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[LiveServer, str]]:
    path = tmp_path_factory.mktemp("fuzz_http") / "db.sqlite3"
    limits = Limits(**{**LOOSE.__dict__, "open_rooms_per_player": 2})  # a few solo matches at most
    with running_server(f"sqlite:///{path}", limits=limits) as srv:
        owner = srv.player("Owner")
        room_id = owner.create_room(name="Mesa", options={"players": 3})["room_id"]
        _PLAYERS.clear()
        yield srv, room_id


@pytest.mark.parametrize("path", sorted(ENDPOINTS))
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_generated_http_bodies_never_give_a_server_error(
    http_server: tuple[LiveServer, str], path: str, data: st.DataObject
) -> None:
    srv, room_id = http_server
    body = data.draw(http_body(ENDPOINTS[path]))
    if path in ENDS_SESSION or path not in _PLAYERS:  # one player per endpoint, unless the call may end it
        _PLAYERS[path] = srv.player("Fuzz")
    player = _PLAYERS[path]
    answer = srv.http.post(
        path.replace("ROOM", room_id),
        content=body,
        headers={"authorization": f"Bearer {player.token}", "content-type": "application/json"},
    )
    srv.http.cookies.clear()
    assert answer.status_code < 500, (path, body, answer.text)
    if answer.status_code >= 400:
        error = answer.json()["error"]
        assert isinstance(error["code"], str) and isinstance(error["message"], str)


def test_the_fuzz_table_is_still_playable(fuzz_table: Table, tmp_path: Path) -> None:
    """After the fuzzing, the table still answers and its match is still on."""
    room = fuzz_table.srv.hub.rooms[fuzz_table.room_id]
    assert room.playing
    fuzz_table.owner.send("ping")
    assert fuzz_table.owner.wait_type("pong")
    assert fuzz_table.srv.http.get("/api/rooms").status_code == 200
    assert fuzz_table.srv.http.get(f"/api/rooms/{fuzz_table.room_id}").status_code == 200
