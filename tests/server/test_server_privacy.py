"""Issue 24 item 4: deleting an account anonymises the player by id, and never rewrites other people's text
(docs/security.md, "Sessions")."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from server_helpers import LiveServer, Player, running_server

from sefode.accounts.service import ANONYMOUS_NAME
from sefode.server.privacy import rename_records
from sefode.server.room import DEFAULT_TEAMS


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
        yield live


def _registered(srv: LiveServer, name: str, username: str) -> Player:
    player = srv.player(name)
    answer = srv.http.post(
        "/api/account/register",
        json={"username": username, "password": "correct horse"},
        headers=player.auth,
    )
    assert answer.status_code == 200, answer.text
    srv.http.cookies.clear()
    player.token = answer.json()["token"]
    return player


def _delete(srv: LiveServer, player: Player) -> None:
    answer = srv.http.post("/api/account/delete", json={"password": "correct horse"}, headers=player.auth)
    assert answer.status_code == 200, answer.text


def test_deleting_an_account_leaves_other_peoples_room_and_team_names_alone(srv: LiveServer) -> None:
    """A player renamed "a" who deleted their account turned "Mesa da Ana" into "MesAnônimo dAnônimo
    AnônimonAnônimo", and team names too."""
    ana = srv.player("Ana")
    room_id = ana.create_room(name="Mesa da Ana", options={"players": 4, "teams": True})["room_id"]
    owner = ana.connect()
    owner.join(room_id)
    owner.send("set_teams", teams=[{"name": "Time da Ana"}, {"name": "Banana"}])
    owner.wait(lambda m: m["type"] == "room" and m["room"]["teams"][1]["name"] == "Banana")
    vandal = _registered(srv, "a", "vandal")
    client = vandal.connect()
    client.join(room_id)
    client.send("chat", text="oi, Ana")
    owner.wait(lambda m: m["type"] == "chat" and m["from"]["player_id"] == vandal.id)
    _delete(srv, vandal)
    room = srv.hub.rooms[room_id]
    assert room.name == "Mesa da Ana"
    assert [t["name"] for t in room.teams][:2] == ["Time da Ana", "Banana"]
    served = srv.http.get(f"/api/rooms/{room_id}").json()
    assert served["name"] == "Mesa da Ana"


def test_the_chat_of_a_deleted_account_shows_the_anonymous_name(srv: LiveServer) -> None:
    """The stored chat still showed the deleted nickname."""
    ana = srv.player("Ana")
    room_id = ana.create_room(name="Mesa", options={"players": 3})["room_id"]
    owner = ana.connect()
    owner.join(room_id)
    zeca = _registered(srv, "Zequinha", "zequinha")
    client = zeca.connect()
    client.join(room_id)
    client.send("chat", text="meu nome é segredo")
    owner.wait(lambda m: m["type"] == "chat" and m["from"]["player_id"] == zeca.id)
    owner.send("chat", text="tchau, Zequinha")  # someone else's text naming them is theirs: it stays
    owner.wait(lambda m: m["type"] == "chat" and m["from"]["player_id"] == ana.id)
    _delete(srv, zeca)
    room = srv.hub.rooms[room_id]
    stored = json.dumps(room.data(), ensure_ascii=False)
    assert "Zequinha" not in stored.replace("tchau, Zequinha", "")
    senders = {m["from"]["player_id"]: m["from"]["name"] for m in room.chat_log}
    assert senders == {zeca.id: ANONYMOUS_NAME, ana.id: "Ana"}
    late = srv.player("Bia").connect()
    late.join(room_id)
    recap = [late.wait(lambda m: m["type"] == "chat") for _ in range(2)]
    assert [m["from"]["name"] for m in recap] == [ANONYMOUS_NAME, "Ana"]


def test_deleting_an_account_resets_the_names_it_gave_its_own_rooms(srv: LiveServer) -> None:
    """What the owner typed (the room's name, its teams) is theirs: it goes back to the server's defaults."""
    zeca = _registered(srv, "Zeca", "zeca")
    room_id = zeca.create_room(name="Mesa do Zeca", options={"players": 4, "teams": True})["room_id"]
    client = zeca.connect()
    client.join(room_id)
    client.send("set_teams", teams=[{"name": "Zeca e cia", "symbol": "Z"}])
    client.wait(lambda m: m["type"] == "room" and m["room"]["teams"][0]["name"] == "Zeca e cia")
    solo = srv.http.post("/api/solo", json={"bots": 1, "clock_s": 300}, headers=zeca.auth)
    assert solo.status_code == 200, solo.text
    solo_id = solo.json()["room_id"]
    _delete(srv, zeca)
    room = srv.hub.rooms[room_id]
    assert room.name == "Mesa"
    assert [(t["name"], t["symbol"]) for t in room.teams] == [(d["name"], d["symbol"]) for d in DEFAULT_TEAMS[:2]]
    assert srv.hub.rooms[solo_id].name == f"Solo: {ANONYMOUS_NAME}"
    for where in (json.dumps([srv.hub.rooms[r].data() for r in (room_id, solo_id)]), srv.http.get("/api/rooms").text):
        assert "zeca" not in where.lower()


def test_records_are_renamed_by_player_id_only() -> None:
    records = {
        "chat": [
            {"from": {"player_id": "p1", "name": "a"}, "text": "a a a"},
            {"from": {"player_id": "p2", "name": "Ana"}},
        ],
        "seats": [{"player_id": "p1", "name": "a"}, {"player_id": None, "name": "a"}],
    }
    assert rename_records(records, "p1", "X") == 2
    assert records == {
        "chat": [
            {"from": {"player_id": "p1", "name": "X"}, "text": "a a a"},
            {"from": {"player_id": "p2", "name": "Ana"}},
        ],
        "seats": [{"player_id": "p1", "name": "X"}, {"player_id": None, "name": "a"}],
    }
