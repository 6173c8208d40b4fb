"""Moderation on a live server (issue 28, docs/accounts-api.md "Moderation", docs/operating.md "Moderation"): the
operator's ``sefode admin grant|revoke``, every moderator route refused to non-moderators, moderators never acting on
each other, players' reports keeping the server's own chat, and each action's effect on live sockets (mute, kick,
ban, close, rename), the audit list, and a ban that survives a restart."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import LOOSE, Client, LiveServer, Player, registered, running_server
from table_helpers import sat, start
from websockets.exceptions import ConnectionClosed

from sefode.cli import main as cli
from sefode.server.limits import Limits

OPTIONS = {"players": 3, "lives": 1}


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db.sqlite3'}"


@pytest.fixture
def srv(db: str) -> Iterator[LiveServer]:
    with running_server(db) as live:
        yield live


def _call(srv: LiveServer, method: str, path: str, who: Player | None, body: Any = None) -> httpx.Response:
    srv.http.cookies.clear()
    headers = who.auth if who is not None else None
    return srv.http.request(method, path, json=body, headers=headers)


def _ok(answer: httpx.Response) -> dict[str, Any]:
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _code(answer: httpx.Response) -> str:
    code: str = answer.json()["error"]["code"]
    return code


def _moderator(srv: LiveServer, db: str, username: str) -> Player:
    player = registered(srv, username)
    assert cli(["admin", "grant", username, "--database", db]) == 0
    return player


def _closed_with(client: Client) -> int | None:
    try:
        while True:
            client.ws.recv(timeout=20)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def _seated(owner: Player, others: list[Player]) -> tuple[str, list[Client]]:
    created = owner.create_room(name="Mesa", options=OPTIONS)
    room_id = created["room_id"]
    clients = []
    for i, player in enumerate([owner, *others]):
        client = player.connect()
        assert client.join(room_id)["type"] == "room"
        if i:
            client.send("sit", seat=i)
            client.wait(sat(player.id, i))
        clients.append(client)
    return room_id, clients


MOD_ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/api/mod/reports", None),
    ("POST", "/api/mod/reports/x/close", {"reason": "r"}),
    ("POST", "/api/mod/mute", {"player_id": "x", "reason": "r"}),
    ("POST", "/api/mod/unmute", {"player_id": "x", "reason": "r"}),
    ("POST", "/api/mod/ban", {"player_id": "x", "reason": "r"}),
    ("POST", "/api/mod/unban", {"player_id": "x", "reason": "r"}),
    ("POST", "/api/mod/kick", {"player_id": "x", "room_id": "y", "reason": "r"}),
    ("POST", "/api/mod/close-room", {"room_id": "y", "reason": "r"}),
    ("POST", "/api/mod/rename-room", {"room_id": "y", "name": "Mesa", "reason": "r"}),
    ("POST", "/api/mod/rename-player", {"player_id": "x", "name": "Fulano", "reason": "r"}),
    ("GET", "/api/mod/audit", None),
]


def test_admin_grant_and_revoke_change_the_role_and_an_unknown_user_gets_one_clear_line(
    srv: LiveServer, db: str, capsys: pytest.CaptureFixture[str]
) -> None:
    ana = registered(srv, "ana")
    assert _ok(_call(srv, "GET", "/api/mod/me", ana)) == {"player_id": ana.id, "moderator": False}
    assert cli(["admin", "grant", "Ana", "--database", db]) == 0
    assert "Ana is a moderator" in capsys.readouterr().out
    assert _ok(_call(srv, "GET", "/api/mod/me", ana))["moderator"] is True
    assert cli(["admin", "revoke", "ana", "--database", db]) == 0
    assert "no longer" in capsys.readouterr().out
    assert _ok(_call(srv, "GET", "/api/mod/me", ana))["moderator"] is False
    assert cli(["admin", "grant", "nobody", "--database", db]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "sefode admin: there is no account with the username 'nobody'", err


def test_every_moderator_route_refuses_no_session_guests_and_plain_accounts(srv: LiveServer) -> None:
    bia, guest = registered(srv, "bia"), srv.player("Gil")
    for method, path, body in MOD_ROUTES:
        anonymous = _call(srv, method, path, None, body)
        assert anonymous.status_code == 401 and _code(anonymous) == "auth/required", (path, anonymous.text)
        for who in (guest, bia):
            refused = _call(srv, method, path, who, body)
            assert refused.status_code == 403 and _code(refused) == "mod/forbidden", (path, refused.text)


def test_a_moderator_needs_a_reason_and_never_acts_on_another_moderator(srv: LiveServer, db: str) -> None:
    mod, other, bia = _moderator(srv, db, "mod"), _moderator(srv, db, "outro"), registered(srv, "bia")
    no_reason = _call(srv, "POST", "/api/mod/mute", mod, {"player_id": bia.id})
    assert no_reason.status_code == 400 and _code(no_reason) == "mod/reason_required"
    blank = _call(srv, "POST", "/api/mod/ban", mod, {"player_id": bia.id, "reason": "  "})
    assert _code(blank) == "mod/reason_required"
    for path in ("/api/mod/mute", "/api/mod/ban", "/api/mod/rename-player"):
        protected = _call(srv, "POST", path, mod, {"player_id": other.id, "reason": "r", "name": "X"})
        assert protected.status_code == 403 and _code(protected) == "mod/protected", path
    self_ban = _call(srv, "POST", "/api/mod/ban", mod, {"player_id": mod.id, "reason": "r"})
    assert _code(self_ban) == "mod/self"
    assert _ok(_call(srv, "GET", "/api/mod/audit", mod))["entries"] == []  # nothing refused was logged


def test_a_report_keeps_the_servers_chat_and_the_match_and_is_rate_limited(db: str) -> None:
    limits = Limits(**{**LOOSE.__dict__, "reports_burst": 1, "reports_per_s": 0.001})
    with running_server(db, limits=limits) as srv:
        ana, bia, caio = registered(srv, "ana"), registered(srv, "bia"), srv.player("Caio")
        mod = _moderator(srv, db, "mod")
        room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
        bia_ws.send("chat", text="palavrão")
        ana_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "palavrão")
        state = start(ana_ws, [bia_ws])
        stranger = _call(srv, "POST", "/api/reports", caio, {"player_id": bia.id, "room_id": room_id})
        assert stranger.status_code == 403 and _code(stranger) == "report/not_in_room"
        forged = {"player_id": bia.id, "room_id": room_id, "chat_id": 99, "chat": [{"text": "forjado"}]}
        assert _code(_call(srv, "POST", "/api/reports", ana, forged)) == "report/no_message"
        body = {"player_id": bia.id, "room_id": room_id, "chat_id": 1, "note": "ofensa", "chat": [{"text": "x"}]}
        made = _ok(_call(srv, "POST", "/api/reports", ana, body))
        limited = _call(srv, "POST", "/api/reports", ana, body)
        assert limited.status_code == 429 and _code(limited) == "rate/limited"
        (report,) = _ok(_call(srv, "GET", "/api/mod/reports", mod))["reports"]
        assert report["id"] == made["id"] and report["reporter"]["player_id"] == ana.id
        assert report["reported"]["player_id"] == bia.id and report["match_id"] == state["match_id"]
        assert [m["text"] for m in report["chat"]] == ["palavrão"]  # the server's chat, not the client's
        assert report["chat_id"] == 1 and report["note"] == "ofensa"
        _ok(_call(srv, "POST", f"/api/mod/reports/{made['id']}/close", mod, {"reason": "avisado"}))
        assert _ok(_call(srv, "GET", "/api/mod/reports", mod))["reports"] == []
        ana_ws.close()
        bia_ws.close()


def test_a_muted_player_can_neither_chat_nor_react_until_unmuted(srv: LiveServer, db: str) -> None:
    mod, ana, bia = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Bia")
    _room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
    _ok(_call(srv, "POST", "/api/mod/mute", mod, {"player_id": bia.id, "reason": "xingou", "minutes": 30}))
    assert bia_ws.error("chat", text="oi")["code"] == "chat/muted"
    assert bia_ws.error("react", reaction="gg")["code"] == "chat/muted"
    _ok(_call(srv, "POST", "/api/mod/unmute", mod, {"player_id": bia.id, "reason": "cumpriu"}))
    bia_ws.send("chat", text="desculpa")
    ana_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "desculpa")
    ana_ws.close()
    bia_ws.close()


def test_a_kicked_player_leaves_the_room_and_cannot_come_back(srv: LiveServer, db: str) -> None:
    mod, ana, bia = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Bia")
    room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
    _ok(_call(srv, "POST", "/api/mod/kick", mod, {"player_id": bia.id, "room_id": room_id, "reason": "spam"}))
    assert bia_ws.wait_type("error")["code"] == "room/kicked"
    ana_ws.wait(lambda m: m["type"] == "room" and all(s["player_id"] != bia.id for s in m["room"]["seats"]))
    assert bia_ws.error("chat", text="voltei")["code"] == "room/not_joined"
    assert bia_ws.join(room_id)["code"] == "room/kicked"
    ana_ws.close()
    bia_ws.close()


def test_a_kick_is_kept_with_the_room_across_a_restart(db: str) -> None:
    with running_server(db) as srv:
        mod, ana, bia = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Bia")
        room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
        _ok(_call(srv, "POST", "/api/mod/kick", mod, {"player_id": bia.id, "room_id": room_id, "reason": "spam"}))
        assert bia_ws.wait_type("error")["code"] == "room/kicked"
        ana_ws.close()
        bia_ws.close()
    with running_server(db) as again:
        bia.server = ana.server = again
        again_ws = bia.connect()
        assert again_ws.join(room_id)["code"] == "room/kicked"  # the room came back from the store, and so did the kick
        assert ana.connect().join(room_id)["type"] == "room"  # the room itself is there for the others


def test_a_ban_closes_sockets_refuses_login_and_survives_a_restart(db: str) -> None:
    with running_server(db) as srv:
        mod, ana, gil = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Gil")
        ana_ws, gil_ws = ana.connect(), gil.connect()
        _ok(_call(srv, "POST", "/api/mod/ban", mod, {"player_id": ana.id, "reason": "trapaça"}))
        assert _closed_with(ana_ws) == 4410
        login = srv.http.post("/api/account/login", json={"username": "ana", "password": "correct horse"})
        srv.http.cookies.clear()
        assert login.status_code == 403 and _code(login) == "auth/banned"
        assert _call(srv, "GET", "/api/account/me", ana).status_code == 401  # the old session ended
        # A guest is banned by their session: its token stops working.
        _ok(_call(srv, "POST", "/api/mod/ban", mod, {"player_id": gil.id, "reason": "spam", "minutes": 60}))
        assert _closed_with(gil_ws) == 4410
        assert _call(srv, "POST", "/api/rooms", gil, {"name": "x", "options": OPTIONS}).status_code == 401
    with running_server(db) as again:
        login = again.http.post("/api/account/login", json={"username": "ana", "password": "correct horse"})
        assert login.status_code == 403 and _code(login) == "auth/banned"
        mod.server = again
        _ok(_call(again, "POST", "/api/mod/unban", mod, {"player_id": ana.id, "reason": "recurso aceito"}))
        login = again.http.post("/api/account/login", json={"username": "ana", "password": "correct horse"})
        again.http.cookies.clear()
        assert login.status_code == 200, login.text
        actions = [e["action"] for e in _ok(_call(again, "GET", "/api/mod/audit", mod))["entries"]]
        assert actions == ["unban", "ban", "ban"]


def test_closing_a_room_tells_its_players_and_keeps_the_match(srv: LiveServer, db: str) -> None:
    mod, ana, bia = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Bia")
    room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
    state = start(ana_ws, [bia_ws])
    done = _ok(_call(srv, "POST", "/api/mod/close-room", mod, {"room_id": room_id, "reason": "nome ofensivo"}))
    assert done["match"] == state["match_id"]
    for client in (ana_ws, bia_ws):
        told = client.wait_type("room_closed")
        assert told == {"type": "room_closed", "room": room_id, "match": state["match_id"]}
    assert room_id not in srv.hub.rooms
    kept = srv.hub.store.load_match(state["match_id"])  # the match is kept as it stood
    assert kept is not None and kept.id == state["match_id"]
    assert ana_ws.join(room_id)["code"] == "room/not_found"
    ana_ws.close()
    bia_ws.close()


def test_renaming_a_room_and_a_nickname_reaches_the_table_and_the_audit_list_says_who_and_why(
    srv: LiveServer, db: str
) -> None:
    mod, ana, bia = _moderator(srv, db, "mod"), registered(srv, "ana"), srv.player("Bia")
    room_id, (ana_ws, bia_ws) = _seated(ana, [bia])
    body = {"room_id": room_id, "name": "Mesa da Ana", "reason": "nome ofensivo"}
    _ok(_call(srv, "POST", "/api/mod/rename-room", mod, body))
    ana_ws.wait(lambda m: m["type"] == "room" and m["room"]["name"] == "Mesa da Ana")
    renamed = {"player_id": bia.id, "name": "Jogadora", "reason": "apelido"}
    _ok(_call(srv, "POST", "/api/mod/rename-player", mod, renamed))
    ana_ws.wait(lambda m: m["type"] == "room" and any(s.get("name") == "Jogadora" for s in m["room"]["seats"]))
    entries = _ok(_call(srv, "GET", "/api/mod/audit", mod))["entries"]
    assert [(e["action"], e["reason"], e["moderator"]["name"]) for e in entries] == [
        ("rename_player", "apelido", "mod"),
        ("rename_room", "nome ofensivo", "mod"),
    ]
    assert entries[0]["player"] == {"player_id": bia.id, "name": "Jogadora"}
    assert entries[0]["detail"] == {"from": "Bia", "to": "Jogadora"} and entries[1]["room_id"] == room_id
    ana_ws.close()
    bia_ws.close()
