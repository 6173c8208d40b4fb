"""One admission check for every path that seats someone (issue 21): ``sit``, a late join (``{"join": true}``), a
seat the owner sets, a reconnection, and the start of a match (which seats the room's occupants in the match).

A bot account (``sefode.accounts.bots``) sits only where the room's owner lets outside bots sit; a person and the
table's own bots sit anywhere. Each path is tried against each setting, for a person and for a bot account. The
reconnection and start paths begin from a room stored with a bot account already in a seat where none is allowed
(what the late join wrote before it was checked), then restart the server on the same database.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from server_helpers import LiveServer, Player, registered, running_server
from table_helpers import sat, start, table, wait_state


def _newcomer(srv: LiveServer, who: str) -> Player:
    """A guest (``person``) or a bot account (``bot_account``) made by a registered player."""
    if who == "person":
        return srv.player("Gil")
    maker = registered(srv, "dona")
    response = maker.post("/api/account/bots", {"name": "Robô"})
    assert response.status_code == 200, response.text
    made: dict[str, Any] = response.json()
    bot = Player.__new__(Player)
    bot.server, bot.token, bot.id, bot.name = srv, made["token"], made["bot_id"], made["name"]
    return bot


PATHS = ("sit", "late_join", "reconnect", "start")
SETTINGS = (False, True)
WHO = ("person", "bot_account")


@pytest.mark.parametrize("who", WHO)
@pytest.mark.parametrize("outside_bots", SETTINGS)
@pytest.mark.parametrize("path", PATHS)
def test_every_seating_path_admits_by_the_rooms_setting(
    tmp_path: Path, path: str, outside_bots: bool, who: str
) -> None:
    allowed = who == "person" or outside_bots
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    if path == "sit":
        with running_server(url) as srv:
            newcomer = _newcomer(srv, who)
            owner = srv.player("Ana")
            created = owner.create_room(name="Mesa", options={"players": 2}, sit=True, outside_bots=outside_bots)
            client = newcomer.connect()
            assert client.join(created["room_id"])["type"] == "room"
            client.send("sit", seat=1)
            answer = client.wait(lambda m: m["type"] == "error" or sat(newcomer.id, 1)(m))
            assert (answer["type"] == "room") is allowed, answer
            if not allowed:
                assert answer["code"] == "room/no_bots"
        return
    if path == "late_join":
        with running_server(url) as srv:
            newcomer = _newcomer(srv, who)
            room_id, (ana, bia) = table(
                srv, ["Ana", "Bia"], {"variant": "7letras", "players": 2}, outside_bots=outside_bots
            )
            first = start(ana, [bia])
            client = newcomer.connect()
            assert client.join(room_id)["type"] == "room"
            wait_state(client, lambda m: True)
            client.send("action", action={"join": True}, version=first["version"])
            answer = client.wait(lambda m: m["type"] == "error" or (m["type"] == "state" and m["seat"] == 2))
            assert (answer["type"] == "state") is allowed, answer
            room = _fresh_room(ana)
            assert (newcomer.id in [s["player_id"] for s in room["match"]["seats"]]) is allowed
            assert (newcomer.id in [s["player_id"] for s in room["seats"]]) is allowed  # the next matches' seating
            if not allowed:
                assert answer["code"] == "room/no_bots"
        return
    # reconnect, start: a room stored with the newcomer in seat 1 (as the unchecked late join left it)
    with running_server(url) as first_srv:
        newcomer = _newcomer(first_srv, who)
        owner = first_srv.player("Ana")
        created = owner.create_room(name="Mesa", options={"players": 2}, sit=True, outside_bots=outside_bots)
        room_id = created["room_id"]
        store = first_srv.hub.store
        data, invite = store.load_room(room_id)
        data["seats"][1] = {"player_id": newcomer.id, "bot": None}
        store.save_room(room_id, data, data["visibility"], invite)
    with running_server(url) as srv:
        if path == "reconnect":
            client = newcomer.connect(srv)
            joined = client.join(room_id)
            assert joined["type"] == "room", joined
            room = _fresh_room(client)
            assert (room["your_seat"] == 1) is allowed, room
            assert (room["seats"][1]["player_id"] == newcomer.id) is allowed, room
        else:
            ana = owner.connect(srv)
            assert ana.join(room_id)["type"] == "room"
            start(ana)
            room = _fresh_room(ana)
            assert (room["match"]["seats"][1]["player_id"] == newcomer.id) is allowed, room
            if not allowed:
                assert room["match"]["seats"][1]["bot"] is not None  # the table's bot plays the seat
                assert room["seats"][1]["player_id"] is None


@pytest.mark.parametrize("outside_bots", SETTINGS)
def test_a_seat_the_owner_sets_is_a_table_bot_whatever_the_setting(tmp_path: Path, outside_bots: bool) -> None:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as srv:
        owner = srv.player("Ana")
        created = owner.create_room(name="Mesa", options={"players": 2}, sit=True, outside_bots=outside_bots)
        ana = owner.connect()
        assert ana.join(created["room_id"])["type"] == "room"
        ana.send("set_seat", seat=1, bot="easy")
        room = ana.wait(lambda m: m["type"] == "room" and m["room"]["seats"][1]["bot"] == "easy")["room"]
        assert room["seats"][1]["player_id"] is None and room["seats"][1]["bot_account"] is False


def _fresh_room(client: Any) -> dict[str, Any]:
    """The room as the server has it now: a ping's answer comes after every message sent before it."""
    client.send("ping")
    client.wait_type("pong")
    assert client.room is not None
    room: dict[str, Any] = client.room
    return room


def test_a_reconnection_to_a_match_takes_the_seat_from_a_bot_account_the_room_no_longer_admits(tmp_path: Path) -> None:
    """A bot account holding a match seat in a room that lets none sit (stored so by the unchecked late join): when it
    comes back it watches, and the table's bot plays its seat."""
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running_server(url, disconnect_grace_s=600.0) as first_srv:
        bot = _newcomer(first_srv, "bot_account")
        owner = first_srv.player("Ana")
        created = owner.create_room(name="Mesa", options={"players": 2}, sit=True, outside_bots=True)
        room_id = created["room_id"]
        ana, robot = owner.connect(), bot.connect()
        assert ana.join(room_id)["type"] == "room" and robot.join(room_id)["type"] == "room"
        robot.send("sit", seat=1)
        ana.wait(sat(bot.id, 1))
        start(ana, [robot])
        ana.close()
        robot.close()
        store = first_srv.hub.store
        data, invite = store.load_room(room_id)
        data["outside_bots"] = False
        store.save_room(room_id, data, data["visibility"], invite)
    with running_server(url, disconnect_grace_s=600.0) as srv:
        back = bot.connect(srv)
        assert back.join(room_id)["type"] == "room"
        state = wait_state(back, lambda m: True)
        assert state["seat"] is None  # the spectators' view
        room = _fresh_room(back)
        assert room["your_seat"] is None and room["seats"][1]["player_id"] is None
        assert room["match"]["seats"][1]["left"] is True
        stored = srv.hub.store.load_match(room["match"]["id"])
        assert stored is not None and stored.seats[1].left is True
