"""Friends on a live server (issue 23, docs/accounts-api.md "Friends"): every route's permissions (no session, a
guest, another account), the rate limits, presence (online, and at which *public* table: never a password or
invite-only room), invitations that admit the friend, blocking on live sockets (chat and reactions never reach the
blocker; the blocked player neither sits nor watches in the blocker's rooms), what survives a restart, and deletion."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from server_helpers import LOOSE, Client, LiveServer, Player, registered, running_server
from table_helpers import sat

from sefode.server.limits import Limits

OPTIONS = {"players": 3, "lives": 1}


@pytest.fixture
def srv(tmp_path: Path) -> Iterator[LiveServer]:
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}") as live:
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


def _panel(srv: LiveServer, who: Player) -> dict[str, Any]:
    return _ok(_call(srv, "GET", "/api/account/friends", who))


def _befriend(srv: LiveServer, one: Player, two: Player) -> None:
    assert _ok(_call(srv, "POST", "/api/account/friends", one, {"name": two.name}))["status"] == "requested"
    assert _ok(_call(srv, "POST", f"/api/account/friends/{one.id}/accept", two))["status"] == "friends"


ROUTES: list[tuple[str, str, Any]] = [
    ("GET", "/api/account/friends", None),
    ("POST", "/api/account/friends", {"name": "bia"}),
    ("POST", "/api/account/friends/x/accept", None),
    ("POST", "/api/account/friends/x/decline", None),
    ("POST", "/api/account/friends/x/remove", None),
    ("GET", "/api/account/friends/x/record", None),
    ("GET", "/api/account/relations?ids=x", None),
    ("POST", "/api/account/blocks", {"player_id": "x"}),
    ("POST", "/api/account/blocks/x/remove", None),
    ("POST", "/api/account/invites", {"player_id": "x", "room_id": "y"}),
]


def test_friends_need_an_account_no_session_and_guests_are_refused(srv: LiveServer) -> None:
    registered(srv, "bia")
    guest = srv.player("Gil")
    for method, path, body in ROUTES:
        anonymous = _call(srv, method, path, None, body)
        assert anonymous.status_code == 401 and _code(anonymous) == "auth/required", (path, anonymous.text)
        refused = _call(srv, method, path, guest, body)
        assert refused.status_code == 403 and _code(refused) == "friends/account_only", (path, refused.text)


def test_a_friend_request_by_name_accepted_and_each_panel_is_its_owners_alone(srv: LiveServer) -> None:
    ana, bia, caio = registered(srv, "ana"), registered(srv, "bia"), registered(srv, "caio")
    assert _ok(_call(srv, "POST", "/api/account/friends", ana, {"name": "Bia"}))["status"] == "requested"
    assert [p["player_id"] for p in _panel(srv, bia)["incoming"]] == [ana.id]
    assert _panel(srv, caio)["incoming"] == []  # another account sees nothing of it
    refused = _call(srv, "POST", f"/api/account/friends/{ana.id}/accept", caio)
    assert refused.status_code == 404 and _code(refused) == "friends/no_request"
    assert _ok(_call(srv, "POST", f"/api/account/friends/{ana.id}/accept", bia))["status"] == "friends"
    assert [f["username"] for f in _panel(srv, ana)["friends"]] == ["bia"]
    assert [f["username"] for f in _panel(srv, bia)["friends"]] == ["ana"]
    assert _panel(srv, caio)["friends"] == []
    assert _ok(_call(srv, "GET", f"/api/account/friends/{bia.id}/record", ana)) == {
        "friend": {"player_id": bia.id, "name": "bia", "username": "bia"},
        "matches": 0,
        "games": [],
    }
    hidden = _call(srv, "GET", f"/api/account/friends/{bia.id}/record", caio)  # not Caio's friend: not his to read
    assert hidden.status_code == 404 and _code(hidden) == "friends/not_friends"
    # What Ana is to the players of a table: only her own relations, and only of players that exist.
    guest = srv.player("Gil")
    rel = _ok(_call(srv, "GET", f"/api/account/relations?ids={bia.id},{caio.id},{guest.id},nobody", ana))["players"]
    assert rel[bia.id]["friend"] and rel[bia.id]["account"] and not rel[caio.id]["friend"]
    assert rel[guest.id] == {
        "account": False,
        "friend": False,
        "requested": False,
        "asked_you": False,
        "blocked": False,
    }
    assert "nobody" not in rel
    assert _ok(_call(srv, "POST", f"/api/account/friends/{bia.id}/remove", ana))["status"] == "none"
    assert _panel(srv, bia)["friends"] == []


def test_bad_friend_requests_get_clear_errors_and_change_nothing(srv: LiveServer) -> None:
    ana, bia = registered(srv, "ana"), registered(srv, "bia")
    guest = srv.player("Gil")
    before = _panel(srv, ana)
    for body, status, code in (
        ({"name": "nobody"}, 404, "friends/unknown_player"),
        ({"name": "ana"}, 400, "friends/self"),
        ({"name": ""}, 400, "friends/bad_name"),
        ({"name": 12}, 400, "friends/bad_name"),
        ({}, 400, "friends/bad_name"),
        ({"player_id": guest.id}, 400, "friends/not_an_account"),
        ({"player_id": ["x"]}, 404, "friends/unknown_player"),
    ):
        answer = _call(srv, "POST", "/api/account/friends", ana, body)
        assert (answer.status_code, _code(answer)) == (status, code), body
    assert _panel(srv, ana) == before
    _befriend(srv, ana, bia)
    again = _call(srv, "POST", "/api/account/friends", ana, {"player_id": bia.id})
    assert again.status_code == 409 and _code(again) == "friends/already_friends"
    _ok(_call(srv, "POST", "/api/account/blocks", bia, {"player_id": ana.id}))
    blocked = _call(srv, "POST", "/api/account/friends", ana, {"name": "bia"})
    assert blocked.status_code == 409 and _code(blocked) == "friends/unavailable"
    assert _panel(srv, ana)["friends"] == [] and _panel(srv, bia)["outgoing"] == []


def test_friend_requests_and_invitations_are_rate_limited_per_account(tmp_path: Path) -> None:
    limits = Limits(**{**LOOSE.__dict__, "friend_requests_burst": 2, "friend_requests_per_s": 0.001})
    limits = Limits(**{**limits.__dict__, "invites_burst": 1, "invites_per_s": 0.001})
    with running_server(f"sqlite:///{tmp_path / 'db.sqlite3'}", limits=limits) as live:
        ana, bia, caio, duda = (registered(live, n) for n in ("ana", "bia", "caio", "duda"))
        _ok(_call(live, "POST", "/api/account/friends", ana, {"name": "bia"}))
        _ok(_call(live, "POST", "/api/account/friends", ana, {"name": "caio"}))
        limited = _call(live, "POST", "/api/account/friends", ana, {"name": "duda"})
        assert limited.status_code == 429 and _code(limited) == "rate/limited"
        assert sorted(p["username"] for p in _panel(live, ana)["outgoing"]) == ["bia", "caio"]
        _ok(_call(live, "POST", f"/api/account/friends/{ana.id}/accept", bia))
        _ok(_call(live, "POST", f"/api/account/friends/{ana.id}/accept", caio))
        room_id = ana.create_room(name="Mesa", options=OPTIONS)["room_id"]
        _ok(_call(live, "POST", "/api/account/invites", ana, {"player_id": bia.id, "room_id": room_id}))
        limited = _call(live, "POST", "/api/account/invites", ana, {"player_id": caio.id, "room_id": room_id})
        assert limited.status_code == 429 and _code(limited) == "rate/limited"
        assert _panel(live, caio)["invites"] == []
        assert _ok(_call(live, "POST", "/api/account/friends", duda, {"name": "ana"}))["status"] == "requested"


def _in_room(room_id: str) -> Callable[[dict[str, Any]], bool]:
    return lambda m: bool(m["type"] == "room" and m["room"]["id"] == room_id)


def _where(srv: LiveServer, who: Player, friend: Player) -> dict[str, Any]:
    (entry,) = [f for f in _panel(srv, who)["friends"] if f["player_id"] == friend.id]
    found: dict[str, Any] = entry
    return found


def test_a_friend_is_shown_online_at_a_public_table_and_never_at_a_private_one(srv: LiveServer) -> None:
    ana, bia, caio = registered(srv, "ana"), registered(srv, "bia"), registered(srv, "caio")
    _befriend(srv, ana, bia)
    srv.hub.seen.clear()  # Bia's acceptance was no visit of her home page
    assert (_where(srv, ana, bia)["online"], _where(srv, ana, bia)["table"]) == (False, None)
    public = caio.create_room(name="Aberta", options=OPTIONS)
    hidden = caio.create_room(name="Secreta", options=OPTIONS, visibility="invite")
    locked = caio.create_room(name="Trancada", options=OPTIONS, visibility="password", password="truco")
    ws = bia.connect()
    assert ws.join(public["room_id"])["type"] == "room"
    here = _where(srv, ana, bia)
    assert here["online"] is True
    assert here["table"] == {"room_id": public["room_id"], "name": "Aberta", "game": "fodinha", "playing": False}
    for room, extra in ((hidden, {"invite": hidden["invite_token"]}), (locked, {"password": "truco"})):
        room_id: str = room["room_id"]
        ws.send("join", room=room_id, **extra)
        ws.wait(_in_room(room_id))
        answer = _call(srv, "GET", "/api/account/friends", ana)
        entry = next(f for f in answer.json()["friends"] if f["player_id"] == bia.id)
        assert entry["online"] is True and entry["table"] is None
        assert room["room_id"] not in answer.text and "Secreta" not in answer.text and "Trancada" not in answer.text
    ws.close()
    # The home page's poll of the panel counts as being online, at no table.
    _panel(srv, bia)
    assert _where(srv, ana, bia)["online"] is True


def test_an_invitation_reaches_the_friends_panel_and_its_link_admits_them(srv: LiveServer) -> None:
    ana, bia, caio = registered(srv, "ana"), registered(srv, "bia"), registered(srv, "caio")
    _befriend(srv, ana, bia)
    created = ana.create_room(name="Sexta", options=OPTIONS, visibility="invite")
    room_id = created["room_id"]
    not_friend = _call(srv, "POST", "/api/account/invites", ana, {"player_id": caio.id, "room_id": room_id})
    assert not_friend.status_code == 403 and _code(not_friend) == "friends/not_friends"
    elsewhere = _call(srv, "POST", "/api/account/invites", bia, {"player_id": ana.id, "room_id": room_id})
    assert elsewhere.status_code == 403 and _code(elsewhere) == "friends/not_in_room"  # Bia is not at that table
    gone = _call(srv, "POST", "/api/account/invites", ana, {"player_id": bia.id, "room_id": "nope"})
    assert gone.status_code == 404 and _code(gone) == "room/not_found"
    bad = _call(srv, "POST", "/api/account/invites", ana, {"player_id": 3, "room_id": room_id})
    assert bad.status_code == 400 and _code(bad) == "message/invalid"
    sent = _ok(_call(srv, "POST", "/api/account/invites", ana, {"player_id": bia.id, "room_id": room_id}))
    (invite,) = _panel(srv, bia)["invites"]
    assert invite["id"] == sent["id"] and invite["room_name"] == "Sexta" and invite["from"]["name"] == "ana"
    assert invite["link"] == f"/invite/{created['invite_token']}"
    assert _panel(srv, caio)["invites"] == [] and _panel(srv, ana)["invites"] == []
    token = invite["link"].rsplit("/", 1)[1]
    ws = bia.connect()
    assert ws.join(room_id)["type"] == "error"  # invite-only: not without the link
    joined = ws.join(room_id, invite=token)
    assert joined["type"] == "room", joined
    ws.send("sit", seat=1)
    ws.wait(sat(bia.id, 1))
    ws.close()
    other = _call(srv, "POST", f"/api/account/invites/{invite['id']}/dismiss", caio)
    assert other.status_code == 404 and _code(other) == "friends/no_invite"
    _ok(_call(srv, "POST", f"/api/account/invites/{invite['id']}/dismiss", bia))
    assert _panel(srv, bia)["invites"] == []


def _seated(srv: LiveServer, owner: Player, others: list[Player]) -> tuple[str, str, list[Client]]:
    created = owner.create_room(name="Mesa", options=OPTIONS)
    room_id, token = created["room_id"], created["invite_token"]
    clients = []
    for i, player in enumerate([owner, *others]):
        client = player.connect()
        assert client.join(room_id)["type"] == "room"
        if i:
            client.send("sit", seat=i)
            client.wait(sat(player.id, i))
        clients.append(client)
    return room_id, token, clients


def test_a_blocked_players_chat_and_reactions_never_reach_the_blocker(srv: LiveServer) -> None:
    caio, ana, bia = registered(srv, "caio"), registered(srv, "ana"), srv.player("Bia")  # Bia: a guest
    room_id, _token, (caio_ws, ana_ws, bia_ws) = _seated(srv, caio, [ana, bia])
    bia_ws.send("chat", text="antes")
    ana_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "antes")  # before the block: delivered
    assert _ok(_call(srv, "POST", "/api/account/blocks", ana, {"player_id": bia.id}))["blocked"] is True
    bia_ws.send("chat", text="oi, Ana")
    bia_ws.send("react", reaction="sefodeu")
    assert caio_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "oi, Ana")["from"]["player_id"] == bia.id
    assert caio_ws.wait_type("reaction")["player_id"] == bia.id  # the others still get them
    assert bia_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "oi, Ana")  # and so does Bia herself
    caio_ws.send("chat", text="depois")  # sent after Bia's: once Ana has it, Bia's would have come first
    ana_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "depois")
    after = ana_ws.received[ana_ws.received.index(next(m for m in ana_ws.received if m.get("text") == "antes")) + 1 :]
    assert not [m for m in after if m["type"] in ("chat", "reaction") and bia.id in str(m)], after
    # Joining again: the recap of the room's chat leaves Bia's messages out for Ana, not for Caio.
    again = ana.connect()
    again.join(room_id)
    again.send("ping")
    again.wait_type("pong")
    recap = [m["text"] for m in again.received if m["type"] == "chat"]
    assert recap == ["depois"], recap
    # Unblocked: delivered again.
    _ok(_call(srv, "POST", f"/api/account/blocks/{bia.id}/remove", ana))
    bia_ws.send("chat", text="voltei")
    ana_ws.wait(lambda m: m["type"] == "chat" and m["text"] == "voltei")
    for client in (caio_ws, ana_ws, bia_ws, again):
        client.close()


def test_a_blocked_player_neither_sits_nor_watches_in_the_blockers_rooms(srv: LiveServer) -> None:
    ana, bia, caio = registered(srv, "ana"), registered(srv, "bia"), registered(srv, "caio")
    _befriend(srv, ana, bia)
    room_id, token, (ana_ws, bia_ws) = _seated(srv, ana, [bia])
    _ok(_call(srv, "POST", "/api/account/blocks", ana, {"name": "bia"}))
    turned = bia_ws.wait(lambda m: m["type"] == "error")
    assert turned["code"] == "room/blocked"
    ana_ws.wait(lambda m: m["type"] == "room" and all(s["player_id"] != bia.id for s in m["room"]["seats"]))
    assert bia_ws.error("chat", text="ainda aqui?")["code"] == "room/not_joined"  # out of the room
    for extra in ({}, {"invite": token}):
        refused = bia_ws.join(room_id, **extra)
        assert refused["type"] == "error" and refused["code"] == "room/blocked", refused
    new_room = ana.create_room(name="Outra", options=OPTIONS, visibility="invite")
    refused = bia_ws.join(new_room["room_id"], invite=new_room["invite_token"])
    assert refused["code"] == "room/blocked"
    assert _panel(srv, ana)["friends"] == [] and [b["player_id"] for b in _panel(srv, ana)["blocked"]] == [bia.id]
    # Caio's rooms, and Bia's own, are none of Ana's business.
    caio_room = caio.create_room(name="Do Caio", options=OPTIONS)
    assert bia_ws.join(caio_room["room_id"])["type"] == "room"
    bia_ws.close()
    ana_ws.close()


def test_friends_blocks_and_a_pending_invitation_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    with running_server(url) as first:
        ana, bia, caio, duda = (registered(first, n) for n in ("ana", "bia", "caio", "duda"))
        _befriend(first, ana, bia)
        _ok(_call(first, "POST", "/api/account/friends", caio, {"name": "ana"}))
        _ok(_call(first, "POST", "/api/account/blocks", ana, {"player_id": duda.id}))
        room_id = ana.create_room(name="Mesa", options=OPTIONS)["room_id"]
        _ok(_call(first, "POST", "/api/account/invites", ana, {"player_id": bia.id, "room_id": room_id}))
        before = {p.id: _panel(first, p) for p in (ana, bia)}
    with running_server(url) as second:
        for player in (ana, bia, caio, duda):
            player.server = second
        after = {p.id: _panel(second, p) for p in (ana, bia)}
        for pid in after:
            for key in ("friends", "incoming", "outgoing", "blocked", "invites"):
                strip = [{k: v for k, v in e.items() if k not in ("online", "table")} for e in after[pid][key]]
                assert strip == [{k: v for k, v in e.items() if k not in ("online", "table")} for e in before[pid][key]]
        assert [i["room_id"] for i in after[bia.id]["invites"]] == [room_id]
        assert [p["player_id"] for p in after[ana.id]["incoming"]] == [caio.id]
        ws = duda.connect()
        refused = ws.join(room_id)  # the block, reloaded by the server
        assert refused["type"] == "error" and refused["code"] == "room/blocked"
        ws.close()


def test_deleting_an_account_removes_its_friends_blocks_and_invitations_live(srv: LiveServer) -> None:
    ana, bia = registered(srv, "ana"), registered(srv, "bia")
    _befriend(srv, ana, bia)
    room_id = ana.create_room(name="Mesa", options=OPTIONS)["room_id"]
    _ok(_call(srv, "POST", "/api/account/invites", ana, {"player_id": bia.id, "room_id": room_id}))
    _ok(_call(srv, "POST", "/api/account/blocks", bia, {"player_id": ana.id}))  # ends the friendship too
    _ok(_call(srv, "POST", "/api/account/blocks", ana, {"name": "bia"}))
    assert srv.hub.is_blocked(bia.id, ana.id) and srv.hub.is_blocked(ana.id, bia.id)
    _ok(_call(srv, "POST", "/api/account/delete", ana, {"password": "correct horse"}))
    assert not srv.hub.is_blocked(bia.id, ana.id) and ana.id not in srv.hub.blocks
    panel = _panel(srv, bia)
    assert panel == {"friends": [], "incoming": [], "outgoing": [], "blocked": [], "invites": []}
