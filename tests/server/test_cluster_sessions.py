"""Ended sessions in a cluster (issue 21): a logout, a logout everywhere or an account deletion made through one node
closes the player's sockets on every node (close code 4410), and no node still takes the ended token from its
session cache. Bia's sockets are on n2; she logs out and deletes her account through n1 (``Hub.end_sessions`` tells
every node). The test waits on the closes themselves; n2 drops its cached session before it closes the socket."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
from cluster_helpers import cluster
from server_helpers import WAIT_S
from test_cluster_blocks import Socket, _account, _post
from test_cluster_moderation import _closed_with
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def _login(base: str, name: str) -> str:
    answer = httpx.post(f"{base}/api/account/login", json={"username": name, "password": "correct horse"})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["token"])


def _alive(socket: Socket) -> bool:
    """The socket still answers a ping."""
    socket.ws.send(json.dumps({"type": "ping"}))
    return bool(socket.until("pong")["type"] == "pong")


def _refused(base: str, token: str) -> int | None:
    """The close code of a new socket that authenticates with ``token`` (None: it was let in)."""
    with connect(base.replace("http://", "ws://") + "/ws", open_timeout=WAIT_S) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        try:
            if json.loads(ws.recv(timeout=WAIT_S))["type"] == "hello":
                return None
            ws.recv(timeout=WAIT_S)
        except ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd is not None else None
    return None


def test_logout_and_deletion_through_one_node_close_the_players_sockets_on_another(tmp_path: Path) -> None:
    with cluster(tmp_path, nodes=2) as rig:
        n1, n2 = rig.node_base("n1"), rig.node_base("n2")
        first, _ = _account(n1, "bia")
        second = _login(n1, "bia")
        third = _login(n1, "bia")
        one, two, three = Socket(n2, first), Socket(n2, second), Socket(n2, third)  # n2 caches the three sessions
        # A logout through n1 ends that session's socket on n2, and n2 no longer takes its token; the others stay.
        _post(n1, "/api/account/logout", {}, first)
        assert _closed_with(one) == 4410
        assert _alive(two) and _alive(three)
        assert _refused(n2, first) == 4401
        # Logging out everywhere through n1 ends every socket of the player on n2.
        _post(n1, "/api/account/logout-all", {}, second)
        assert _closed_with(two) == 4410 and _closed_with(three) == 4410
        assert _refused(n2, second) == 4401
        # So does deleting the account through n1.
        fourth = _login(n1, "bia")
        four = Socket(n2, fourth)
        _post(n1, "/api/account/delete", {"password": "correct horse"}, fourth)
        assert _closed_with(four) == 4410
        assert _refused(n2, fourth) == 4401
