"""Moderation in a cluster on PostgreSQL (issue 28): a moderator's action made through one node reaches every node
at once (``Hub.apply_moderation`` over ``Cluster.tell_all``, as blocks do). The room lives on n2; the muted player
chats through n1, the banned player holds a socket on n2; the moderator acts through n1's HTTP API. Redis delivers
the action to n2 before anything published after it: no waiting on time. It also runs migration 0009 and
``sefode admin grant`` on PostgreSQL."""

from __future__ import annotations

from pathlib import Path

import httpx
from cluster_helpers import cluster
from server_helpers import WAIT_S
from test_cluster_blocks import Socket, _account, _post
from websockets.exceptions import ConnectionClosed

from sefode.cli import main as cli


def _closed_with(socket: Socket) -> int | None:
    try:
        while True:
            socket.ws.recv(timeout=WAIT_S)
    except ConnectionClosed as closed:
        return closed.rcvd.code if closed.rcvd is not None else None


def test_a_mute_and_a_ban_made_through_one_node_take_effect_on_another(tmp_path: Path) -> None:
    with cluster(tmp_path, nodes=2) as rig:
        n1, n2 = rig.node_base("n1"), rig.node_base("n2")
        ana, _ = _account(n1, "ana")
        bia, bia_id = _account(n1, "bia")
        caio, caio_id = _account(n1, "caio")
        mod, _ = _account(n1, "mod")
        assert cli(["admin", "grant", "mod", "--database", rig.database_url]) == 0
        room_id = str(_post(n2, "/api/rooms", {"name": "Mesa", "options": {"players": 3}}, ana)["room_id"])
        assert rig.owner(room_id) == "n2"
        chatting = Socket(n1, bia)  # in the room through n1
        assert chatting.join(room_id)["type"] == "room"
        _post(n1, "/api/mod/mute", {"player_id": bia_id, "reason": "xingou"}, mod)
        chatting.ws.send('{"type": "chat", "text": "oi"}')
        refused = chatting.until("error", "chat")
        assert refused["type"] == "error" and refused["code"] == "chat/muted", refused
        held = Socket(n2, caio)  # Caio's socket is on n2
        _post(n1, "/api/mod/ban", {"player_id": caio_id, "reason": "trapaça", "minutes": 60}, mod)
        assert _closed_with(held) == 4410
        login = httpx.post(f"{n2}/api/account/login", json={"username": "caio", "password": "correct horse"})
        assert login.status_code == 403 and login.json()["error"]["code"] == "auth/banned"
        # A room on n2 closed through n1: its players are told, and a join through either node is refused.
        _post(n1, "/api/mod/close-room", {"room_id": room_id, "reason": "nome ofensivo"}, mod)
        assert chatting.until("room_closed")["room"] == room_id
        for base in (n1, n2):
            refused = Socket(base, ana).join(room_id)
            assert refused["type"] == "error" and refused["code"] == "room/not_found", (base, refused)
        chatting.ws.close()
