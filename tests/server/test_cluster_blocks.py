"""Blocking in a cluster (issue 23): every node keeps a copy of who blocked whom, so a block made through one node
must reach the others at once. The room lives on n2; the players reach it through n1 (an edge), and the block is
made through n1's HTTP API. Redis delivers the block to n2 before anything published after it, so n2 has it before
the next forwarded join: no waiting on time."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from cluster_helpers import cluster
from server_helpers import WAIT_S, Message
from websockets.sync.client import ClientConnection, connect


class Socket:
    """One WebSocket to a node, as a player."""

    def __init__(self, base: str, token: str) -> None:
        self.ws: ClientConnection = connect(base.replace("http://", "ws://") + "/ws", open_timeout=WAIT_S)
        self.ws.send(json.dumps({"type": "auth", "token": token}))
        assert self.next()["type"] == "hello"

    def next(self) -> Message:
        message: Message = json.loads(self.ws.recv(timeout=WAIT_S))
        return message

    def until(self, *kinds: str) -> Message:
        while True:
            message = self.next()
            if message["type"] in kinds:
                return message

    def join(self, room_id: str) -> Message:
        self.ws.send(json.dumps({"type": "join", "room": room_id}))
        return self.until("room", "error")


def _post(base: str, path: str, body: dict[str, Any], token: str) -> dict[str, Any]:
    response = httpx.post(f"{base}{path}", json=body, headers={"authorization": f"Bearer {token}"}, timeout=WAIT_S)
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _account(base: str, name: str) -> tuple[str, str]:
    guest = httpx.post(f"{base}/api/session", json={"name": name}, timeout=WAIT_S).json()["token"]
    made = _post(base, "/api/account/register", {"username": name, "password": "correct horse"}, guest)
    return str(made["token"]), str(made["player_id"])


def test_a_block_made_through_one_node_keeps_the_player_out_of_the_blockers_room_on_another(tmp_path: Path) -> None:
    with cluster(tmp_path, nodes=2) as rig:
        n1, n2 = rig.node_base("n1"), rig.node_base("n2")
        ana, _ = _account(n1, "ana")
        bia, bia_id = _account(n1, "bia")
        room_id = str(_post(n2, "/api/rooms", {"name": "Mesa da Ana", "options": {"players": 3}}, ana)["room_id"])
        assert rig.owner(room_id) == "n2"
        watching = Socket(n1, bia)
        assert watching.join(room_id)["type"] == "room"  # not blocked yet: in, through n1
        _post(n1, "/api/account/blocks", {"name": "bia"}, ana)
        # n2 heard it: Bia, in the room through n1, is turned away, and joining again is refused.
        assert watching.until("error")["code"] == "room/blocked"
        again = Socket(n1, bia)
        refused = again.join(room_id)
        assert refused["type"] == "error" and refused["code"] == "room/blocked", refused
        # Unblocked through n1: n2 lets her in again.
        _post(n1, f"/api/account/blocks/{bia_id}/remove", {}, ana)
        assert again.join(room_id)["type"] == "room"
        watching.ws.close()
        again.ws.close()
