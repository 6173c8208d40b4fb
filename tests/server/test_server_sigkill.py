"""A server killed with SIGKILL mid-hand comes back with every match where it was."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from server_helpers import LiveServer, free_port, serve_subprocess
from table_helpers import drive, settle, start, table, wait_state


def test_sigkill_mid_hand_then_restart_resumes_the_match_at_the_same_version_and_view(tmp_path: Path) -> None:
    port = free_port()
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'killed.sqlite3'}",
        "SEFODE_BOT_DELAY_S": "0",
        "SEFODE_DISCONNECT_GRACE_S": "600",
    }
    log = tmp_path / "server.log"
    proc = serve_subprocess(port, env, log)
    try:
        first = LiveServer(f"http://127.0.0.1:{port}", None)
        room_id, clients = table(first, ["Ana", "Bia"], {"players": 2, "lives": 5})
        start(clients[0], clients[1:])

        def into_a_hand() -> bool:
            state = clients[0].state
            if state is None:
                return False
            view = state["view"]
            return view["hand_number"] >= 2 and view["phase"] == "playing" and bool(view["trick"])

        drive(clients, into_a_hand)
        settle(clients)
        before = {c.player.id: c.state for c in clients}
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        assert proc.returncode == -signal.SIGKILL
        for client in clients:
            client.close()

        proc = serve_subprocess(port, env, log)
        second = LiveServer(f"http://127.0.0.1:{port}", None)
        again = []
        for client in clients:
            back = client.player.connect(second)
            room = back.join(room_id)["room"]
            assert room["status"] == "playing"
            state = wait_state(back, lambda m: True)
            old = before[client.player.id]
            assert old is not None
            assert state["match_id"] == old["match_id"]
            assert state["version"] == old["version"]
            assert state["view"] == old["view"]
            again.append(back)
        # and the match goes on from there
        on_turn = next(c for c in again if c.state and c.state["seat"] in c.state["awaiting"])
        assert on_turn.state is not None
        version = on_turn.state["version"]
        on_turn.send("action", action=on_turn.state["view"]["legal"][0], version=version)
        assert wait_state(on_turn, lambda m: m["version"] == version + 1)["events"]
        second.http.close()
        first.http.close()
    finally:
        proc.kill()
        proc.wait(10)
    assert '"event": "match.restored"' in log.read_text()
